import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { CreatedApp } from './app-response.ts'

/** One SKU of an accepted bulk upload, exactly as it was sent. */
export interface ReceivedSku {
  /** Assigned by the sandbox (the contract shows no SKU identifier). */
  id: string
  receivedAt: string
  /** Shared by the SKUs of one request, so a batch can be told apart from the next. */
  batchId: string
  sku: unknown
}

/** One created app: the request as sent and the `app` the sandbox answered with. */
export interface ReceivedApp {
  /** The app's `_id`. */
  id: string
  receivedAt: string
  request: unknown
  app: CreatedApp
}

export interface Received {
  skus: ReceivedSku[]
  apps: ReceivedApp[]
}

const FORMAT = 1

function isReceived(value: unknown): value is Received {
  const record = value as Partial<Received> | null
  return (
    typeof record === 'object' && record !== null && Array.isArray(record.skus) && Array.isArray(record.apps)
  )
}

/**
 * What the sandbox accepted, in memory and, with a file, on disk: a restarted sandbox still shows
 * what it got. A request is answered only after its data is written, so a 201 means stored.
 */
export class ReceivedStore {
  readonly #file: string | undefined
  #data: Received
  /** Writes run one after the other, each with the whole state, so the last one wins. */
  #writing: Promise<void> = Promise.resolve()

  private constructor(file: string | undefined, data: Received) {
    this.#file = file
    this.#data = data
  }

  /** Loads `file` if it exists. A file that is not a store is an error, never silently replaced. */
  static async open(file?: string): Promise<ReceivedStore> {
    if (file === undefined) return new ReceivedStore(undefined, { skus: [], apps: [] })
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT')
        return new ReceivedStore(file, { skus: [], apps: [] })
      throw new Error(`Cannot read the sandbox store ${file}: ${(error as Error).message}`, { cause: error })
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new Error(`The sandbox store ${file} is not JSON: ${(error as Error).message}`, { cause: error })
    }
    if (!isReceived(parsed))
      throw new Error(`${file} is not a sandbox store: it needs "skus" and "apps" lists`)
    return new ReceivedStore(file, { skus: parsed.skus, apps: parsed.apps })
  }

  snapshot(): Received {
    return structuredClone(this.#data)
  }

  /** Stores one accepted batch, all of it or (if the file cannot be written) none of it. */
  async addSkus(skus: unknown[], receivedAt: string): Promise<ReceivedSku[]> {
    const batchId = randomUUID()
    const added = skus.map((sku) => ({ id: randomUUID(), receivedAt, batchId, sku: structuredClone(sku) }))
    this.#data.skus.push(...added)
    try {
      await this.#persist()
    } catch (error) {
      this.#data.skus = this.#data.skus.filter((entry) => entry.batchId !== batchId)
      throw error
    }
    return added
  }

  async addApp(entry: ReceivedApp): Promise<void> {
    this.#data.apps.push(entry)
    try {
      await this.#persist()
    } catch (error) {
      this.#data.apps = this.#data.apps.filter((app) => app !== entry)
      throw error
    }
  }

  async clear(): Promise<void> {
    this.#data = { skus: [], apps: [] }
    await this.#persist()
  }

  /** Resolves once every write started so far has finished. */
  async idle(): Promise<void> {
    await this.#writing.catch(() => undefined)
  }

  #persist(): Promise<void> {
    const file = this.#file
    if (file === undefined) return Promise.resolve()
    const write = this.#writing.catch(() => undefined).then(() => writeAtomically(file, this.#data))
    this.#writing = write
    return write
  }
}

/** A temporary file renamed over the old one: a crash mid-write leaves the previous store intact. */
async function writeAtomically(file: string, data: Received): Promise<void> {
  const text = JSON.stringify({ format: FORMAT, ...data }, null, 2) + '\n'
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`
  await mkdir(dirname(file), { recursive: true })
  try {
    await writeFile(temporary, text)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
