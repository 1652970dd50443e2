import { lockJournal } from './journal-lock.ts'
import {
  JournalMismatchError,
  openJournalAppender,
  openJournalReadOnly,
  readJournalLines,
  repairJournal,
  type JournalAppender,
  type JournalWrite,
} from './journal-file.ts'
import { writeJsonLinesAtomic } from '#node/atomic-json.ts'
import { DRAFT_KINDS } from '#shared/sync/kinds.ts'
import { sameAddress } from '#shared/http-address.ts'
import {
  noItems,
  OutboxConflictError,
  type ItemState,
  type ItemUpdate,
  type OutboxItem,
  type RequestRecord,
  type SyncKind,
  type SyncOutbox,
} from '#shared/sync/ports.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

export { JournalMismatchError, type JournalWrite } from './journal-file.ts'

/**
 * The CLI's record of what it sent to one destination (a service address), and the outbox the
 * engine sends from: SKUs are matched across runs by their barcode (an app by its name), whatever
 * file they come from, so an edited copy of a catalogue sent before creates only what is new and
 * updates only what changed since.
 *
 * Per key (a barcode), it records:
 * - what stands there: the payload last created or updated there (the whole SKU as the input had
 *   it, written in the journal once, and found again by its line's offset) and its fingerprint,
 *   so a run says "unchanged" without reading any payload, and diffs only what changed;
 * - the platform's id of it: from the bulk answer, or a platform list with ids;
 * - the last creation or update while it is not synced: sending, unknown, failed, rejected (with
 *   the fingerprint of what was sent, so an unchanged refused SKU is not sent again), or queued
 *   again by a person's decision.
 *
 * A request's `begin` line carries the payloads it makes stand there and is flushed to disk before
 * the request leaves (journal-file.ts): what was `sending` when the process died becomes `unknown`
 * on the next open, never queued, so nothing that may have been created is created twice. An
 * update whose outcome is unknown is sent again by the next run (a PUT is idempotent: sent twice,
 * it leaves the SKU as once); a creation is not, and waits for a person (`--platform-has`).
 *
 * The lines, one JSON object each:
 * - `header` (the first line): format 2, the address, the kind;
 * - `begin` {action, request, payloads, fingerprints}: the request's keys are `sending`; each
 *   payload (in `request.keys` order) is what stands there once its key is synced;
 * - `end` {request, updates}: its outcome, one update a key (synced with the platform's id when
 *   the answer carried one, rejected (`gone`: an update's SKU not on the platform any more),
 *   failed, unknown, or queued again when provably not processed);
 * - `recover` {message, keys}: keys left `sending` by a process that died became `unknown`;
 * - `decide` {at, source, message, created, resend}: a person's decision about unknown or failed
 *   creations (`push --platform-has`): `created` stand there as sent, `resend` are to be created;
 * - `ids` {at, source, ids}: the platform's ids a person gave (a platform list with ids);
 * - `adopt` {at, source, fingerprint, records, payloads}: what a journal of the earlier format
 *   (one a file, keyed by item numbers) said, carried over by barcode (journal-legacy.ts).
 *
 * Memory: one small record a key (two short strings and a few numbers) and none of the payloads,
 * which stay on disk until an update reads the one it diffs against.
 */

export const JOURNAL_FORMAT = 2

export type JournalAction = 'create' | 'update'

export interface JournalHeader {
  type: 'header'
  format: number
  baseUrl: string
  kind: SyncKind
}

/** Where a payload is written: the line's offset in the file and its place in the line's `payloads`. */
export interface PayloadRef {
  line: number
  at: number
}

/** A creation or an update that is not synced (yet). */
export interface Attempt {
  action: JournalAction
  state: ItemState
  /** The fingerprint of what it sent (what would stand there). */
  fingerprint?: string
  /** Where what it sent is written: an unknown creation a person marks created stands there as sent. */
  ref?: PayloadRef
  message?: string
  /** For an unknown or failed one: the request that left it so, and when it left. */
  requestId?: string
  sentAt?: number
  /** An update's SKU is not on the platform any more (a 404 with the service's message). */
  gone?: true
}

