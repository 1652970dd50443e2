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
import type { SyncState } from '#shared/sync-state.ts'
import type { CatalogDatabase } from './database.ts'
import { storedKind, type DraftRow } from './draft-kinds.ts'
import type { AppDraftRecord } from './records.ts'
import type { SyncItemRecord } from './sync-records.ts'

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

/**
 * Writes drafts' `syncState` to follow their items, in the caller's transaction. A draft is only
 * moved from the states `from` allows: a draft that left this run's hands (sent again by a later
 * run, say) is not pulled back by an old run's bookkeeping.
 */
export async function mirrorDrafts(
  table: Table<DraftRow, string>,
  states: ReadonlyMap<string, SyncState>,
  from: readonly SyncState[],
): Promise<string[]> {
  if (states.size === 0) return []
  const ids = [...states.keys()]
  const drafts = await table.bulkGet(ids)
  const changed: DraftRow[] = []
  drafts.forEach((draft, i) => {
    if (!draft || !from.includes(draft.syncState)) return
    const next = states.get(ids[i]!)!
    if (draft.syncState !== next) changed.push({ ...draft, syncState: next })
  })
  await table.bulkPut(changed)
  return changed.map((draft) => draft.id)
}

/**
 * The most of a created app's answer kept on its draft, in JSON characters. The client in main
 * already refuses answers over 1 MB; a few apps of a quarter of that each stay cheap to list.
 */
export const MAX_KEPT_RESPONSE_CHARS = 256 * 1024

/** What the service said about a created app, as its draft keeps it. */
/** What a draft of a kind that keeps the service's answer (an app) gets when it is created. */
export type CreatedFields = Required<Pick<AppDraftRecord, 'remoteId' | 'remoteCreatedAt'>> &
  Pick<AppDraftRecord, 'response'>

/**
 * The fields a draft gets from a `created` update: its id on the service, when the answer came,
 * and the answer itself unless it is too large (then only the id is kept, and the editor says so).
 */
export function createdFields(update: ItemUpdate, at: number): CreatedFields | undefined {
  if (update.state !== 'synced' || update.remoteId === undefined) return undefined
  const fields: CreatedFields = { remoteId: update.remoteId, remoteCreatedAt: at }
  let json: string | undefined
  try {
    json = JSON.stringify(update.response)
  } catch {
    json = undefined
  }
  if (json !== undefined && json.length <= MAX_KEPT_RESPONSE_CHARS) fields.response = JSON.parse(json)
  return fields
}

/**
 * Writes what the service said onto the drafts this request created, in the caller's transaction.
 * Only drafts the state mirror just moved to `synced` are written: a draft that left this run's
 * hands keeps what it has.
 */
export async function recordCreated(
  table: Table<DraftRow & Partial<CreatedFields>, string>,
  created: ReadonlyMap<string, CreatedFields>,
  moved: readonly string[],
): Promise<void> {
  const ids = moved.filter((id) => created.has(id))
  if (ids.length === 0) return
  const drafts = await table.bulkGet(ids)
  await table.bulkPut(
    drafts.flatMap((draft) => {
      if (!draft || draft.syncState !== 'synced') return []
      const { response: _previous, ...rest } = draft
      return [{ ...rest, ...created.get(draft.id)! }]
    }),
  )
}

/**
 * The outbox of one run, in IndexedDB: the engine's `SyncOutbox` port. Items live in `syncItems`
 * keyed by run and position; each item's state is mirrored on its draft's `syncState` in the same
 * transaction, so the SKU list shows where every draft stands and a crash can never leave the
 * two apart. What is sent is the draft's payload as it is when its batch is read: a draft that is
 * queued can no longer be edited, so that is what was queued.
 */
export class DexieSyncOutbox implements SyncOutbox {
  private readonly db: CatalogDatabase
  readonly runId: string
  readonly kind: SyncKind
  /** The run's drafts: the table whose `syncState` mirrors the items'. */
  private readonly drafts: Table<DraftRow, string>
  /** Whether a created item keeps the service's id and answer on its draft (an app does). */
  private readonly keepsAnswer: boolean

  constructor(db: CatalogDatabase, runId: string, kind: SyncKind = 'skus') {
    this.db = db
    this.runId = runId
    this.kind = kind
    const stored = storedKind(kind)
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
          if (draft?.syncState === 'queued')
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
        if (draft?.syncState !== 'queued')
          throw new OutboxConflictError(
            `The draft of item ${key} is ${draft ? draft.syncState : 'gone'}, not queued: it cannot be sent`,
          )
        const { message: _previous, ...rest } = item
        return { ...rest, state: 'sending' as const, requestId: request.id }
      })
      await this.db.syncItems.bulkPut(sending)
      await this.drafts.bulkPut(drafts.map((draft) => ({ ...draft!, syncState: 'sending' as const })))
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
    // transaction as the state, so a synced app draft always has its id (or a message why not).
    await this.db.transaction('rw', this.db.syncItems, this.db.syncRequests, this.drafts, async () => {
      const existing = await this.db.syncRequests.get(request.id)
      if (!existing) throw new OutboxConflictError(`Request ${request.id} never began`)
      const keys = updates.map((update) => update.key)
      const items = await itemsOfKeys(this.db, this.runId, keys)
      const next: SyncItemRecord[] = []
      const states = new Map<string, SyncState>()
      const created = new Map<string, CreatedFields>()
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
        states.set(update.key, update.state)
        const fields = this.keepsAnswer ? createdFields(update, answeredAt) : undefined
        if (fields) created.set(update.key, fields)
      })
      await this.db.syncItems.bulkPut(next)
      const moved = await mirrorDrafts(this.drafts, states, ['queued', 'sending'])
      if (created.size > 0) await recordCreated(this.drafts, created, moved)
      await this.db.syncRequests.put({ ...existing, ...plain(request), labels: existing.labels })
    })
  }

  async recoverInterrupted(message: string): Promise<number> {
    return this.db.transaction('rw', this.db.syncItems, this.db.syncRequests, this.drafts, async () => {
      const sending = await itemsInState(this.db, this.runId, 'sending').toArray()
      const unknown = sending.map((item) => ({ ...item, state: 'unknown' as const, message }))
      await this.db.syncItems.bulkPut(unknown)
      await mirrorDrafts(this.drafts, new Map(unknown.map((item) => [item.key, 'unknown'])), [
        'queued',
        'sending',
      ])
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
