import {
  appendFileSync,
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  truncateSync,
  writeSync,
} from 'node:fs'
import { readFile } from 'node:fs/promises'
import { lockJournal } from './journal-lock.ts'
import {
  ITEM_STATES,
  noItems,
  type ItemState,
  type ItemUpdate,
  type OutboxItem,
  type RequestRecord,
  type SyncKind,
  type SyncOutbox,
} from '#shared/sync/ports.ts'

/**
 * The CLI's outbox: a journal file of JSON lines, appended at every request's start and end, so a
 * re-run of the same command resumes where the last one stopped: what was synced or may have been
 * processed (unknown) is never sent again, and what was `sending` when the process died becomes
 * `unknown`.
 *
 * A request's `begin` line is flushed to disk (fdatasync) before the request leaves: no crash of
 * the process or the machine can lose the mark that makes a resend impossible. Its `end` line is
 * written (in the OS's hands, so a crash of the process cannot lose it) and flushed with the next
 * line that is, or on close: one flush a request instead of two, the benchmark's largest cost. A
 * machine that loses power in between can only make that last request's items `unknown`, which
 * asks the person to look, and never sends anything twice.
 *
 * Items are not stored in the journal, only their states, keyed by their index in the input. The
 * header holds a fingerprint of the input and the service address, and a journal made for other
 * input or another service is refused: its indexes would name other SKUs, or its "synced" would
 * mean synced somewhere else. The fingerprint is of the input alone, not of the options the
 * command was run with: items held back by push's gates (`withhold`) are not written at all, so a
 * re-run with other gates (`--require`) judges again only what this journal never sent, and
 * everything it did send keeps its state. The header (the first line) is checked before anything
 * in the file is changed: a file that is not this push's journal (`--journal notes.txt`) is
 * refused as it is, never repaired or appended to; only an empty or missing file becomes a new
 * journal. States are kept as one byte an item, so memory stays flat at 100,000 SKUs; only
 * messages and app answers take more, for the few items that have them (and the request of each
 * item in flight, or left unknown or failed).
 *
 * The lines, one JSON object each:
 * - `header` (the first line): format, fingerprint, address, kind, number of items;
 * - `begin` {request}: the request's items are `sending`;
 * - `end` {request, updates}: its outcome, one update an item (synced, rejected, failed, unknown,
 *   or queued again when provably not processed);
 * - `recover` {message, keys}: items left `sending` by a process that died became `unknown`;
 * - `decide` {at, source, message, created, resend}: a person's decision about unknown or failed
 *   items (`push --platform-has`): `created` are synced with `message`, `resend` are queued to be
 *   sent again. Added after the others, in the same format 1: a journal without one reads as it
 *   always did, and a version that does not know the line skips it, which leaves those items
 *   unknown or failed there: nothing is sent twice by it.
 */

export const JOURNAL_FORMAT = 1

export interface JournalHeader {
  type: 'header'
  format: number
  fingerprint: string
  baseUrl: string
  kind: SyncKind
  total: number
}

type JournalLine =
  | JournalHeader
  | { type: 'begin'; request: RequestRecord }
  | { type: 'end'; request: RequestRecord; updates: ItemUpdate[] }
  | { type: 'recover'; message: string; keys: string[] }
  | JournalDecision

/**
 * A person's decision about unknown or failed items, recorded before anything it causes is sent:
 * a re-run knows that `created` are on the platform and that `resend` went back to the queue.
 */
export interface JournalDecision {
  type: 'decide'
  /** When it was made (ms since the epoch). */
  at: number
  /** What it was based on, as the person named it (the platform's list: its file name). */
  source: string
  /** What the items marked created say from now on. */
  message: string
  created: string[]
  resend: string[]
}

/** What the outbox sends: an item at an index, or undefined for an index that is not sent (invalid). */
export interface JournalItems {
  total: number
  at(index: number): { payload: unknown; label: string } | undefined
}

export interface ItemDetail {
  state: ItemState
  message?: string
  remoteId?: string
  response?: unknown
  /** For an unknown or failed item: the request that left it so, and when it left. */
  requestId?: string
  sentAt?: number
}

