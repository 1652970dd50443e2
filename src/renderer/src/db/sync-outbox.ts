import { Dexie, type Table } from 'dexie'
import { OutboxConflictError } from '#shared/sync/ports.ts'
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
import { withStanding } from '#shared/sync-state.ts'
import type { CatalogDatabase } from './database.ts'
import { storedKind, type DraftRow } from './draft-kinds.ts'
import { createdFields, moveStandings, standsFor, type StandingChange } from './draft-standings.ts'
import type { SyncItemRecord, SyncRunRecord } from './sync-records.ts'

/** Why an item whose draft is gone failed: it was never sent. */
export const DRAFT_GONE_MESSAGE = 'The draft was deleted before it was sent; nothing was sent'
/** An item whose draft is no longer queued (another run or a person took it): it is not sent. */
export const DRAFT_LEFT_MESSAGE =
  'The draft left this run before it was sent (it went back to editing or to another run); nothing was sent'

/** The index range of a run's items in one state, in position order (after `after` when given). */
export function itemsInState(db: CatalogDatabase, run: string, state: ItemState, after = -Infinity) {
  return db.syncItems
    .where('[run+state+position]')
    .between([run, state, after], [run, state, Dexie.maxKey], false, true)
}

/** A run's items of the given drafts, in the order of `keys` (absent where the draft is not in the run). */
export async function itemsOfKeys(
  db: CatalogDatabase,
  run: string,
  keys: readonly string[],
): Promise<Array<SyncItemRecord | undefined>> {
  const found = await db.syncItems
    .where('[run+key]')
    .anyOf(keys.map((key) => [run, key]))
    .toArray()
  const byKey = new Map(found.map((item) => [item.key, item]))
  return keys.map((key) => byKey.get(key))
}

/** What the outbox needs of its run. */
export type OutboxRun = Pick<SyncRunRecord, 'id' | 'kind' | 'destination'>

/**
 * The outbox of one run, in IndexedDB: the engine's `SyncOutbox` port. Items live in `syncItems`
 * keyed by run and position: the run's record, and the engine's state while the run holds them.
 * Each item's state is carried onto its draft's standing at the run's destination in the same
 * transaction, so the SKU list shows where every draft stands and a crash can never leave the
 * two apart (README: why both exist, and which wins). What is sent is the draft's payload as it is
 * when its batch is read: a draft that is queued can no longer be edited, so that is what was
 * queued, and the item keeps it as what was sent.
 */
export class DexieSyncOutbox implements SyncOutbox {
  private readonly db: CatalogDatabase
  readonly runId: string
  readonly kind: SyncKind
  private readonly run: OutboxRun
  /** The run's drafts: the table whose standings follow the items'. */
  private readonly drafts: Table<DraftRow, string>
  /** Whether a created item keeps the service's id and answer on its draft (an app does). */
  private readonly keepsAnswer: boolean

  constructor(db: CatalogDatabase, run: OutboxRun) {
    this.db = db
    this.run = run
    this.runId = run.id
    this.kind = run.kind
    const stored = storedKind(run.kind)
    this.drafts = stored.table(db)
    this.keepsAnswer = stored.definition.keepsAnswer
  }

  /**
   * A short page means "nothing more is queued" to the engine, so a page is short only when that is
   * true. An item whose draft is gone (a queued draft cannot be deleted through the repository, so
   * only a store changed by hand) fails in this same transaction, saying nothing was sent, and the
   * read goes on past it.
   */
  async queuedAfter(after: number, limit: number): Promise<OutboxItem[]> {
    return this.db.transaction('rw', this.db.syncItems, this.drafts, async () => {
      const found: OutboxItem[] = []
      let cursor = after
      while (found.length < limit) {
        const wanted = limit - found.length
        const items = await itemsInState(this.db, this.runId, 'queued', cursor).limit(wanted).toArray()
        if (items.length === 0) break
        cursor = items.at(-1)!.position
        const drafts = await this.drafts.bulkGet(items.map((item) => item.key))
        const gone: SyncItemRecord[] = []
        items.forEach((item, i) => {
          const draft = drafts[i]
          if (draft && standsFor(draft, this.run, item.position, ['queued']))
            found.push({ key: item.key, position: item.position, payload: draft.payload, label: item.label })
          else
            gone.push({ ...item, state: 'failed', message: draft ? DRAFT_LEFT_MESSAGE : DRAFT_GONE_MESSAGE })
        })
        await this.db.syncItems.bulkPut(gone)
        if (items.length < wanted) break
      }
      return found
    })
  }

