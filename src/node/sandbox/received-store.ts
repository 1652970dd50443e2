import { randomBytes, randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { appendFile, mkdir, readFile, rename, stat, truncate } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { formatBytes } from '#shared/byte-size.ts'
import { messageOf } from '#shared/error-message.ts'
import { writeJsonLinesAtomic } from '../atomic-json.ts'
import type { CreatedApp } from './app-response.ts'
import { mergeSku } from './sku-merge.ts'

/** One SKU of an accepted bulk upload as the store file keeps it: exactly as it was sent. */
export interface StoredSku {
  /** The entry's own id in the store, older than `_id`; only `_id` is the platform's id of the SKU. */
  id: string
  /**
   * The platform's id of the SKU, given out in the bulk upload's answer and the address of its
   * updates: 24 lower-case hex characters, as a MongoDB ObjectId. Absent for SKUs stored by
   * versions before the sandbox gave ids out: no client knows an id for them, so they cannot be
   * updated.
   */
  _id?: string
  receivedAt: string
  /** Shared by the SKUs of one request, so a batch can be told apart from the next. */
  batchId: string
  sku: unknown
}

/** A SKU this version stored, with the id its bulk upload answered with. */
export type CreatedSku = StoredSku & { _id: string }

/** One accepted update (`PUT …/skus/{skuId}`): its body, exactly as it was sent. */
export interface ReceivedUpdate {
  receivedAt: string
  body: Record<string, unknown>
}

/** An update as the store file keeps it: one line each, naming the SKU it changed. */
interface StoredUpdate extends ReceivedUpdate {
  _id: string
}

/**
 * A SKU as `/__sandbox/received` lists it: `sku` as it now stands (what was created with every
 * accepted update merged in, in order), and the updates that made it so, oldest first.
 */
export interface ReceivedSku extends StoredSku {
  updates: ReceivedUpdate[]
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

/** What an accepted request adds: a batch of SKUs, an app, or one SKU's update. */
type Content = { skus: StoredSku[] } | { app: ReceivedApp } | { update: StoredUpdate }

/**
 * One line of the store file (JSON Lines). The first is the header, written with the first entry
 * through a temporary file (so it is never torn): a file that does not start with it is not a
 * store, whatever follows. Each accepted request then appends one line, so a request costs the
 * size of what it sent, not of everything stored so far; the file is rewritten only when it is
 * emptied or its oldest entries are dropped.
 */
type Line = { format: 2; dropped?: { skus: number; apps: number } } | Content

/** A line in memory: what it holds and how many bytes it takes in the file. */
type Entry = Content & { bytes: number }

/** A SKU with a platform id, as it now stands: what the updates are merged into, and checked against. */
interface SkuState {
  current: unknown
  updates: ReceivedUpdate[]
}

/** What an update came to: no SKU has that id, the check refused it, or the SKU as it now stands. */
export type UpdateResult<Refusal> = { notFound: true } | { refused: Refusal } | { sku: unknown }

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
  /** The SKUs with a platform id, by that id: what an update finds and merges into. */
  #skus: Map<string, SkuState>
  /** Writes run one after the other, in the order the requests were accepted. */
  #writing: Promise<unknown> = Promise.resolve()
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
    this.#skus = skuStates(loaded.entries)
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
      skus: this.#entries.flatMap((entry) =>
        'skus' in entry
          ? entry.skus.map((stored): ReceivedSku => {
              const state = stored._id === undefined ? undefined : this.#skus.get(stored._id)
              return { ...stored, sku: state ? state.current : stored.sku, updates: state?.updates ?? [] }
            })
          : [],
      ),
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

  /**
   * Stores one accepted batch, all of it or (if the file cannot be written) none of it, giving each
   * SKU its platform id. Ids are drawn in the write queue, so one is never that of a SKU stored
   * before, and from 96 random bits, so one of a SKU dropped or cleared away does not come back.
   */
  addSkus(skus: unknown[], receivedAt: string): Promise<CreatedSku[]> {
    const batchId = randomUUID()
    const copies = skus.map((sku) => structuredClone(sku))
    return this.#queue(async () => {
      const ids = new Set<string>()
      const added = copies.map((sku): CreatedSku => {
        let _id = newSkuId()
        while (this.#skus.has(_id) || ids.has(_id)) _id = newSkuId()
        ids.add(_id)
        return { id: randomUUID(), _id, receivedAt, batchId, sku }
      })
      await this.#write({ skus: added })
      return added
    })
  }

  addApp(app: ReceivedApp): Promise<void> {
    return this.#queue(() => this.#write({ app }))
  }

  /** Whether a SKU has this platform id (a Map: an id such as `constructor` finds nothing inherited). */
  hasSku(skuId: string): boolean {
    return this.#skus.has(skuId)
  }

  /**
   * Applies a partial update to the SKU whose platform id is `skuId` (see `mergeSku`), in the write
   * queue, so each update merges into what the one before it made. `check` sees the SKU as it
   * stands and as the update would leave it; what it returns refuses the update and nothing is
   * stored. The update is kept as a line of its own, so the file keeps what was created as it was
   * sent and each update as it was sent.
   */
  updateSku<Refusal>(
    skuId: string,
    body: Record<string, unknown>,
    receivedAt: string,
    check: (current: unknown, merged: Record<string, unknown>) => Refusal | undefined,
  ): Promise<UpdateResult<Refusal>> {
    const copy = structuredClone(body)
    return this.#queue(async (): Promise<UpdateResult<Refusal>> => {
      const state = this.#skus.get(skuId)
      if (!state) return { notFound: true }
      const merged = mergeSku(state.current, copy)
      const refusal = check(state.current, merged)
      if (refusal !== undefined) return { refused: refusal }
      await this.#write({ update: { _id: skuId, receivedAt, body: copy } })
      return { sku: structuredClone(merged) }
    })
  }

  clear(): Promise<void> {
    return this.#queue(async () => {
      this.#entries = []
      this.#dropped = { skus: 0, apps: 0 }
      this.#skus = new Map()
      await this.#rewrite()
    })
  }

  /** Resolves once every write started so far has finished. */
  async idle(): Promise<void> {
    await this.#writing.catch(() => undefined)
  }

  #queue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#writing.catch(() => undefined).then(work)
    this.#writing = next
    return next
  }

  /** Adds the line in memory and on disk; on a failed write, neither keeps it. Runs in the queue. */
  async #write(content: Content): Promise<void> {
    const text = lineOf(content)
    const entry: Entry = { bytes: Buffer.byteLength(text), ...content }
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
      } finally {
        // Seldom (a drop or a first entry), so the states are worked out again from what stays.
        this.#skus = skuStates(this.#entries)
      }
      return
    }
    const before = this.#bytes
    this.#entries.push(entry)
    this.#bytes += entry.bytes
    try {
      if (file !== undefined) {
        await mkdir(dirname(file), { recursive: true })
        await appendFile(file, text)
      }
    } catch (error) {
      this.#entries.pop()
      this.#bytes = before
      // A line cut off half-way would damage the file for every later line: cut it back.
      if (file !== undefined) await truncate(file, before).catch(() => undefined)
      throw error
    }
    applyEntry(this.#skus, entry)
  }

  /**
   * Lets the oldest entries go until the store fits in half the limit, so the file is rewritten
   * once in a while, not on every request near the limit. The newest entry always stays, unless it
   * is an update of a SKU let go: a SKU's updates go with it, as they would change nothing shown.
   */
  #dropOldest(newest: number): void {
    let bytes = this.#bytes + newest
    const target = Math.max(this.#maxBytes / 2, newest)
    while (this.#entries.length > 1 && bytes > target) {
      const oldest = this.#entries.shift()!
      bytes -= oldest.bytes
      if ('app' in oldest) this.#dropped.apps += 1
      if (!('skus' in oldest)) continue
      this.#dropped.skus += oldest.skus.length
      const gone = new Set(oldest.skus.flatMap((stored) => (stored._id === undefined ? [] : [stored._id])))
      if (gone.size === 0) continue
      this.#entries = this.#entries.filter((entry) => {
        const orphan = 'update' in entry && gone.has(entry.update._id)
        if (orphan) bytes -= entry.bytes
        return !orphan
      })
    }
  }

  /** Writes the whole file anew (through a temporary file): after a clear or a drop. */
  async #rewrite(): Promise<void> {
    const header = headerOf(this.#dropped)
    const bytes = this.#entries.reduce((sum, entry) => sum + entry.bytes, Buffer.byteLength(lineOf(header)))
    if (this.#file !== undefined) {
      await writeJsonLinesAtomic(this.#file, [header, ...this.#entries.map(contentOf)])
    }
    this.#bytes = bytes
  }
}

