import { toCsv } from '#shared/sheet/csv.ts'
import { MEDIA_TYPES } from '#shared/sheet/export.ts'
import { writeXlsx } from '#shared/sheet/xlsx.ts'
import { textOf } from '#shared/text-of.ts'
import { isRecord } from '#shared/is-record.ts'
import { standingTag } from '#shared/sync-state.ts'
import { barcodeKey } from '#shared/sync/send-gates.ts'
import type { CatalogDatabase } from './database.ts'
import { storedKind } from './draft-kinds.ts'
import { moveStandings, standsFor, type StandingChange, type StandingRun } from './draft-standings.ts'
import { ENQUEUE_CHUNK } from './sync-runs.ts'
import { itemsOfKeys } from './sync-outbox.ts'
import type { SyncItemRecord, SyncRequestRecord, SyncRunRecord } from './sync-records.ts'

/**
 * Reconciliation without a read endpoint (issue #15): the service cannot be asked what it holds,
 * so after an unknown outcome (or a 500) a person checks the platform. This is the data side of
 * helping them do it for one destination: the SKU drafts still undecided there, as a sheet to check
 * against the platform, and the decisions a list of barcodes the platform has leads to, written as
 * `SyncRunRepository.resolve` writes one batch's decision (items and standings in one transaction),
 * a chunk at a time. Only SKUs: they are what a barcode names.
 */

/** The states a person decides about: the service may or may not have created the draft. */
const UNDECIDED_STATES = ['unknown', 'failed'] as const
type UndecidedState = (typeof UNDECIDED_STATES)[number]

const isUndecided = (state: string): state is UndecidedState =>
  (UNDECIDED_STATES as readonly string[]).includes(state)

/** A draft whose standing at the destination is still the unknown or failed item of a run. */
export interface UndecidedDraft {
  /** The draft's id. */
  id: string
  /** The barcode as it was sent (what the platform would hold); the draft's own when nothing was kept. */
  barcode: string
  productName: string
  state: UndecidedState
  run: Pick<SyncRunRecord, 'id' | 'createdAt' | 'profileName'>
  /** The item's place in its run: `[run.id, position]` is its key. */
  position: number
  /** The request that carried it, and when that left. */
  requestId?: string
  sentAt?: number
  /** What came of it, in the service's or the engine's words. */
  message: string
}

/** What a list of barcodes the platform has would do to the undecided drafts. */
export interface ReconcilePlan {
  /** Undecided drafts whose barcode is on the list: created, to be marked so. */
  listed: UndecidedDraft[]
  /** The others: not on the platform as far as the list goes (sent again, or left undecided). */
  rest: UndecidedDraft[]
  /** Barcodes on the list that name no undecided draft (already synced, or another catalogue's). */
  unmatched: string[]
}

/**
 * How the undecided drafts of a plan are decided. `created` and `resend` name drafts by id; a
 * draft in neither stays as it is (undecided).
 */
export interface ReconcileDecision {
  created: readonly UndecidedDraft[]
  resend: readonly UndecidedDraft[]
  /** The list's file name, kept in the items' message ("on the platform's list …"). */
  source: string
  now?: number
  chunk?: number
  /** After each chunk: drafts decided so far, and how many there are. */
  onProgress?(done: number, total: number): void
}

export interface Reconciled {
  /** Drafts marked as created. */
  created: number
  /** Drafts whose standing went back to draft there, to be sent by a new run: their ids. */
  released: string[]
  /** Of those, how many have errors now (edited since they were sent): no run takes them until fixed. */
  withErrors: number
  /** Drafts that moved on since the plan was made (decided in the history, taken by a run, …): left. */
  movedOn: number
}

/** The message a draft marked created from a list gets on its item. */
export function listedMessage(source: string): string {
  return `Marked as created: on the platform's list ${source}`
}

/**
 * Splits the undecided drafts by a list of the barcodes the platform has. A barcode matches the
 * barcode that was sent, compared as the gates before sending compare (`barcodeKey`). Two drafts sent with one barcode are both
 * marked when it is listed: sending either again would put that barcode on the platform twice.
 */
export function planReconcile(
  undecided: readonly UndecidedDraft[],
  barcodes: readonly string[],
): ReconcilePlan {
  const listed = new Set(barcodes.map(barcodeKey))
  const found = new Set<string>()
  const plan: ReconcilePlan = { listed: [], rest: [], unmatched: [] }
  for (const draft of undecided) {
    const barcode = barcodeKey(draft.barcode)
    if (barcode !== '' && listed.has(barcode)) {
      plan.listed.push(draft)
      found.add(barcode)
    } else plan.rest.push(draft)
  }
  plan.unmatched = [...listed].filter((barcode) => !found.has(barcode))
  return plan
}