export interface JournalOutbox extends SyncOutbox {
  /** The item's state (undefined for an index not sent) and what was recorded with it. */
  detail(index: number): ItemDetail | undefined
  /** Whether the journal existed and held states when it was opened (a resumed run). */
  readonly resumed: boolean
  /**
   * Records a decision about unknown or failed items (flushed before it returns): `created` become
   * synced with its message, `resend` queued. Throws, writing nothing, for an item in another state.
   */
  decide(decision: Omit<JournalDecision, 'type'>): Promise<void>
  /**
   * Keeps queued items out of this run (held back by push's gates): they are neither sent nor
   * counted, as items that are not sent at all. Nothing is written: the hold is this run's
   * judgement, and a re-run judges them again. Throws for an item that is not queued.
   */
  withhold(indexes: Iterable<number>): void
  close(): Promise<void>
}

/** The journal belongs to other input or another service; the message says which and what to do. */
export class JournalMismatchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JournalMismatchError'
  }
}

/** An item's state as one byte: its place in ITEM_STATES. */
const STATE_CODES: readonly ItemState[] = ITEM_STATES
const CODE = Object.fromEntries(STATE_CODES.map((state, code) => [state, code])) as Record<ItemState, number>
const NOT_SENT = 255

export interface JournalOptions {
  path: string
  fingerprint: string
  baseUrl: string
  kind: SyncKind
  items: JournalItems
  /**
   * Writes bytes to the journal and returns how many it wrote, as `fs.writeSync` (the default);
   * tests pass one that writes less, as a nearly full disk does.
   */
  write?: JournalWrite
}

export type JournalWrite = (fd: number, buffer: Uint8Array, offset: number, length: number) => number

const writeBytes: JournalWrite = (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length)

/** Opens the journal for this push, holding its lock until `close()` (see journal-lock.ts). */
export async function openJournalOutbox(options: JournalOptions): Promise<JournalOutbox> {
  const unlock = lockJournal(options.path)
  try {
    return await openLocked(options, unlock)
  } catch (error) {
    unlock()
    throw error
  }
}