/** A new platform id of a SKU: 12 random bytes as 24 lower-case hex characters, an ObjectId's look. */
function newSkuId(): string {
  return randomBytes(12).toString('hex')
}

/** An entry without its size: the line it is in the file. */
function contentOf(entry: Entry): Content {
  if ('skus' in entry) return { skus: entry.skus }
  if ('app' in entry) return { app: entry.app }
  return { update: entry.update }
}

/** Brings the SKUs' states up to date with one entry: a batch adds its SKUs, an update merges in. */
function applyEntry(states: Map<string, SkuState>, entry: Entry): void {
  if ('skus' in entry) {
    for (const stored of entry.skus) {
      if (stored._id !== undefined) states.set(stored._id, { current: stored.sku, updates: [] })
    }
  } else if ('update' in entry) {
    const { _id, receivedAt, body } = entry.update
    // An update of a SKU the store no longer has (a file edited by hand) changes nothing.
    const state = states.get(_id)
    if (!state) return
    state.current = mergeSku(state.current, body)
    state.updates.push({ receivedAt, body })
  }
}

/** Every SKU with a platform id as it now stands: its creation with its updates merged in order. */
function skuStates(entries: readonly Entry[]): Map<string, SkuState> {
  const states = new Map<string, SkuState>()
  for (const entry of entries) applyEntry(states, entry)
  return states
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

/**
 * The entry a parsed line holds, or undefined when it holds none. `legacy`: the first line of a
 * store begun before the header was written, which can only be a batch or an app (those versions
 * had no updates).
 */
function entryOf(line: unknown, bytes: number, legacy = false): Entry | undefined {
  const record = line as Partial<Record<'skus' | 'app' | 'update', unknown>> | null
  if (typeof record !== 'object' || record === null) return undefined
  if (Array.isArray(record.skus)) return { bytes, skus: record.skus as StoredSku[] }
  if (typeof record.app === 'object' && record.app !== null) return { bytes, app: record.app as ReceivedApp }
  if (!legacy && isStoredUpdate(record.update)) return { bytes, update: record.update }
  return undefined
}

function isStoredUpdate(value: unknown): value is StoredUpdate {
  const update = value as Partial<Record<keyof StoredUpdate, unknown>> | null | undefined
  return (
    typeof update === 'object' &&
    update !== null &&
    typeof update._id === 'string' &&
    typeof update.body === 'object' &&
    update.body !== null &&
    !Array.isArray(update.body)
  )
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
      const entry = offset <= size ? entryOf(first, offset - start, true) : undefined
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
  const batches = new Map<string, StoredSku[]>()
  for (const sku of parsed.skus as StoredSku[]) {
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