  /**
   * As strict as the reference outbox (`memory-outbox.ts`): every item of the request must be in
   * this run, `queued`, with its draft `queued`, or nothing is written and the engine stops the run
   * without sending. A request already recorded is refused too.
   */
  async beginRequest(request: RequestRecord): Promise<void> {
    await this.db.transaction('rw', this.db.syncItems, this.db.syncRequests, this.drafts, async () => {
      if (await this.db.syncRequests.get(request.id))
        throw new OutboxConflictError(`Request ${request.id} was already recorded`)
      const items = await itemsOfKeys(this.db, this.runId, request.keys)
      const drafts = await this.drafts.bulkGet([...request.keys])
      const sending = request.keys.map((key, i) => {
        const item = items[i]
        if (!item) throw new OutboxConflictError(`No item ${key} in run ${this.runId}`)
        if (item.state !== 'queued')
          throw new OutboxConflictError(`Item ${key} is ${item.state}, not queued: it cannot be sent`)
        const draft = drafts[i]
        if (!standsFor(draft, this.run, item.position, ['queued']))
          throw new OutboxConflictError(
            `The draft of item ${key} is ${draft ? 'not queued in this run' : 'gone'}: it cannot be sent`,
          )
        const { message: _previous, ...rest } = item
        return { ...rest, state: 'sending' as const, requestId: request.id, sent: draft!.payload }
      })
      await this.db.syncItems.bulkPut(sending)
      const at = request.startedAt
      await this.drafts.bulkPut(
        drafts.map((draft, i) => ({
          ...draft!,
          ...withStanding(draft!.sync, this.run.destination, {
            state: 'sending',
            run: this.runId,
            position: sending[i]!.position,
            at,
          }),
        })),
      )
      await this.db.syncRequests.put({ ...plain(request), labels: items.map((item) => item!.label) })
    })
  }

  /**
   * The request must have begun and every update name an item it is sending, or nothing is written
   * (as the reference outbox). A draft that left the run meanwhile keeps its state: only the item
   * records the outcome.
   */
  async endRequest(request: RequestRecord, updates: readonly ItemUpdate[]): Promise<void> {
    // `this.drafts` is `appDrafts` for a run of apps: what the service said is written in this same
    // transaction as the state, so an app synced somewhere always has its id there (or a message why not).
    await this.db.transaction('rw', this.db.syncItems, this.db.syncRequests, this.drafts, async () => {
      const existing = await this.db.syncRequests.get(request.id)
      if (!existing) throw new OutboxConflictError(`Request ${request.id} never began`)
      const keys = updates.map((update) => update.key)
      const items = await itemsOfKeys(this.db, this.runId, keys)
      const next: SyncItemRecord[] = []
      const changes = new Map<string, StandingChange>()
      const answeredAt = request.endedAt ?? Date.now()
      updates.forEach((update, i) => {
        const item = items[i]
        if (!item || item.state !== 'sending' || item.requestId !== request.id)
          throw new OutboxConflictError(`Item ${update.key} is not sending in request ${request.id}`)
        const record: SyncItemRecord = { ...item, state: update.state, requestId: request.id }
        if (update.message !== undefined) record.message = update.message
        else delete record.message
        if (update.remoteId !== undefined) record.remoteId = update.remoteId
        if (update.response !== undefined) record.response = plain(update.response)
        next.push(record)
        const created = this.keepsAnswer ? createdFields(update, answeredAt) : undefined
        changes.set(update.key, {
          state: update.state,
          position: item.position,
          ...(created ? { created } : {}),
        })
      })
      await this.db.syncItems.bulkPut(next)
      await moveStandings(this.drafts, this.run, changes, ['queued', 'sending'], answeredAt)
      await this.db.syncRequests.put({ ...existing, ...plain(request), labels: existing.labels })
    })
  }

  async recoverInterrupted(message: string): Promise<number> {
    return this.db.transaction('rw', this.db.syncItems, this.db.syncRequests, this.drafts, async () => {
      const sending = await itemsInState(this.db, this.runId, 'sending').toArray()
      const unknown = sending.map((item) => ({ ...item, state: 'unknown' as const, message }))
      await this.db.syncItems.bulkPut(unknown)
      await moveStandings(
        this.drafts,
        this.run,
        new Map(unknown.map((item) => [item.key, { state: 'unknown', position: item.position }])),
        ['queued', 'sending'],
      )
      const open = await this.db.syncRequests
        .where('[runId+startedAt]')
        .between([this.runId, Dexie.minKey], [this.runId, Dexie.maxKey])
        .filter((request) => request.endedAt === undefined)
        .toArray()
      const now = Date.now()
      await this.db.syncRequests.bulkPut(
        open.map((request) => ({
          ...request,
          endedAt: now,
          outcome: {
            kind: 'unknown',
            processed: 'maybe',
            message,
            durationMs: now - request.startedAt,
            action: 'interrupted: the app closed before the answer came; you decide',
          },
        })),
      )
      return unknown.length
    })
  }

  async counts(): Promise<Record<ItemState, number>> {
    return countItems(this.db, this.runId)
  }
}

/** A run's items by state, counted on the index. */
export async function countItems(db: CatalogDatabase, run: string): Promise<Record<ItemState, number>> {
  const counts = noItems()
  await Promise.all(
    ITEM_STATES.map(async (state) => {
      counts[state] = await itemsInState(db, run, state).count()
    }),
  )
  return counts
}

/**
 * A structured-cloneable copy: what the engine hands over may hold proxies or functions (an
 * AbortSignal in an outcome, say) that IndexedDB cannot store.
 */
function plain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T)
}