async function openLocked(options: JournalOptions, unlock: () => void): Promise<JournalOutbox> {
  const { items, path } = options
  const details = new Map<number, Omit<ItemDetail, 'state'>>()
  /**
   * The request each `sending` item left with, until its outcome: an item left unknown or failed
   * keeps it (to be looked up on the platform). Only items in flight (or left sending by a crash)
   * are here, so memory stays flat.
   */
  const inFlight = new Map<number, Pick<RequestRecord, 'id' | 'startedAt'>>()
  const states = new Uint8Array(items.total)
  for (let index = 0; index < items.total; index++) {
    states[index] = items.at(index) === undefined ? NOT_SENT : CODE.queued
  }
  const header: JournalHeader = {
    type: 'header',
    format: JOURNAL_FORMAT,
    fingerprint: options.fingerprint,
    baseUrl: options.baseUrl,
    kind: options.kind,
    total: items.total,
  }

  // Throws, leaving the file as it is, unless its first line is this push's header.
  const read = await readJournal(path, header)
  // A torn last line goes before anything is appended: glued to the next line, it would turn that
  // line (a flushed `begin`, say) into one more torn line, and the item it marks could be sent again.
  if (read?.repair) repairInPlace(path, read)
  const existing = read?.lines
  const resumed = existing !== undefined && existing.length > 1
  if (existing) for (const line of existing.slice(1)) replay(line)

  function indexOf(key: string): number {
    const index = Number(key)
    if (!Number.isInteger(index) || index < 0 || index >= items.total || states[index] === NOT_SENT) {
      throw new Error(`The journal names an item ${key} that this input does not send`)
    }
    return index
  }

  function begin(request: RequestRecord, indexes: readonly number[]): void {
    for (const index of indexes) {
      states[index] = CODE.sending
      inFlight.set(index, { id: request.id, startedAt: request.startedAt })
    }
  }

  function apply(update: ItemUpdate, request?: Pick<RequestRecord, 'id' | 'startedAt'>): void {
    const index = indexOf(update.key)
    states[index] = CODE[update.state]
    const sent = request ?? inFlight.get(index)
    inFlight.delete(index)
    const detail: Omit<ItemDetail, 'state'> = {}
    if (update.message !== undefined) detail.message = update.message
    if (update.remoteId !== undefined) detail.remoteId = update.remoteId
    if (update.response !== undefined) detail.response = update.response
    if (sent && (update.state === 'unknown' || update.state === 'failed')) {
      detail.requestId = sent.id
      detail.sentAt = sent.startedAt
    }
    if (Object.keys(detail).length > 0) details.set(index, detail)
    else details.delete(index)
  }

  function applyDecision(line: JournalDecision): void {
    for (const key of line.created) apply({ key, state: 'synced', message: line.message })
    for (const key of line.resend) apply({ key, state: 'queued' })
  }

  function replay(line: JournalLine): void {
    switch (line.type) {
      case 'begin':
        begin(line.request, line.request.keys.map(indexOf))
        break
      case 'end':
        for (const update of line.updates) apply(update, line.request)
        break
      case 'recover':
        for (const key of line.keys) apply({ key, state: 'unknown', message: line.message })
        break
      case 'decide':
        applyDecision(line)
        break
    }
  }

  const write = options.write ?? writeBytes
  const fd = openSync(path, 'a')
  let closed = false
  /** The file's length: where the line being written starts, and where a torn one is cut back to. */
  let size: number
  try {
    size = fstatSync(fd).size
  } catch (error) {
    closeSync(fd)
    throw error
  }
  /** Set when a torn line could not be cut off: nothing more may be appended after it. */
  let broken: Error | undefined
  /**
   * Synchronous on purpose: a line is whole in the file before anything else runs, so lines of
   * concurrent requests never interleave, and a write and a flush cost tens of microseconds here
   * against a thread-pool round trip each with the promise API (a third of the engine's time in
   * the benchmark).
   *
   * A write may take fewer bytes than it was given (a nearly full disk): the rest is written until
   * the line is whole, and a line that cannot be completed throws (so a `begin` that is not whole
   * on disk never lets its request leave) and is cut off again, so no later line is glued to it.
   */
  async function append(line: JournalLine, { flush = true } = {}): Promise<void> {
    if (broken) throw broken
    const bytes = Buffer.from(JSON.stringify(line) + '\n')
    let written = 0
    try {
      while (written < bytes.length) {
        const wrote = write(fd, bytes, written, bytes.length - written)
        if (!Number.isInteger(wrote) || wrote <= 0) {
          throw new Error(
            `the journal ${path} took ${written} of a line's ${bytes.length} bytes and no more (is the disk full?)`,
          )
        }
        written += wrote
      }
    } catch (error) {
      if (written > 0) {
        try {
          ftruncateSync(fd, size)
        } catch (cutError) {
          broken = new Error(
            `the journal ${path} ends in a line that could not be written whole nor cut off (${(cutError as Error).message}); nothing more is sent`,
          )
        }
      }
      throw error
    }
    size += bytes.length
    if (flush) fdatasyncSync(fd)
  }
  if (!existing) {
    try {
      await append(header)
    } catch (error) {
      closeSync(fd)
      throw error
    }
  }

  return {
    resumed,

    async queuedAfter(after, limit) {
      const found: OutboxItem[] = []
      const from = Math.max(0, Math.floor(after) + 1)
      for (let index = from; index < items.total && found.length < limit; index++) {
        if (states[index] !== CODE.queued) continue
        const item = items.at(index)!
        found.push({ key: String(index), position: index, payload: item.payload, label: item.label })
      }
      return found
    },

    async beginRequest(request) {
      const indexes = request.keys.map(indexOf)
      const busy = indexes.find((index) => states[index] !== CODE.queued)
      if (busy !== undefined) throw new Error(`Item ${busy} is not queued: it cannot be sent again`)
      // Marked first, so no other request can take them while the line is written.
      begin(request, indexes)
      try {
        await append({ type: 'begin', request })
      } catch (error) {
        for (const index of indexes) {
          states[index] = CODE.queued
          inFlight.delete(index)
        }
        throw error
      }
    },

    async endRequest(request, updates) {
      await append({ type: 'end', request, updates: [...updates] }, { flush: false })
      for (const update of updates) apply(update, request)
    },

    async decide(decision) {
      for (const key of [...decision.created, ...decision.resend]) {
        const state = STATE_CODES[states[indexOf(key)]!]
        if (state !== 'unknown' && state !== 'failed') {
          throw new Error(`Item ${key} is ${state}, not unknown or failed: it is not decided again`)
        }
      }
      const line: JournalDecision = { type: 'decide', ...decision }
      await append(line)
      applyDecision(line)
    },

    withhold(indexes) {
      const held = [...indexes]
      const busy = held.find((index) => states[index] !== CODE.queued)
      if (busy !== undefined) throw new Error(`Item ${busy} is not queued: it cannot be held back`)
      for (const index of held) states[index] = NOT_SENT
    },

    async recoverInterrupted(message) {
      const keys: string[] = []
      for (let index = 0; index < items.total; index++)
        if (states[index] === CODE.sending) keys.push(String(index))
      if (keys.length === 0) return 0
      await append({ type: 'recover', message, keys })
      for (const key of keys) apply({ key, state: 'unknown', message })
      return keys.length
    },

    async counts() {
      const counts = noItems()
      for (const code of states) if (code !== NOT_SENT) counts[STATE_CODES[code]!] += 1
      return counts
    },

    detail(index) {
      const code = states[index]
      if (code === undefined || code === NOT_SENT) return undefined
      return { state: STATE_CODES[code]!, ...details.get(index) }
    },

    async close() {
      if (closed) return
      closed = true
      try {
        fdatasyncSync(fd)
        closeSync(fd)
      } finally {
        unlock()
      }
    },
  }
}