export interface JournalRecord {
  /** Created there: the fingerprint of what stands there, and where it is written (one object: there may be 100,000). */
  stands?: PayloadRef & { fingerprint: string }
  /** The platform's id of it. */
  id?: string
  /** For an app: the service's answer to its creation (to compare with what was sent). */
  response?: unknown
  /** The last creation or update while it is not synced. */
  last?: Attempt
}

/**
 * A person's decision about unknown or failed creations, recorded before anything it causes is
 * sent: `created` stand there as they were sent, `resend` are to be created again.
 */
export interface JournalDecision {
  type: 'decide'
  at: number
  /** What it was based on, as the person named it (the platform's list: its file name). */
  source: string
  message: string
  created: string[]
  resend: string[]
}

/** A record carried over from a journal of the earlier format, with its payload beside it. */
export interface AdoptedRecord {
  key: string
  state: 'synced' | 'unknown' | 'failed' | 'rejected'
  fingerprint: string
  message?: string
  requestId?: string
  sentAt?: number
  id?: string
  response?: unknown
}

export interface JournalAdoption {
  type: 'adopt'
  at: number
  /** The earlier journal's path. */
  source: string
  /** The fingerprint of the input it was written for: adopted once. */
  fingerprint: string
  records: AdoptedRecord[]
  /** Each record's payload (null for a refused one: only its fingerprint matters). */
  payloads: unknown[]
}

type BeginLine = {
  type: 'begin'
  action: JournalAction
  request: RequestRecord
  payloads: unknown[]
  fingerprints: string[]
}

type JournalLine =
  | JournalHeader
  | BeginLine
  | { type: 'end'; request: RequestRecord; updates: ItemUpdate[] }
  | { type: 'recover'; message: string; keys: string[] }
  | JournalDecision
  | { type: 'ids'; at: number; source: string; ids: Record<string, string> }
  | JournalAdoption

/** A journal of the earlier format, read whole (its lines are small: states, no payloads). */
export interface LegacyLines {
  header: { fingerprint: string; baseUrl: string; kind: SyncKind; total: number }
  lines: unknown[]
}

/** One item a run sends: its key in the journal, its index in the input, how a person knows it. */
export interface RunItem {
  key: string
  index: number
  label: string
}

/** What a run sends, for the journal's outbox: its items, in input order, and what each becomes. */
export interface RunSource {
  action: JournalAction
  items: readonly RunItem[]
  /** What the engine sends for the item: its payload (a creation) or its update's argument. */
  send(item: RunItem): unknown
  /** What stands there once the item is synced, and its fingerprint. */
  stands(item: RunItem): { payload: unknown; fingerprint: string }
}

export interface RunOutbox extends SyncOutbox {
  /** The state of a run item in this run (queued until it is sent). */
  stateOf(key: string): ItemState | undefined
}

export interface Journal {
  readonly path: string
  /** Whether the journal held anything when it was opened. */
  readonly resumed: boolean
  /** How many keys it has a record of. */
  readonly size: number
  record(key: string): Readonly<JournalRecord> | undefined
  records(): IterableIterator<[string, Readonly<JournalRecord>]>
  /** The payload that stands there for `key`, read from the journal; undefined when none is known. */
  standingPayload(key: string): unknown
  /** A payload the journal holds, read from the disk. */
  payloadAt(ref: PayloadRef): unknown
  /** Whether a journal of the earlier format, written for input with this fingerprint, was carried over. */
  adopted(fingerprint: string): boolean
  /** Keys left `sending` by a process that died become `unknown`; returns them by action. */
  recoverInterrupted(message: string): Promise<Record<JournalAction, number>>
  /** Records a decision (flushed before it returns). Throws, writing nothing, for a key that is not an unknown or failed creation. */
  decide(decision: Omit<JournalDecision, 'type'>): Promise<void>
  /** Records the platform's ids a person gave (flushed before it returns). */
  setIds(source: string, ids: ReadonlyMap<string, string>): Promise<void>
  /** Carries over a journal of the earlier format (flushed before it returns). */
  adopt(adoption: Omit<JournalAdoption, 'type'>): Promise<void>
  /** The outbox one run sends from. */
  outbox(source: RunSource): RunOutbox
  close(): Promise<void>
}

