import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { appendFile, mkdir, readFile, rename, stat, truncate } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { formatBytes } from '#shared/byte-size.ts'
import { messageOf } from '#shared/error-message.ts'
import { writeJsonLinesAtomic } from '../atomic-json.ts'
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

/** How many of the oldest entries were let go to keep the store within its size. */
export interface Dropped {
  skus: number
  apps: number
  message: string
}

export interface Received {
  skus: ReceivedSku[]
  apps: ReceivedApp[]
  /** Present once older entries were dropped. */
  dropped?: Dropped
}

/** 256 MB: tens of thousands of full SKUs, and well under what Node can read back as one string. */
export const DEFAULT_MAX_STORE_BYTES = 256 * 1024 * 1024

/**
 * One line of the store file (JSON Lines). The first is the header, written with the first entry
 * through a temporary file (so it is never torn): a file that does not start with it is not a
 * store, whatever follows. Each accepted request then appends one line, so a request costs the
 * size of what it sent, not of everything stored so far; the file is rewritten only when it is
 * emptied or its oldest entries are dropped.
 */
type Line =
  { format: 2; dropped?: { skus: number; apps: number } } | { skus: ReceivedSku[] } | { app: ReceivedApp }

/** A line in memory: what it holds and how many bytes it takes in the file. */
type Entry = { bytes: number; skus: ReceivedSku[] } | { bytes: number; app: ReceivedApp }

const HEADER_FORMAT = 2

/** Why a store file cannot be used; the file is set aside, never overwritten. */
class UnusableStore extends Error {}

export interface ReceivedStoreOptions {
  /** Where the store lives; in memory only when absent. */
  file?: string
  /** The file's largest size; the oldest entries are dropped to stay within it. */
  maxBytes?: number
  /**
   * What to do with a file that cannot be used: keep it and fail (the default: a file a person
   * named may be anything, and is never moved), or move it aside and start empty (the app's own
   * store, which must never stop the app from starting).
   */
  unusable?: 'fail' | 'set-aside'
  /** For the name of a set-aside file. */
  now?: () => Date
}

/**
 * What the sandbox accepted, in memory and, with a file, on disk: a restarted sandbox still shows
 * what it got. A request is answered only after its line is written, so a 201 means stored.
 */
export class ReceivedStore {
  readonly #file: string | undefined
  readonly #maxBytes: number
  #entries: Entry[]
  #dropped: { skus: number; apps: number }
  /** The file's size (the header line included): what the limit bounds, and where an append starts. */
  #bytes: number
  /** Writes run one after the other, in the order the requests were accepted. */
  #writing: Promise<void> = Promise.resolve()
  /** Something the person should know about the file (it was set aside), said once at start. */
  readonly notice: string | undefined

  private constructor(
    file: string | undefined,
    maxBytes: number,
    loaded: { entries: Entry[]; dropped: { skus: number; apps: number }; bytes: number },
    notice?: string,
  ) {
    this.#file = file
    this.#maxBytes = maxBytes
    this.#entries = loaded.entries
    this.#dropped = loaded.dropped
    this.#bytes = loaded.bytes
    this.notice = notice
  }

  /**
   * Loads the store file if there is one. A file that cannot be used (damaged, not a store, over
   * the size limit) fails the opening, or, with `unusable: 'set-aside'`, is moved aside under
   * another name and the store starts empty, with a notice saying where the old file is.
   */
  static async open({
    file,
    maxBytes = DEFAULT_MAX_STORE_BYTES,
    unusable = 'fail',
    now = () => new Date(),
  }: ReceivedStoreOptions = {}): Promise<ReceivedStore> {
    if (!Number.isInteger(maxBytes) || maxBytes < 1)
      throw new RangeError('maxStoreBytes must be a whole number of at least 1')
    const empty = { entries: [], dropped: { skus: 0, apps: 0 }, bytes: 0 }
    if (file === undefined) return new ReceivedStore(undefined, maxBytes, empty)
    try {
      return new ReceivedStore(file, maxBytes, await load(file, maxBytes))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new ReceivedStore(file, maxBytes, empty)
      const reason =
        error instanceof UnusableStore ? error.message : `it could not be read: ${messageOf(error)}`
      if (unusable === 'fail')
        throw new Error(`The sandbox store ${file} cannot be used: ${reason}`, { cause: error })
      const aside = `${file}.set-aside-${now().toISOString().replace(/[:.]/g, '-')}`
      // Not moved, it would be overwritten by the first request: a start with it cannot go on.
      await rename(file, aside).catch((renameError: unknown) => {
        throw new Error(
          `The sandbox store ${file} cannot be used (${reason}) and could not be moved aside: ${messageOf(renameError)}`,
          { cause: renameError },
        )
      })
      return new ReceivedStore(
        file,
        maxBytes,
        empty,
        `The sandbox's store could not be used (${reason}): the sandbox started empty and the old file was kept as ${aside}.`,
      )
    }
  }

