import type { Table } from 'dexie'
import { textOf } from '#shared/text-of.ts'
import { isRecord } from '#shared/is-record.ts'
import { standingTag, withStanding } from '#shared/sync/standing.ts'
import { barcodeKey } from '#shared/sync/send-gates.ts'
import type { CatalogDatabase } from './database.ts'
import { storedKind, type DraftRow } from './stored-kinds.ts'
import {
  createdStanding,
  moveStandings,
  standsFor,
  type StandingChange,
  type StandingRun,
} from './draft-standings.ts'
import { ENQUEUE_CHUNK } from './sync-runs.ts'
import { itemsOfKeys } from './sync-outbox.ts'
import type { SyncItemRecord, SyncRequestRecord, SyncRunRecord } from './sync-records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * Reconciliation without a read endpoint (issue #15): the service cannot be asked what it holds,
 * so after an unknown outcome (or a 500) a person checks the platform. This is the data side of
 * helping them do it for one destination: the SKU drafts still undecided there, as a sheet to check
 * against the platform, and the decisions a list of barcodes the platform has leads to, written as
 * `SyncRunRepository.resolve` writes one batch's decision (items and standings in one transaction),
 * a chunk at a time. Only SKUs: they are what a barcode names.
 *
 * A list with an id column (src/shared/sheet/barcode-list.ts) also gives the platform's id of the
 * SKUs created there (issue #34): what an update is sent to, which no bulk answer may have said.
 * Every draft created at the destination with a listed barcode gets it on its standing there, in
 * whatever state: an undecided one as the list marks it created, a synced one as it is (its own
 * barcode compared, as the drafts' list shows it). Where the list's id differs from the one the
 * draft keeps, the list wins: it is what the platform shows now, and the dialog and the outcome
 * name each such draft.
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

/** An undecided draft the list marks created, with the platform's id of it when the list gives one. */
export interface ListedDraft extends UndecidedDraft {
  remoteId?: string
}

/** A SKU draft synced at the destination (created there), as a list of the platform's ids finds it. */
export interface CreatedDraft {
  /** The draft's id. */
  id: string
  /** The draft's own barcode. */
  barcode: string
  productName: string
  /** The platform's id the draft keeps there, if one is known. */
  remoteId?: string
}

/** A created draft and the id the list gives it, other than the one it keeps (if any). */
export interface ListedId {
  draft: CreatedDraft
  remoteId: string
}

/** What a list of the platform's barcodes (and ids) would do to the drafts sent to a destination. */
export interface ReconcilePlan {
  /** Undecided drafts whose barcode is on the list: created, to be marked so (with their id, when listed). */
  listed: ListedDraft[]
  /** The others: not on the platform as far as the list goes (sent again, or left undecided). */
  rest: UndecidedDraft[]
  /** Drafts created there that the list gives an id other than the one they keep (none, or another). */
  ids: ListedId[]
  /** Drafts created there that keep the very id the list gives: nothing to do. */
  idsKnown: number
  /**
   * Barcodes on the list that name no undecided draft (already synced, or another catalogue's);
   * for a list with ids, none created there either.
   */
  unmatched: string[]
}

/** The ids a list gives, and the created drafts its barcodes name (`SyncReconciler.created`). */
export interface PlanIds {
  byBarcode: ReadonlyMap<string, string>
  created: readonly CreatedDraft[]
}

/**
 * How the drafts of a plan are decided. `created` and `resend` name undecided drafts by id; a
 * draft in neither stays as it is (undecided). `ids` are written on drafts that are still created there.
 */
export interface ReconcileDecision {
  created: readonly ListedDraft[]
  resend: readonly UndecidedDraft[]
  ids?: readonly ListedId[]
  /** The list's file name, kept in the items' message ("on the platform's list …"). */
  source: string
  now?: number
  chunk?: number
  /** After each chunk: drafts decided (or given an id) so far, and how many there are. */
  onProgress?(done: number, total: number): void
}

/** A draft whose kept id the list's replaced. */
export interface ReplacedId {
  /** The draft's id. */
  id: string
  barcode: string
  /** The id it kept, and the list's. */
  was: string
  now: string
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
  /** Drafts created there that got the platform's id from the list (none kept, or another). */
  ids: number
  /** Of those, the ones that kept another id: the list's replaced it. */
  replaced: ReplacedId[]
}

/** The message a draft marked created from a list gets on its item. */
export function listedMessage(source: string): string {
  return `Marked as created: on the platform's list ${source}`
}

/**
 * Splits the undecided drafts by a list of the barcodes the platform has. A barcode matches the
 * barcode that was sent, compared as the gates before sending compare (`barcodeKey`). Two drafts sent with one barcode are both
 * marked when it is listed: sending either again would put that barcode on the platform twice.
 * With `ids` (a list with an id column), each listed draft takes its barcode's id, and each
 * created draft whose own barcode has one gets it unless it keeps that very id.
 */
export function planReconcile(
  undecided: readonly UndecidedDraft[],
  barcodes: readonly string[],
  ids?: PlanIds,
): ReconcilePlan {
  const listed = new Set(barcodes.map(barcodeKey))
  const idOf = new Map([...(ids?.byBarcode ?? [])].map(([barcode, id]) => [barcodeKey(barcode), id]))
  const found = new Set<string>()
  const plan: ReconcilePlan = { listed: [], rest: [], ids: [], idsKnown: 0, unmatched: [] }
  for (const draft of undecided) {
    const barcode = barcodeKey(draft.barcode)
    if (barcode !== '' && listed.has(barcode)) {
      const remoteId = idOf.get(barcode)
      plan.listed.push(remoteId === undefined ? draft : { ...draft, remoteId })
      found.add(barcode)
    } else plan.rest.push(draft)
  }
  for (const draft of ids?.created ?? []) {
    const barcode = barcodeKey(draft.barcode)
    const remoteId = idOf.get(barcode)
    if (barcode === '' || remoteId === undefined) continue
    found.add(barcode)
    if (draft.remoteId === remoteId) plan.idsKnown++
    else plan.ids.push({ draft, remoteId })
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

/** Reading and deciding the SKU drafts undecided at a destination, and giving created ones their ids. */
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
   * How many SKU drafts created at `destination` have no platform id there, on the `standing`
   * index: they cannot be updated until a list gives them one.
   */
  withoutIds(destination: string): Promise<number> {
    return this.db.skuDrafts.where('standing').equals(standingTag(destination, 'no-id')).count()
  }

  /**
   * The SKU drafts created at `destination` (synced there, whatever became of their updates) whose
   * own barcode, read as `barcodeKey` reads it, is one of `barcodes`, with the id each keeps there.
   * The drafts created there and the barcodes of all drafts are read from their indexes, and only
   * the drafts found are read whole, a chunk a transaction.
   */
  async created(
    destination: string,
    barcodes: Iterable<string>,
    chunk = ENQUEUE_CHUNK,
  ): Promise<CreatedDraft[]> {
    const wanted = new Set([...barcodes].map(barcodeKey))
    wanted.delete('')
    const table = this.db.skuDrafts
    if (wanted.size === 0) return []
    const there = new Set(
      await table.where('standing').equals(standingTag(destination, 'synced')).primaryKeys(),
    )
    if (there.size === 0) return []
    // Every draft's barcode from the index (a barcode is matched without the spaces around it,
    // which an index range cannot do), and only the drafts created there.
    const ids: string[] = []
    await table.orderBy('barcode').eachKey((barcode, cursor) => {
      const id = String(cursor.primaryKey)
      if (there.has(id) && wanted.has(barcodeKey(barcode))) ids.push(id)
    })
    const found: CreatedDraft[] = []
    for (let start = 0; start < ids.length; start += chunk) {
      const drafts = await table.bulkGet(ids.slice(start, start + chunk))
      for (const draft of drafts) {
        const standing = draft?.sync[destination]
        if (!draft || standing?.state !== 'synced') continue
        const one: CreatedDraft = { id: draft.id, barcode: draft.barcode, productName: draft.productName }
        if (standing.remoteId !== undefined) one.remoteId = standing.remoteId
        found.push(one)
      }
    }
    return found
  }

  /**
   * Writes a person's decision about undecided drafts: `created` become synced at the destination
   * (their items too, saying which list), `resend` go back to draft there, the way a cancelled run
   * returns its queued drafts, so a new run can take them (their items stay in the history as
   * they ended). A chunk a transaction, items, standings and requests together. A draft that is no
   * longer undecided as planned is left as it is. A request none of whose items waits for a
   * decision any more is marked decided (sent again if any of its drafts is), so the history no
   * longer shows it as waiting.
   *
   * A draft marked created keeps what was sent as what stands there (`sent`, the fingerprint of its
   * item's payload, as a creation's answer records it), so an edit since makes it "changed since
   * sent there", and takes its listed id; `ids` go on drafts still created there, in the same
   * chunks. A draft that keeps another id takes the list's, and is named in `replaced`.
   */
  async decide(destination: string, decision: ReconcileDecision): Promise<Reconciled> {
    const { source, now = systemClock.now(), chunk = ENQUEUE_CHUNK, onProgress } = decision
    // The SKU drafts as the standings' code reads and writes them.
    const table = storedKind('skus').table(this.db)
    const all: Array<MoveStep | IdStep> = [
      ...decision.created.map((draft) => ({ draft, next: 'synced' as const })),
      ...decision.resend.map((draft) => ({ draft, next: 'draft' as const })),
      ...(decision.ids ?? []).map((named) => ({ named, next: 'id' as const })),
    ]
    const result = nothingReconciled()
    for (let start = 0; start < all.length; start += chunk) {
      const slice = all.slice(start, start + chunk)
      const moving = slice.filter((step): step is MoveStep => step.next !== 'id')
      const naming = slice.filter((step): step is IdStep => step.next === 'id')
      // Counted apart and added once the chunk committed: a chunk that fails counts for nothing.
      const done = await this.db.transaction(
        'rw',
        [table, this.db.syncItems, this.db.syncRequests],
        async () => {
          const counts = nothingReconciled()
          const drafts = await table.bulkGet(moving.map(({ draft }) => draft.id))
          const items = await this.db.syncItems.bulkGet(
            moving.map(({ draft }) => [draft.run.id, draft.position] as [string, number]),
          )
          const created: SyncItemRecord[] = []
          /** Per run: each draft's next standing there. */
          const moves = new Map<string, Map<string, StandingChange>>()
          const touched = new Set<string>()
          moving.forEach(({ draft, next }, i) => {
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
            changes.set(draft.id, {
              state: next,
              position: item.position,
              ...createdThere(next, item, draft),
            })
            moves.set(run.id, changes)
            if (item.requestId) touched.add(item.requestId)
            if (next === 'draft' && drafts[i]!.validity === 'invalid') counts.withErrors++
          })
          await this.db.syncItems.bulkPut(created)
          for (const [runId, changes] of moves) {
            const moved = new Set(
              await moveStandings(table, { id: runId, destination }, changes, [...UNDECIDED_STATES], now),
            )
            for (const [id, change] of changes) {
              if (!moved.has(id)) continue
              if (change.state !== 'synced') counts.released.push(id)
              else {
                counts.created++
                if (change.stands?.remoteId !== undefined) counts.ids++
              }
            }
          }
          await this.giveIds(
            table,
            destination,
            naming.map(({ named }) => named),
            counts,
          )
          await this.markDecided(destination, [...touched], now)
          return counts
        },
      )
      result.created += done.created
      result.released.push(...done.released)
      result.withErrors += done.withErrors
      result.movedOn += done.movedOn
      result.ids += done.ids
      result.replaced.push(...done.replaced)
      onProgress?.(Math.min(all.length, start + slice.length), all.length)
    }
    return result
  }

  /**
   * Gives drafts created at `destination` the list's ids (in the caller's transaction). A draft no
   * longer created there (sent back to editing, forgotten there) is counted as moved on; one that
   * keeps the listed id is left as it is; one that keeps another takes the list's, and is named.
   */
  private async giveIds(
    table: Table<DraftRow, string>,
    destination: string,
    named: readonly ListedId[],
    counts: Reconciled,
  ): Promise<void> {
    if (named.length === 0) return
    const drafts = await table.bulkGet(named.map(({ draft }) => draft.id))
    const written: DraftRow[] = []
    drafts.forEach((draft, i) => {
      const { remoteId, draft: listed } = named[i]!
      const standing = draft?.sync[destination]
      if (!draft || standing?.state !== 'synced') {
        counts.movedOn++
        return
      }
      if (standing.remoteId === remoteId) return
      counts.ids++
      if (standing.remoteId !== undefined)
        counts.replaced.push({ id: draft.id, barcode: listed.barcode, was: standing.remoteId, now: remoteId })
      written.push({ ...draft, ...withStanding(draft, destination, { ...standing, remoteId }) })
    })
    await table.bulkPut(written)
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

/** A step of a decision: an undecided draft marked created or returned to draft, or a created one given its id. */
type MoveStep = { draft: ListedDraft; next: 'synced' | 'draft' }
type IdStep = { named: ListedId; next: 'id' }

/**
 * What an undecided draft marked created stands for there, as a creation's answer would have it
 * recorded: the fingerprint of what its item sent, and the listed id (src/renderer/src/db/sync-outbox.ts).
 */
function createdThere(
  next: MoveStep['next'],
  item: SyncItemRecord,
  draft: ListedDraft,
): Pick<StandingChange, 'stands'> {
  if (next !== 'synced') return {}
  const stands = createdStanding('skus', item.sent, draft.remoteId)
  if (stands) return { stands }
  return draft.remoteId === undefined ? {} : { stands: { remoteId: draft.remoteId } }
}

function nothingReconciled(): Reconciled {
  return { created: 0, released: [], withErrors: 0, movedOn: 0, ids: 0, replaced: [] }
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
  // The sheet writers (Papa Parse, write-excel-file) load when a file is made: the window's start
  // reaches this module through db/index.ts and needs none of them (issue #37).
  const [{ toCsv }, { writeXlsx }, { MEDIA_TYPES }] = await Promise.all([
    import('#shared/sheet/csv.ts'),
    import('#shared/sheet/xlsx.ts'),
    import('#shared/sheet/export.ts'),
  ])
  const content =
    format === 'csv' ? toCsv(headers!, rows) : await writeXlsx([headers!, ...rows], { sheet: 'Undecided' })
  return new File([content as BlobPart], name, { type: MEDIA_TYPES[format] })
}