export interface JournalOptions {
  path: string
  baseUrl: string
  kind: SyncKind
  /**
   * What to do when the file is a journal of the earlier format (one a file): return the adoption
   * of what it says, which replaces the file (atomically) as the first lines of a journal of this
   * format, or throw JournalMismatchError to refuse it, untouched. Without it, such a file is refused.
   */
  adoptLegacy?: (legacy: LegacyLines) => Omit<JournalAdoption, 'type'>
  write?: JournalWrite
  /**
   * A dry run's journal (`push --dry-run`): the file is read, never locked, repaired, created or
   * written; what the run records (a recovery, a decision, a carried-over journal) is kept in
   * memory (journal-file.ts, `openJournalReadOnly`), so it judges exactly as a push would.
   */
  dryRun?: boolean
}

/** Opens the destination's journal, holding its lock until `close()` (see journal-lock.ts). */
export async function openJournal(options: JournalOptions): Promise<Journal> {
  const unlock = options.dryRun ? () => {} : lockJournal(options.path)
  try {
    const header: JournalHeader = {
      type: 'header',
      format: JOURNAL_FORMAT,
      baseUrl: options.baseUrl,
      kind: options.kind,
    }
    let replayed = replay(options, header)
    if (replayed.legacy) {
      // Refused untouched (adoptLegacy throws), or replaced whole, atomically: the file is the
      // earlier journal or the new one, never a mix of the two.
      const adoption = options.adoptLegacy!(replayed.legacy)
      if (options.dryRun) {
        // The file as the adoption would replace it, in memory: its header and the adoption.
        replayed = { book: new RecordBook(options.path), existed: false, replaced: true, adoption }
      } else {
        await writeJsonLinesAtomic(options.path, [header, { type: 'adopt', ...adoption }])
        replayed = replay(options, header)
      }
    }
    return journalOf(options, header, replayed, unlock)
  } catch (error) {
    unlock()
    throw error
  }
}

/**
 * The header of the journal at `path` (the address it is of, its kind), read without anything
 * else; undefined when there is no such file or it is empty. A file whose first line is no
 * journal header is refused (JournalMismatchError), as `openJournal` refuses it.
 */
export function readJournalHeader(path: string): Pick<JournalHeader, 'baseUrl' | 'kind'> | undefined {
  let header: Partial<JournalHeader> | undefined
  const stop = new Error('header read')
  try {
    readJournalLines(path, (value) => {
      header = typeof value === 'object' && value !== null ? (value as Partial<JournalHeader>) : {}
      throw stop
    })
  } catch (error) {
    if (error !== stop) throw error
  }
  if (header === undefined) return undefined
  if (header.type !== 'header' || typeof header.baseUrl !== 'string' || typeof header.kind !== 'string')
    throw new JournalMismatchError(`${path} is not a push journal; name another --journal.`)
  return { baseUrl: header.baseUrl, kind: header.kind }
}

interface Replayed {
  book: RecordBook
  existed: boolean
  legacy?: LegacyLines
  /** A dry run's: the file would be replaced by the carried-over `adoption`. */
  replaced?: true
  adoption?: Omit<JournalAdoption, 'type'>
}

/** Reads the file into a record book, cutting a torn last line off; a legacy journal is read as it is. */
function replay(options: JournalOptions, header: JournalHeader): Replayed {
  const { path } = options
  const book = new RecordBook(path)
  let legacy: LegacyLines | undefined
  const read = readJournalLines(path, (value, offset, number) => {
    if (number === 0) {
      if (checkHeader(value, header, path) === 'legacy') {
        if (!options.adoptLegacy) {
          throw new JournalMismatchError(
            `${path} is a journal of an earlier catalog-desk, bound to the file it was written for; this push cannot read it. Name another --journal.`,
          )
        }
        legacy = { header: value as LegacyLines['header'], lines: [] }
      }
      return
    }
    if (legacy) legacy.lines.push(value)
    else book.apply(value as JournalLine, offset)
  })
  if (legacy) return { book, existed: true, legacy }
  // A torn last line goes before anything is appended: glued to the next line, it would turn that
  // line (a flushed `begin`, say) into one more torn line, and the item it marks could be sent again.
  if (read.existed && !options.dryRun) repairJournal(path, read)
  return { book, existed: read.existed }
}