  snapshot(): Received {
    const received: Received = structuredClone({
      skus: this.#entries.flatMap((entry) => ('skus' in entry ? entry.skus : [])),
      apps: this.#entries.flatMap((entry) => ('app' in entry ? [entry.app] : [])),
    })
    const { skus, apps } = this.#dropped
    if (skus + apps > 0) {
      received.dropped = {
        skus,
        apps,
        message: `The store keeps at most ${formatBytes(this.#maxBytes)}: the oldest ${skus} SKU${skus === 1 ? '' : 's'} and ${apps} app${apps === 1 ? '' : 's'} were dropped.`,
      }
    }
    return received
  }

  /** Stores one accepted batch, all of it or (if the file cannot be written) none of it. */
  addSkus(skus: unknown[], receivedAt: string): Promise<ReceivedSku[]> {
    const batchId = randomUUID()
    const added = skus.map((sku) => ({ id: randomUUID(), receivedAt, batchId, sku: structuredClone(sku) }))
    return this.#append({ skus: added }).then(() => added)
  }

  addApp(app: ReceivedApp): Promise<void> {
    return this.#append({ app })
  }

  clear(): Promise<void> {
    return this.#queue(async () => {
      this.#entries = []
      this.#dropped = { skus: 0, apps: 0 }
      await this.#rewrite()
    })
  }

  /** Resolves once every write started so far has finished. */
  async idle(): Promise<void> {
    await this.#writing.catch(() => undefined)
  }

  #queue(write: () => Promise<void>): Promise<void> {
    const next = this.#writing.catch(() => undefined).then(write)
    this.#writing = next
    return next
  }

  /** Adds the line in memory and on disk; on a failed write, neither keeps it. */
  #append(line: { skus: ReceivedSku[] } | { app: ReceivedApp }): Promise<void> {
    const text = lineOf(line)
    const entry: Entry = { bytes: Buffer.byteLength(text), ...line }
    return this.#queue(async () => {
      const file = this.#file
      // An empty store is begun whole, header and entry (#rewrite); a full one lets its oldest go.
      if (this.#bytes === 0 || this.#bytes + entry.bytes > this.#maxBytes) {
        const before = { entries: this.#entries, dropped: this.#dropped }
        this.#entries = [...this.#entries, entry]
        this.#dropped = { ...this.#dropped }
        this.#dropOldest(entry.bytes)
        try {
          await this.#rewrite()
        } catch (error) {
          // The file still holds what it held: so does memory.
          this.#entries = before.entries
          this.#dropped = before.dropped
          throw error
        }
        return
      }
      const before = this.#bytes
      this.#entries.push(entry)
      this.#bytes += entry.bytes
      if (file === undefined) return
      try {
        await mkdir(dirname(file), { recursive: true })
        await appendFile(file, text)
      } catch (error) {
        this.#entries.pop()
        this.#bytes = before
        // A line cut off half-way would damage the file for every later line: cut it back.
        await truncate(file, before).catch(() => undefined)
        throw error
      }
    })
  }

  /**
   * Lets the oldest entries go until the store fits in half the limit, so the file is rewritten
   * once in a while, not on every request near the limit. The newest entry always stays.
   */
  #dropOldest(newest: number): void {
    let bytes = this.#bytes + newest
    const target = Math.max(this.#maxBytes / 2, newest)
    while (this.#entries.length > 1 && bytes > target) {
      const oldest = this.#entries.shift()!
      bytes -= oldest.bytes
      if ('skus' in oldest) this.#dropped.skus += oldest.skus.length
      else this.#dropped.apps += 1
    }
  }

  /** Writes the whole file anew (through a temporary file): after a clear or a drop. */
  async #rewrite(): Promise<void> {
    const header = headerOf(this.#dropped)
    const bytes = this.#entries.reduce((sum, entry) => sum + entry.bytes, Buffer.byteLength(lineOf(header)))
    if (this.#file !== undefined) {
      await writeJsonLinesAtomic(this.#file, [
        header,
        ...this.#entries.map((entry) => ('skus' in entry ? { skus: entry.skus } : { app: entry.app })),
      ])
    }
    this.#bytes = bytes
  }
}

/** One line of the file, as written. */
function lineOf(value: Line): string {
  return `${JSON.stringify(value)}\n`
}

function headerOf(dropped: { skus: number; apps: number }): Line {
  return { format: HEADER_FORMAT, ...(dropped.skus + dropped.apps > 0 ? { dropped } : {}) }
}

/**
 * The counts of dropped entries a store's header holds, or undefined when `line` is no header.
 * Throws for a header of another format.
 */