interface JournalRead {
  lines: JournalLine[]
  /** What the file should hold before anything is appended: its text without a torn last line. */
  keep: string
  /** Whether the file differs from `keep` (a torn last line, or a whole one missing its newline). */
  repair: boolean
  text: string
}

/** Cuts a torn line off, or ends a whole last line; in place, so no crash can lose what was kept. */
function repairInPlace(path: string, { keep, text }: JournalRead): void {
  if (keep.length < text.length) truncateSync(path, Buffer.byteLength(keep))
  else appendFileSync(path, keep.slice(text.length))
}

/**
 * The journal's lines, or undefined when there is none (no file, or an empty one). Its first line
 * must be `expected`'s header, checked before anything else: a file that is not this push's journal
 * is refused (JournalMismatchError) and nothing is cut off it. Every line is appended whole with
 * its newline, so only the last one can be torn (a crash mid-write): a torn line is left out (a
 * `begin` that never reached the disk was never sent), anything torn before it is damage.
 */
async function readJournal(path: string, expected: JournalHeader): Promise<JournalRead | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined
    throw error
  }
  if (text.length === 0) return undefined
  const newline = text.indexOf('\n')
  let first: unknown
  try {
    first = JSON.parse(newline === -1 ? text : text.slice(0, newline))
  } catch {
    throw new JournalMismatchError(
      newline === -1
        ? `${path} is not a push journal: it holds no whole journal line (a journal starts with a header line), and it is left as it is. Name another --journal (an empty or missing file becomes a new one).`
        : `${path} is not a push journal: its first line is not a journal header, and it is left as it is. Name another --journal (an empty or missing file becomes a new one).`,
    )
  }
  checkHeader(first, expected, path)
  const raw = text.split('\n')
  const tail = raw.pop()!
  const lines: JournalLine[] = []
  raw.forEach((line, at) => {
    if (line.trim() === '') return
    try {
      lines.push(JSON.parse(line) as JournalLine)
    } catch (error) {
      throw new JournalMismatchError(`${path} is damaged at line ${at + 1}: ${(error as Error).message}`)
    }
  })
  let keep = text.slice(0, text.length - tail.length)
  if (tail.trim() !== '') {
    try {
      lines.push(JSON.parse(tail) as JournalLine)
      keep += `${tail}\n`
    } catch {
      // Torn: left out.
    }
  }
  return { lines, keep, repair: keep !== text, text }
}

function checkHeader(value: unknown, expected: JournalHeader, path: string): void {
  const found = typeof value === 'object' && value !== null ? (value as Partial<JournalHeader>) : undefined
  if (found?.type !== 'header' || found.format !== JOURNAL_FORMAT) {
    throw new JournalMismatchError(`${path} is not a push journal of this version; name another --journal.`)
  }
  if (
    found.fingerprint !== expected.fingerprint ||
    found.total !== expected.total ||
    found.kind !== expected.kind
  ) {
    throw new JournalMismatchError(
      `${path} is the journal of other input (the file changed since, or it is another file): its item numbers would name other items. Name another --journal, or delete it if that push is over.`,
    )
  }
  if (found.baseUrl !== expected.baseUrl) {
    throw new JournalMismatchError(
      `${path} is the journal of a push to ${found.baseUrl}, not ${expected.baseUrl}: what it calls synced is synced there. Name another --journal.`,
    )
  }
}