function checkHeader(value: unknown, expected: JournalHeader, path: string): 'current' | 'legacy' {
  const found = typeof value === 'object' && value !== null ? (value as Partial<JournalHeader>) : undefined
  if (found?.type !== 'header' || (found.format !== JOURNAL_FORMAT && found.format !== 1)) {
    throw new JournalMismatchError(`${path} is not a push journal of this version; name another --journal.`)
  }
  // The same address in any spelling ("http://LOCALHOST:4010/" is "http://localhost:4010"), or
  // this computer under another name: a default journal's file is its own name's (journal-path.ts),
  // so another name's journal is read only when --journal names it.
  if (!sameAddress(found.baseUrl, expected.baseUrl)) {
    throw new JournalMismatchError(
      `${path} is the journal of a push to ${found.baseUrl}, not ${expected.baseUrl}: what it calls synced is synced there. Name another --journal.`,
    )
  }
  if (found.kind !== expected.kind) {
    const what = (kind: unknown) =>
      typeof kind === 'string' && Object.hasOwn(DRAFT_KINDS, kind)
        ? `${DRAFT_KINDS[kind as SyncKind].noun}s`
        : String(kind)
    throw new JournalMismatchError(
      `${path} is a journal of ${what(found.kind)} sent to ${found.baseUrl}, not of ${what(expected.kind)}. Name another --journal.`,
    )
  }
  return found.format === 1 ? 'legacy' : 'current'
}

const standing = (fingerprint: string, { line, at }: PayloadRef) => ({ fingerprint, line, at })

/** The records by key, as the journal's lines make them: the same code replays a file and records a run. */
class RecordBook {
  readonly records = new Map<string, JournalRecord>()
  readonly adopted = new Set<string>()
  /** What each key in flight recorded before its `begin`: a key provably not sent goes back to it. */
  private readonly beforeBegin = new Map<string, Attempt | undefined>()

  private readonly path: string

  constructor(path: string) {
    this.path = path
  }

  private record(key: string): JournalRecord {
    let found = this.records.get(key)
    if (!found) {
      // Every field from the start, and none ever deleted: one shape for all records, a few words
      // each (an object that loses a field becomes a dictionary, ten times the size at 100,000).
      found = { stands: undefined, id: undefined, response: undefined, last: undefined }
      this.records.set(key, found)
    }
    return found
  }

  apply(line: JournalLine, offset: number): void {
    switch (line.type) {
      case 'begin':
        line.request.keys.forEach((key, at) => {
          const found = this.record(key)
          this.beforeBegin.set(key, found.last)
          found.last = {
            action: line.action,
            state: 'sending',
            fingerprint: line.fingerprints[at]!,
            ref: { line: offset, at },
            requestId: line.request.id,
            sentAt: line.request.startedAt,
          }
        })
        break
      case 'end':
        for (const update of line.updates) this.ended(update)
        break
      case 'recover':
        for (const key of line.keys) {
          const last = this.records.get(key)?.last
          if (last?.state !== 'sending') continue
          last.state = 'unknown'
          last.message = line.message
          this.beforeBegin.delete(key)
        }
        break
      case 'decide':
        for (const key of line.created) {
          const found = this.record(key)
          const last = found.last
          if (last?.ref && last.fingerprint !== undefined) found.stands = standing(last.fingerprint, last.ref)
          found.last = undefined
        }
        for (const key of line.resend) this.record(key).last = { action: 'create', state: 'queued' }
        break
      case 'ids':
        for (const [key, id] of Object.entries(line.ids)) {
          const found = this.record(key)
          found.id = id
          // A new id for a SKU the old one no longer found: it is updated at the new one.
          if (found.last?.gone) found.last = undefined
        }
        break
      case 'adopt':
        this.adopted.add(line.fingerprint)
        line.records.forEach((adopted, at) => {
          // What this journal says wins: it is newer than any journal carried over.
          if (this.records.has(adopted.key)) return
          const found = this.record(adopted.key)
          if (adopted.id !== undefined) found.id = adopted.id
          if (adopted.response !== undefined) found.response = adopted.response
          const ref = { line: offset, at }
          if (adopted.state === 'synced') {
            found.stands = standing(adopted.fingerprint, ref)
            return
          }
          const last: Attempt = { action: 'create', state: adopted.state, fingerprint: adopted.fingerprint }
          if (adopted.state !== 'rejected') last.ref = ref
          if (adopted.message !== undefined) last.message = adopted.message
          if (adopted.requestId !== undefined) last.requestId = adopted.requestId
          if (adopted.sentAt !== undefined) last.sentAt = adopted.sentAt
          found.last = last
        })
        break
    }
  }

