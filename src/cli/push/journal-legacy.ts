import { existsSync } from 'node:fs'
import { lockJournal } from './journal-lock.ts'
import { JournalMismatchError, readJournalLines } from './journal-file.ts'
import type { AdoptedRecord, JournalAdoption, LegacyLines } from './journal-outbox.ts'
import type { PushInput } from './push-input.ts'
import type { ItemState } from '#shared/sync/ports.ts'
import { canonicalAddress } from '#shared/http-address.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * Journals of the earlier format (1): one a file (`FILE.push-journal.jsonl` beside it by default),
 * bound to the input's fingerprint and keyed by item numbers. Their item numbers name SKUs only in
 * the input they were written for, so what one says is carried over only with that input, as it
 * was: each item's state goes to its barcode (an app's to its name) in the destination's journal,
 * with its payload as the one that stands there (the file is unchanged, so that is what was sent).
 * Nothing is created again that it says was created or may have been.
 *
 * With any other input (the file was edited since) the numbers cannot be matched to barcodes, and
 * the journal is refused, saying what to do: push the file as it was once, which carries it over.
 * The earlier journal is never changed here; one beside its file is then left as it is (the
 * destination's journal remembers that it was carried over), one named by `--journal` becomes the
 * destination's journal (replaced whole, atomically, by journal-outbox.ts).
 */

/** What an item of the earlier journal came to, replayed as that version did. */
interface LegacyItem {
  state: ItemState
  message?: string
  remoteId?: string
  response?: unknown
  requestId?: string
  sentAt?: number
}

/**
 * Which item's record a key takes when items of the earlier input share it: the one that created
 * it, else one that may have (left sending by a crash is unknown); queued ones say nothing.
 */
const STRENGTH: Partial<Record<ItemState, number>> = {
  synced: 4,
  unknown: 3,
  sending: 3,
  failed: 2,
  rejected: 1,
}

/**
 * Reads `path` when it is a journal of the earlier format for this address and kind; undefined when
 * there is no such file, or it is anything else (a journal of this format, another destination's).
 */
export function readLegacyJournal(
  path: string,
  expected: { baseUrl: string; kind: string },
): LegacyLines | undefined {
  if (!existsSync(path)) return undefined
  // The earlier version locks it the same way: no push of it may be writing it meanwhile.
  const unlock = lockJournal(path)
  try {
    let legacy: LegacyLines | undefined
    let other = false
    readJournalLines(path, (value, _offset, number) => {
      if (other) return
      if (number === 0) {
        const header = value as Partial<LegacyLines['header']> & { type?: unknown; format?: unknown }
        // The same address in any spelling, never this computer under another name: this journal
        // is found beside FILE, not named by the person (journal-path.ts).
        if (
          header?.type === 'header' &&
          header.format === 1 &&
          typeof header.baseUrl === 'string' &&
          canonicalAddress(header.baseUrl) === canonicalAddress(expected.baseUrl) &&
          header.kind === expected.kind
        )
          legacy = { header: header as LegacyLines['header'], lines: [] }
        else other = true
        return
      }
      legacy?.lines.push(value)
    })
    return legacy
  } catch (error) {
    // Not a journal at all, or a damaged one: not this push's to judge unless named by --journal.
    if (error instanceof JournalMismatchError) return undefined
    throw error
  } finally {
    unlock()
  }
}

/**
 * What the earlier journal at `path` says, carried over by key, when `input` is the input it was
 * written for; throws JournalMismatchError saying what to do otherwise.
 */
export function legacyAdoption(
  path: string,
  legacy: LegacyLines,
  input: PushInput,
  recoveredMessage: string,
): Omit<JournalAdoption, 'type'> {
  if (legacy.header.fingerprint !== input.fingerprint || legacy.header.total !== input.items.total) {
    throw new JournalMismatchError(
      `${path} is the journal an earlier catalog-desk kept of a push of this file as it was then, ` +
        `and the file has changed since: its item numbers no longer say which barcode was created. ` +
        `Nothing was sent. Put the file back as it was and push it once (what that journal says is ` +
        `carried over by barcode, and nothing it created is created again); then push the edited ` +
        `file. If that push is over and you have looked on the platform instead, move ${path} away ` +
        `and give the barcodes found there with --platform-has, so they are not created again.`,
    )
  }
  const items = replayLegacy(legacy, input.items.total, recoveredMessage)
  const chosen = new Map<string, number>()
  items.forEach((item, index) => {
    const key = input.keyOf(index)
    const strength = STRENGTH[item.state]
    if (key === '' || strength === undefined) return
    const before = chosen.get(key)
    if (before === undefined || strength > STRENGTH[items[before]!.state]!) chosen.set(key, index)
  })
  const records: AdoptedRecord[] = []
  const payloads: unknown[] = []
  for (const [key, index] of [...chosen].sort((a, b) => a[1] - b[1])) {
    const item = items[index]!
    const state = item.state === 'sending' ? 'unknown' : (item.state as AdoptedRecord['state'])
    const record: AdoptedRecord = { key, state, fingerprint: input.fingerprintOf(index) }
    const message = item.state === 'sending' ? recoveredMessage : item.message
    if (message !== undefined) record.message = message
    if (item.requestId !== undefined) record.requestId = item.requestId
    if (item.sentAt !== undefined) record.sentAt = item.sentAt
    if (item.remoteId !== undefined) record.id = item.remoteId
    if (item.response !== undefined) record.response = item.response
    records.push(record)
    payloads.push(state === 'rejected' ? null : input.payloadOf(index))
  }
  return { at: systemClock.now(), source: path, fingerprint: input.fingerprint, records, payloads }
}

interface LegacyRequest {
  id: string
  startedAt: number
  keys: string[]
}

/** Each item's state as the earlier version replayed its journal (items it never sent: queued). */
function replayLegacy(legacy: LegacyLines, total: number, recoveredMessage: string): LegacyItem[] {
  const items: LegacyItem[] = Array.from({ length: total }, () => ({ state: 'queued' }))
  const at = (key: unknown): LegacyItem | undefined => {
    const index = Number(key)
    return Number.isInteger(index) && index >= 0 && index < total ? items[index] : undefined
  }
  for (const value of legacy.lines) {
    const line = value as { type?: string } & Record<string, unknown>
    switch (line.type) {
      case 'begin': {
        const request = line.request as LegacyRequest
        for (const key of request.keys) {
          const item = at(key)
          if (item)
            Object.assign(item, { state: 'sending', requestId: request.id, sentAt: request.startedAt })
        }
        break
      }
      case 'end': {
        const request = line.request as LegacyRequest
        for (const update of line.updates as Array<
          { key: string } & Omit<LegacyItem, 'requestId' | 'sentAt'>
        >) {
          const item = at(update.key)
          if (!item) continue
          const doubtful = update.state === 'unknown' || update.state === 'failed'
          for (const field of ['message', 'remoteId', 'response', 'requestId', 'sentAt'] as const)
            delete item[field]
          Object.assign(item, {
            state: update.state,
            ...(update.message !== undefined ? { message: update.message } : {}),
            ...(update.remoteId !== undefined ? { remoteId: update.remoteId } : {}),
            ...(update.response !== undefined ? { response: update.response } : {}),
            ...(doubtful ? { requestId: request.id, sentAt: request.startedAt } : {}),
          })
        }
        break
      }
      case 'recover':
        for (const key of line.keys as string[]) {
          const item = at(key)
          if (item?.state === 'sending')
            Object.assign(item, { state: 'unknown', message: line.message ?? recoveredMessage })
        }
        break
      case 'decide':
        for (const key of line.created as string[]) {
          const item = at(key)
          if (item) {
            for (const field of ['requestId', 'sentAt'] as const) delete item[field]
            Object.assign(item, { state: 'synced', message: line.message })
          }
        }
        for (const key of line.resend as string[]) {
          const item = at(key)
          if (item) items[Number(key)] = { state: 'queued' }
        }
        break
    }
  }
  return items
}