function droppedInHeader(line: unknown): { skus: number; apps: number } | undefined {
  const record = line as Partial<Record<'format' | 'dropped', unknown>> | null | undefined
  if (typeof record !== 'object' || record === null || record.format === undefined) return undefined
  if (record.format !== HEADER_FORMAT)
    throw new UnusableStore(`it has format ${String(record.format)}, which this version does not read`)
  const counts = record.dropped as { skus?: unknown; apps?: unknown } | undefined
  return counts && Number.isInteger(counts.skus) && Number.isInteger(counts.apps)
    ? (counts as { skus: number; apps: number })
    : { skus: 0, apps: 0 }
}

/** The entry a parsed line holds, or undefined when it holds none. */
function entryOf(line: unknown, bytes: number): Entry | undefined {
  const record = line as Partial<Record<'skus' | 'app', unknown>> | null
  if (typeof record !== 'object' || record === null) return undefined
  if (Array.isArray(record.skus)) return { bytes, skus: record.skus as ReceivedSku[] }
  if (typeof record.app === 'object' && record.app !== null) return { bytes, app: record.app as ReceivedApp }
  return undefined
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** Reads a store file line by line (never as one string, which Node cannot hold past ~512 MB). */
async function load(
  file: string,
  maxBytes: number,
): Promise<{ entries: Entry[]; dropped: { skus: number; apps: number }; bytes: number }> {
  const { size } = await stat(file)
  if (size > maxBytes) {
    throw new UnusableStore(
      `it is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} the store may hold`,
    )
  }
  const entries: Entry[] = []
  let dropped = { skus: 0, apps: 0 }
  let number = 0
  /** Where the current line starts in the file. */
  let offset = 0
  /**
   * A line that did not parse: fine if it is the last (a write cut off by a crash), else damage.
   * Only after the header: a file whose first line is something else is not a store at all (one
   * line of anything without a newline is not a torn store), and is never cut.
   */
  let torn: { number: number; offset: number } | undefined
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })
  for await (const text of lines) {
    number += 1
    const start = offset
    offset += Buffer.byteLength(text) + 1
    if (number === 1) {
      if (text.trim() === '{') return loadFormatOne(file)
      const first = parsedOrUndefined(text)
      const counts = droppedInHeader(first)
      if (counts) {
        dropped = counts
        continue
      }
      // Stores begun before the header was written with the first entry start with that entry,
      // whole and ended by its newline; anything else is not a store and is never repaired.
      const entry = offset <= size ? entryOf(first, offset - start) : undefined
      if (!entry) {
        throw new UnusableStore(
          "it is not a sandbox store: its first line is neither the store's header nor a whole entry",
        )
      }
      entries.push(entry)
      continue
    }
    if (torn !== undefined) throw new UnusableStore(`line ${torn.number} is not JSON`)
    if (text.trim() === '') continue
    const line = parsedOrUndefined(text)
    if (line === undefined) {
      torn = { number, offset: start }
      continue
    }
    const entry = entryOf(line, offset - start)
    if (!entry) throw new UnusableStore(`line ${number} is not a store entry`)
    entries.push(entry)
  }
  // The request whose line this was never got its answer: the line goes, and the next one starts clean.
  if (torn) await truncate(file, torn.offset)
  // A last line without its newline (a file edited by hand): the next append must start a line.
  else if (offset > size) await appendFile(file, '\n')
  return { entries, dropped, bytes: torn ? torn.offset : offset }
}

/** The store as versions before 2 wrote it, one pretty-printed JSON document: read once and rewritten as lines. */
async function loadFormatOne(
  file: string,
): Promise<{ entries: Entry[]; dropped: { skus: number; apps: number }; bytes: number }> {
  let parsed: { skus?: unknown; apps?: unknown }
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as typeof parsed
  } catch (error) {
    throw new UnusableStore(`it is not JSON: ${messageOf(error)}`)
  }
  if (!Array.isArray(parsed.skus) || !Array.isArray(parsed.apps))
    throw new UnusableStore('it is not a sandbox store: it needs "skus" and "apps" lists')
  const batches = new Map<string, ReceivedSku[]>()
  for (const sku of parsed.skus as ReceivedSku[]) {
    const batch = batches.get(sku.batchId)
    if (batch) batch.push(sku)
    else batches.set(sku.batchId, [sku])
  }
  const lines = [
    ...[...batches.values()].map((skus) => ({ skus })),
    ...(parsed.apps as ReceivedApp[]).map((app) => ({ app })),
  ]
  const dropped = { skus: 0, apps: 0 }
  const header = headerOf(dropped)
  const entries: Entry[] = lines.map((line) => ({ bytes: Buffer.byteLength(lineOf(line)), ...line }))
  await writeJsonLinesAtomic(file, [header, ...lines])
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, Buffer.byteLength(lineOf(header)))
  return { entries, dropped, bytes }
}