  private ended(update: ItemUpdate): void {
    const found = this.records.get(update.key)
    const last = found?.last
    if (!found || last?.state !== 'sending') {
      throw new JournalMismatchError(
        `${this.path} is damaged: it ends a request for ${update.key}, which was not being sent.`,
      )
    }
    const before = this.beforeBegin.get(update.key)
    this.beforeBegin.delete(update.key)
    switch (update.state) {
      case 'queued':
        // Provably not processed: as it was before it was sent.
        found.last = before
        if (found.stands === undefined && found.last === undefined && found.id === undefined)
          this.records.delete(update.key)
        return
      case 'synced':
        found.stands = standing(last.fingerprint!, last.ref!)
        if (update.remoteId !== undefined) found.id = update.remoteId
        if (update.response !== undefined) found.response = update.response
        found.last = undefined
        return
      default: {
        const next: Attempt = { ...last, state: update.state }
        if (update.message !== undefined) next.message = update.message
        else delete next.message
        if (update.gone) next.gone = true
        found.last = next
      }
    }
  }
}

function journalOf(
  options: JournalOptions,
  header: JournalHeader,
  replayed: Replayed,
  unlock: () => void,
): Journal {
  const { path } = options
  const { book } = replayed
  const { records } = book
  const appender = openAppender(options, header, replayed)
  let closed = false

  /** Appends a line and records it; a line that cannot be written records nothing. */
  function write(line: JournalLine, flush = true): void {
    const offset = appender.append(line, { flush })
    book.apply(line, offset)
  }
  if (replayed.adoption) write({ type: 'adopt', ...replayed.adoption })

  function payloadAt(ref: PayloadRef): unknown {
    const line = appender.lineAt(ref.line) as { payloads?: unknown[] }
    return line.payloads?.[ref.at] ?? undefined
  }

  return {
    path,
    resumed: records.size > 0,
    get size() {
      return records.size
    },
    record: (key) => records.get(key),
    records: () => records.entries(),
    standingPayload(key) {
      const stands = records.get(key)?.stands
      return stands ? payloadAt(stands) : undefined
    },
    payloadAt,
    adopted: (fingerprint) => book.adopted.has(fingerprint),
    ...recordWriters(records, write),
    outbox: (source) => runOutbox(source, { records, write }),

    async close() {
      if (closed) return
      closed = true
      try {
        appender.close()
      } finally {
        unlock()
      }
    },
  }
}

/** The file's appender (a dry run's keeps what it appends in memory), a new file's header written first. */
function openAppender(options: JournalOptions, header: JournalHeader, replayed: Replayed): JournalAppender {
  const appender: JournalAppender = options.dryRun
    ? openJournalReadOnly(options.path, { replaced: replayed.replaced === true })
    : openJournalAppender(options.path, options.write)
  if (!replayed.existed) {
    try {
      appender.append(header)
    } catch (error) {
      appender.close()
      throw error
    }
  }
  return appender
}

/**
 * The lines written outside a run, one method a record kind: a recovery (`recover`), a person's
 * decision (`decide`), the platform's ids (`ids`), a journal carried over (`adopt`). Each is
 * flushed before it returns.
 */