/** The columns of the export, in order. */
export const UNDECIDED_COLUMNS = [
  'barcode',
  'product name',
  'run',
  'time sent',
  'request id',
  'state',
  'message',
] as const

/** Reading and deciding the SKU drafts undecided at a destination. */
export class SyncReconciler {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  /**
   * The SKU drafts undecided at `destination`: their standing there is unknown or failed and still
   * names that very item (a draft a later run took, or that went back to editing, is that run's
   * or the person's now). In the order they were sent: by run, then by place in the run.
   */
  async undecided(destination: string, chunk = ENQUEUE_CHUNK): Promise<UndecidedDraft[]> {
    const table = this.db.skuDrafts
    const keys = await table
      .where('standing')
      .anyOf(UNDECIDED_STATES.map((state) => standingTag(destination, state)))
      .primaryKeys()
    const ids = [...new Set(keys)]
    const found: UndecidedDraft[] = []
    const runs = new Map<string, SyncRunRecord | undefined>()
    for (let start = 0; start < ids.length; start += chunk) {
      const slice = ids.slice(start, start + chunk)
      // One read transaction a chunk: a draft and its item are read as they were together.
      await this.db.transaction(
        'r',
        [table, this.db.syncItems, this.db.syncRequests, this.db.syncRuns],
        async () => {
          const drafts = (await table.bulkGet(slice)).filter(
            (draft) => draft?.sync[destination] !== undefined,
          )
          const items = await this.db.syncItems.bulkGet(
            drafts.map((draft) => {
              const standing = draft!.sync[destination]!
              return [standing.run, standing.position] as [string, number]
            }),
          )
          const requests = await this.db.syncRequests.bulkGet(
            items.flatMap((item) => (item?.requestId ? [item.requestId] : [])),
          )
          const byRequest = new Map(
            requests.flatMap((request) => (request ? [[request.id, request] as const] : [])),
          )
          const missing = [
            ...new Set(items.flatMap((item) => (item && !runs.has(item.run) ? [item.run] : []))),
          ]
          ;(await this.db.syncRuns.bulkGet(missing)).forEach((run, i) => runs.set(missing[i]!, run))
          drafts.forEach((draft, i) => {
            const item = items[i]
            const run = item && runs.get(item.run)
            if (!draft || !item || !run || run.destination !== destination || item.key !== draft.id) return
            if (!isUndecided(item.state) || !standsFor(draft, run, item.position, [item.state])) return
            const request = item.requestId ? byRequest.get(item.requestId) : undefined
            found.push(undecidedDraft(draft, item, item.state, run, request))
          })
        },
      )
    }
    return found.sort((a, b) => a.run.createdAt - b.run.createdAt || a.position - b.position)
  }

  /**
   * Writes a person's decision about undecided drafts: `created` become synced at the destination
   * (their items too, saying which list), `resend` go back to draft there, the way a cancelled run
   * returns its queued drafts, so a new run can take them (their items stay in the history as
   * they ended). A chunk a transaction, items, standings and requests together. A draft that is no
   * longer undecided as planned is left as it is. A request none of whose items waits for a
   * decision any more is marked decided (sent again if any of its drafts is), so the history no
   * longer shows it as waiting.
   */
  async decide(destination: string, decision: ReconcileDecision): Promise<Reconciled> {
    const { source, now = Date.now(), chunk = ENQUEUE_CHUNK, onProgress } = decision
    // The SKU drafts as the standings' code reads and writes them.
    const table = storedKind('skus').table(this.db)
    const all = [
      ...decision.created.map((draft) => ({ draft, next: 'synced' as const })),
      ...decision.resend.map((draft) => ({ draft, next: 'draft' as const })),
    ]
    const result: Reconciled = { created: 0, released: [], withErrors: 0, movedOn: 0 }
    for (let start = 0; start < all.length; start += chunk) {
      const slice = all.slice(start, start + chunk)
      // Counted apart and added once the chunk committed: a chunk that fails counts for nothing.
      const done = await this.db.transaction(
        'rw',
        [table, this.db.syncItems, this.db.syncRequests],
        async () => {
          const counts: Reconciled = { created: 0, released: [], withErrors: 0, movedOn: 0 }
          const drafts = await table.bulkGet(slice.map(({ draft }) => draft.id))
          const items = await this.db.syncItems.bulkGet(
            slice.map(({ draft }) => [draft.run.id, draft.position] as [string, number]),
          )
          const created: SyncItemRecord[] = []
          /** Per run: each draft's next standing there. */
          const moves = new Map<string, Map<string, StandingChange>>()
          const touched = new Set<string>()
          slice.forEach(({ draft, next }, i) => {
            const item = items[i]
            const run: StandingRun = { id: draft.run.id, destination }
            if (
              !item ||
              item.key !== draft.id ||
              !isUndecided(item.state) ||
              !standsFor(drafts[i], run, item.position, [item.state])
            ) {
              counts.movedOn++
              return
            }
            if (next === 'synced') {
              const { message: _previous, ...rest } = item
              created.push({ ...rest, state: 'synced', message: listedMessage(source) })
            }
            const changes = moves.get(run.id) ?? new Map<string, StandingChange>()
            changes.set(draft.id, { state: next, position: item.position })
            moves.set(run.id, changes)
            if (item.requestId) touched.add(item.requestId)
            if (next === 'draft' && drafts[i]!.validity === 'invalid') counts.withErrors++
          })
          await this.db.syncItems.bulkPut(created)
          for (const [runId, changes] of moves) {
            const moved = await moveStandings(
              table,
              { id: runId, destination },
              changes,
              [...UNDECIDED_STATES],
              now,
            )
            for (const id of moved) {
              if (changes.get(id)!.state === 'synced') counts.created++
              else counts.released.push(id)
            }
          }
          await this.markDecided(destination, [...touched], now)
          return counts
        },
      )
      result.created += done.created
      result.released.push(...done.released)
      result.withErrors += done.withErrors
      result.movedOn += done.movedOn
      onProgress?.(Math.min(all.length, start + slice.length), all.length)
    }
    return result
  }