function recordWriters(
  records: ReadonlyMap<string, JournalRecord>,
  write: (line: JournalLine) => void,
): Pick<Journal, 'recoverInterrupted' | 'decide' | 'setIds' | 'adopt'> {
  return {
    async recoverInterrupted(message) {
      const found: Record<JournalAction, number> = { create: 0, update: 0 }
      const keys: string[] = []
      for (const [key, record] of records) {
        if (record.last?.state !== 'sending') continue
        keys.push(key)
        found[record.last.action] += 1
      }
      if (keys.length > 0) write({ type: 'recover', message, keys })
      return found
    },

    async decide(decision) {
      for (const key of [...decision.created, ...decision.resend]) {
        const last = records.get(key)?.last
        if (last?.action !== 'create' || (last.state !== 'unknown' && last.state !== 'failed')) {
          throw new Error(`${key} is not an unknown or failed creation: it is not decided again`)
        }
      }
      write({ type: 'decide', ...decision })
    },

    async setIds(source, ids) {
      if (ids.size === 0) return
      write({ type: 'ids', at: systemClock.now(), source, ids: Object.fromEntries(ids) })
    },

    async adopt(adoption) {
      write({ type: 'adopt', ...adoption })
    },
  }
}

/** A run item's state as one byte: items of a run can be many. */
const STATES: readonly ItemState[] = ['queued', 'sending', 'synced', 'rejected', 'failed', 'unknown']
const CODE = Object.fromEntries(STATES.map((state, code) => [state, code])) as Record<ItemState, number>

/**
 * The outbox of one run: its items (in input order, by their index), their states in this run,
 * and the journal's lines for their requests. A key in flight is `sending` in the journal too, so
 * a run that dies leaves it unknown there.
 */
function runOutbox(
  source: RunSource,
  journal: { records: ReadonlyMap<string, JournalRecord>; write(line: JournalLine, flush?: boolean): void },
): RunOutbox {
  const { items } = source
  const states = new Uint8Array(items.length)
  const at = new Map<string, number>()
  items.forEach((item, position) => at.set(item.key, position))

  function positionOf(key: string): number {
    const position = at.get(key)
    if (position === undefined) throw new OutboxConflictError(`${key} is not an item of this run`)
    return position
  }

  return {
    async queuedAfter(after, limit) {
      const found: OutboxItem[] = []
      for (
        let position = firstAfter(items, after);
        position < items.length && found.length < limit;
        position++
      ) {
        if (states[position] !== CODE.queued) continue
        const item = items[position]!
        found.push({ key: item.key, position: item.index, payload: source.send(item), label: item.label })
      }
      return found
    },

    async beginRequest(request) {
      const positions = request.keys.map(positionOf)
      const busy = positions.find((position) => states[position] !== CODE.queued)
      if (busy !== undefined) {
        throw new OutboxConflictError(`${items[busy]!.key} is not queued: it cannot be sent again`)
      }
      const standing = positions.map((position) => source.stands(items[position]!))
      // Marked first, so no other request can take them while the line is written.
      for (const position of positions) states[position] = CODE.sending
      try {
        journal.write({
          type: 'begin',
          action: source.action,
          request,
          payloads: standing.map((stands) => stands.payload),
          fingerprints: standing.map((stands) => stands.fingerprint),
        })
      } catch (error) {
        for (const position of positions) states[position] = CODE.queued
        throw error
      }
    },

    async endRequest(request, updates) {
      // Refused before the line is written: an end for an item the journal has not in flight would
      // read as a damaged journal at the next open.
      for (const update of updates) {
        positionOf(update.key)
        if (!request.keys.includes(update.key) || journal.records.get(update.key)?.last?.state !== 'sending')
          throw new OutboxConflictError(`${update.key} is not sending in request ${request.id}`)
      }
      journal.write({ type: 'end', request, updates: [...updates] }, false)
      for (const update of updates) states[positionOf(update.key)] = CODE[update.state]
    },

    async recoverInterrupted(message) {
      const keys = items.filter((_, position) => states[position] === CODE.sending).map((item) => item.key)
      if (keys.length === 0) return 0
      journal.write({ type: 'recover', message, keys })
      for (const key of keys) states[positionOf(key)] = CODE.unknown
      return keys.length
    },

    async counts() {
      const counts = noItems()
      for (const code of states) counts[STATES[code]!] += 1
      return counts
    },

    stateOf(key) {
      const position = at.get(key)
      return position === undefined ? undefined : STATES[states[position]!]
    },
  }
}

/** The position of the first item whose index is above `after` (items are in input order). */
function firstAfter(items: readonly RunItem[], after: number): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (items[middle]!.index <= after) low = middle + 1
    else high = middle
  }
  return low
}