  /** Marks decided the requests none of whose items waits for a decision any more (in the caller's transaction). */
  private async markDecided(destination: string, requestIds: readonly string[], now: number): Promise<void> {
    const requests = await this.db.syncRequests.bulkGet([...requestIds])
    for (const request of requests) {
      if (!request || request.resolution) continue
      const items = await itemsOfKeys(this.db, request.runId, request.keys)
      const drafts = await this.db.skuDrafts.bulkGet([...request.keys])
      const run: StandingRun = { id: request.runId, destination }
      const carried = items.filter(
        (item): item is SyncItemRecord => item !== undefined && item.requestId === request.id,
      )
      const waiting = carried.some(
        (item) =>
          isUndecided(item.state) &&
          standsFor(drafts[request.keys.indexOf(item.key)], run, item.position, [item.state]),
      )
      if (waiting) continue
      // An item still unknown or failed whose draft left it was sent again (or is going to be).
      const choice = carried.some((item) => isUndecided(item.state)) ? 'resend' : 'created'
      await this.db.syncRequests.update(request.id, { resolution: { choice, at: now } })
    }
  }
}

function undecidedDraft(
  draft: { id: string; barcode: string; productName: string },
  item: SyncItemRecord,
  state: UndecidedState,
  run: SyncRunRecord,
  request: SyncRequestRecord | undefined,
): UndecidedDraft {
  // What was sent is what the platform has, if anything: the draft may have been edited since.
  const sent = isRecord(item.sent) ? item.sent : undefined
  const found: UndecidedDraft = {
    id: draft.id,
    barcode: sent ? textOf(sent.barcode) : draft.barcode,
    productName: sent ? textOf(sent.productName) : draft.productName,
    state,
    run: { id: run.id, createdAt: run.createdAt, profileName: run.profileName },
    position: item.position,
    message: item.message ?? request?.outcome?.message ?? '',
  }
  if (item.requestId) found.requestId = item.requestId
  if (request) found.sentAt = request.startedAt
  return found
}

/** "2025-03-01 14:03:11 +01:00": local time, as the person reads the platform, with its offset, so it is never ambiguous. */
export function sheetTime(at: number): string {
  const date = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  const offset = -date.getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())} ${zone}`
  )
}

/** The export's rows (header first): one an undecided draft, what a person needs to find it on the platform. */
export function undecidedRows(drafts: readonly UndecidedDraft[]): string[][] {
  return [
    [...UNDECIDED_COLUMNS],
    ...drafts.map((draft) => [
      draft.barcode,
      draft.productName,
      `${sheetTime(draft.run.createdAt)} · ${draft.run.profileName}`,
      draft.sentAt === undefined ? '' : sheetTime(draft.sentAt),
      draft.requestId ?? '',
      draft.state,
      draft.message,
    ]),
  ]
}

/**
 * The undecided drafts as a file to check on the platform, through the SKU export's writers: CSV
 * escaped against formulas, or XLSX with every cell text (a barcode keeps its leading zeros).
 */
export async function undecidedFile(
  drafts: readonly UndecidedDraft[],
  format: 'csv' | 'xlsx',
  now = new Date(),
): Promise<File> {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:T]/g, '')
  const name = `catalog-desk-undecided-${stamp}.${format}`
  const [headers, ...rows] = undecidedRows(drafts)
  const content =
    format === 'csv' ? toCsv(headers!, rows) : await writeXlsx([headers!, ...rows], { sheet: 'Undecided' })
  return new File([content as BlobPart], name, { type: MEDIA_TYPES[format] })
}
