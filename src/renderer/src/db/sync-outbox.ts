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
import type { SkuUpdateArgument } from '#shared/service/operations.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import type { SyncAnswers } from '#shared/ipc.ts'
import type { DraftKind } from '#shared/sync/kinds.ts'
import { backToQueue } from '#shared/sync/item-updates.ts'
import { decideOutcome } from '#shared/sync/outcome-decision.ts'
import { recorded } from '#shared/sync/request-attempt.ts'
import { hasUpdate, skuUpdatePlan } from '#shared/sync/sku-update.ts'
import { doubtsWhatStands, UNRECORDED, type DestinationStanding } from '#shared/sync/standing.ts'
import type { CatalogDatabase } from './database.ts'
import { storedKind, type DraftRow } from './stored-kinds.ts'
import {
  createdFields,
  createdStanding,
  standingBarcode,
  moveStandings,
  standsFor,
  type StandingChange,
} from './draft-standings.ts'
import type { SyncItemRecord, SyncRunRecord } from './sync-records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

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

/** An update item whose draft has no platform id there any more: nothing was sent. */
export const NO_PLATFORM_ID_MESSAGE =
  "The platform's id of this SKU is unknown, so it cannot be updated; nothing was sent. Import a list from the platform with its id (Sync › Check the platform)."
/** An update item whose changes came to nothing to send (only fields removed, which stay there). */
export const NOTHING_TO_UPDATE_MESSAGE =
  'Nothing to send: the fields it changed were removed in the draft, and a partial update leaves them on the platform as they are.'

/** What the outbox needs of its run. */
export type OutboxRun = Pick<SyncRunRecord, 'id' | 'kind' | 'destination' | 'action'>

/**
 * Main's word on requests this outbox holds open (src/main/handlers/sync-answers.ts): each one's
 * outcome, `sending` while main still has it out, absent when main does not know it.
 */
export type MainAnswers = (requestIds: string[]) => Promise<SyncAnswers>

/** What a request's record says of an answer that came when no page was there to write it. */
const ANSWERED_LATE = 'answered after the window that sent it was reloaded or closed'

/** The item whose kept payload stands at a destination: the creation's, or the last applied update's. */
export function baseItemKey(standing: DestinationStanding): [string, number] {
  const base = standing.base ?? { run: standing.run, position: standing.position }
  return [base.run, base.position]
}

/**
 * The payload that stands where a SKU was created, as far as the app knows, to count an update's
 * changes from; undefined when nothing says (sent by a version that kept no payload, or after an
 * update whose outcome nobody knows, which may or may not have changed any field: the next update
 * then sends the whole SKU).
 */
export async function standsThere(db: CatalogDatabase, standing: DestinationStanding): Promise<unknown> {
  if (!knowsWhatStands(standing)) return undefined
  return (await db.syncItems.get(baseItemKey(standing)))?.sent
}

/** Whether the app knows what stands there field by field (`standsThere`): else an update sends the whole SKU. */
export function knowsWhatStands(standing: DestinationStanding): boolean {
  return standing.sent !== UNRECORDED && !doubtsWhatStands(standing.update)
}

/**
 * The update a draft's payload makes at a destination where it was created: the platform's id and
 * the changed fields, counted from the payload that stands there (its base item's `sent`), or the
 * whole SKU when nothing was kept to count from. Undefined without an id.
 */
export async function updateArgumentOf(
  db: CatalogDatabase,
  standing: DestinationStanding,
  payload: Record<string, unknown>,
): Promise<{ argument: SkuUpdateArgument; nothing: boolean } | undefined> {
  if (standing.remoteId === undefined) return undefined
  const plan = skuUpdatePlan(await standsThere(db, standing), payload)
  return { argument: { skuId: standing.remoteId, fields: plan.fields }, nothing: !hasUpdate(plan) }
}

/**
 * The outbox of one run, in IndexedDB: the engine's `SyncOutbox` port. Items live in `syncItems`
 * keyed by run and position: the run's record, and the engine's state while the run holds them.
 * Each item's state is carried onto its draft's standing at the run's destination in the same
 * transaction, so the SKU list shows where every draft stands and a crash can never leave the
 * two apart (docs/decisions.md: why both exist, and which wins). What is sent is the draft's payload as it is
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
  /** An update run: items carry an update's argument, and move the drafts' `update` standing. */
  private readonly updates: boolean
  private readonly definition: DraftKind
  /** Asked, on recovery, what came of the requests left open; without it they are all unknown. */
  private readonly answers: MainAnswers | undefined

  constructor(db: CatalogDatabase, run: OutboxRun, answers?: MainAnswers) {
    this.db = db
    this.run = run
    this.runId = run.id
    this.kind = run.kind
    const stored = storedKind(run.kind)
    this.drafts = stored.table(db)
    this.definition = stored.definition
    this.keepsAnswer = stored.definition.keepsAnswer
    this.updates = run.action === 'update'
    this.answers = answers
  }

  /** What an update item sends for its draft now, or why it sends nothing. */
  private async updateOf(draft: DraftRow): Promise<{ argument?: SkuUpdateArgument; message?: string }> {
    const found = await updateArgumentOf(
      this.db,
      draft.sync[this.run.destination]!,
      draft.payload as Record<string, unknown>,
    )
    if (!found) return { message: NO_PLATFORM_ID_MESSAGE }
    return found.nothing ? { message: NOTHING_TO_UPDATE_MESSAGE } : { argument: found.argument }
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
        const settledHere = new Map<string, StandingChange>()
        for (const [i, item] of items.entries()) {
          const draft = drafts[i]
          if (!draft || !standsFor(draft, this.run, item.position, ['queued'])) {
            gone.push({ ...item, state: 'failed', message: draft ? DRAFT_LEFT_MESSAGE : DRAFT_GONE_MESSAGE })
            continue
          }
          if (!this.updates) {
            found.push({ key: item.key, position: item.position, payload: draft.payload, label: item.label })
            continue
          }
          // An update's payload is its argument, counted now from what stands there.
          const { argument, message } = await this.updateOf(draft)
          if (argument) {
            found.push({ key: item.key, position: item.position, payload: argument, label: item.label })
            continue
          }
          // Nothing to send: no id (failed), or nothing a partial update can say (as if applied).
          const state = message === NOTHING_TO_UPDATE_MESSAGE ? 'synced' : 'failed'
          gone.push({ ...item, state, message: message! })
          settledHere.set(item.key, { state, position: item.position, message: message! })
        }
        await this.db.syncItems.bulkPut(gone)
        await moveStandings(this.drafts, this.run, settledHere, ['queued'])
        if (items.length < wanted) break
      }
      return found
    })
  }

  /**
   * As strict as the outbox contract asks (test/unit/sync/outbox-contract.ts): every item of the
   * request must be in this run, `queued`, with its draft `queued`, or nothing is written and the
   * engine stops the run without sending. A request already recorded is refused too.
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
      if (this.updates)
        for (const [i, item] of sending.entries()) {
          const { argument } = await this.updateOf(drafts[i]!)
          if (!argument) throw new OutboxConflictError(`Item ${item.key} has no update to send`)
          item.update = argument
        }
      await this.db.syncItems.bulkPut(sending)
      await moveStandings(
        this.drafts,
        this.run,
        new Map(sending.map((item) => [item.key, { state: 'sending', position: item.position }])),
        ['queued'],
        request.startedAt,
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
      const answeredAt = request.endedAt ?? systemClock.now()
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
        const change: StandingChange = { state: update.state, position: item.position }
        if (created) change.created = created
        if (this.updates) {
          if (update.message !== undefined) change.message = update.message
          if (update.gone) change.gone = true
          // An update applied: the barcode it sent (the whole draft's) is the SKU's there now.
          if (update.state === 'synced') change.stands = standingBarcode(item.sent)
        } else if (update.state === 'synced') {
          // What it created is what stands there now: the base of its updates, by fingerprint.
          const stands = createdStanding(this.kind, item.sent, update.remoteId)
          if (stands) change.stands = stands
        }
        changes.set(update.key, change)
      })
      await this.db.syncItems.bulkPut(next)
      await moveStandings(this.drafts, this.run, changes, ['queued', 'sending'], answeredAt)
      await this.db.syncRequests.put({ ...existing, ...plain(request), labels: existing.labels })
    })
  }

  /**
   * Requests left open by a page that is gone are first asked of main (`answers`), which sent them
   * and may have had their answers since: each answered one is written as the engine would have
   * written it, and one main still has out is left sending (main is on it; asked again later).
   * Of the rest, a creation left sending is unknown: the bulk endpoint is not idempotent. An
   * update left sending is queued again, once, while its draft still stands for it (no newer
   * update has left): a PUT sent twice does what it does once. Left sending a second time, it is
   * unknown too. Returns how many became unknown.
   */
  async recoverInterrupted(message: string): Promise<number> {
    const out = new Set<string>()
    let unknown = 0
    for (const [requestId, answer] of Object.entries(await this.answersForOpenRequests())) {
      if (answer === 'sending') out.add(requestId)
      else unknown += await this.settleAnswered(requestId, answer)
    }
    const recovered = await this.db.transaction(
      'rw',
      this.db.syncItems,
      this.db.syncRequests,
      this.drafts,
      async () => {
        const sending = (await itemsInState(this.db, this.runId, 'sending').toArray()).filter(
          (item) => item.requestId === undefined || !out.has(item.requestId),
        )
        const drafts = this.updates ? await this.drafts.bulkGet(sending.map((item) => item.key)) : []
        const again = (item: SyncItemRecord, i: number) =>
          this.updates &&
          !item.requeuedAfterCrash &&
          standsFor(drafts[i], this.run, item.position, ['sending'])
        const recovered: SyncItemRecord[] = sending.map((item, i) =>
          again(item, i)
            ? { ...item, state: 'queued', requeuedAfterCrash: true }
            : { ...item, state: 'unknown', message },
        )
        const unknown = recovered.filter((item) => item.state === 'unknown')
        await this.db.syncItems.bulkPut(recovered)
        await moveStandings(
          this.drafts,
          this.run,
          new Map(
            recovered.map((item) => [
              item.key,
              item.state === 'unknown'
                ? { state: 'unknown', position: item.position, message }
                : { state: 'queued', position: item.position },
            ]),
          ),
          ['queued', 'sending'],
        )
        const open = await this.openRequests()
          .filter((request) => !out.has(request.id))
          .toArray()
        const now = systemClock.now()
        await this.db.syncRequests.bulkPut(
          open.map((request) => ({
            ...request,
            endedAt: now,
            outcome: {
              kind: 'unknown',
              processed: 'maybe',
              message,
              durationMs: now - request.startedAt,
              action: this.updates
                ? 'interrupted: the app closed before the answer came; an update is sent again once'
                : 'interrupted: the app closed before the answer came; you decide',
            },
          })),
        )
        return unknown.length
      },
    )
    return unknown + recovered
  }

  /** This run's requests that began and never ended: what a page gone mid-send left. */
  private openRequests() {
    return this.db.syncRequests
      .where('[runId+startedAt]')
      .between([this.runId, Dexie.minKey], [this.runId, Dexie.maxKey])
      .filter((request) => request.endedAt === undefined)
  }

  /** The ids of `openRequests`: what main is asked about. */
  async openRequestIds(): Promise<string[]> {
    return (await this.openRequests().primaryKeys()).map(String)
  }

  /** Main's word on the open requests; nothing when there are none, or main cannot say. */
  private async answersForOpenRequests(): Promise<SyncAnswers> {
    if (!this.answers) return {}
    const open = await this.openRequestIds()
    if (open.length === 0) return {}
    let answers: SyncAnswers
    try {
      answers = await this.answers(open)
    } catch {
      // Main not answering (an older main, say) leaves the requests as nobody knows them: unknown.
      return {}
    }
    // Only this run's: an answer given for others' is theirs to write.
    return Object.fromEntries(open.flatMap((id) => (answers[id] ? [[id, answers[id]]] : [])))
  }

  /**
   * A request answered while no page was there: its outcome decided as the engine decides it
   * (outcome-decision.ts) and written with its items' states. What the engine would send again (a
   * batch refused or too large, to split again; one the service did not take) goes back to the
   * queue, for the run's resume. Returns how many items it made unknown.
   */
  private async settleAnswered(requestId: string, outcome: Outcome): Promise<number> {
    const request = await this.db.syncRequests.get(requestId)
    if (!request || request.endedAt !== undefined) return 0
    const items = (await itemsOfKeys(this.db, this.runId, request.keys)).filter(
      (item): item is SyncItemRecord => item?.state === 'sending' && item.requestId === requestId,
    )
    const batch: OutboxItem[] = items.map((item) => ({
      key: item.key,
      position: item.position,
      payload: this.updates ? item.update : item.sent,
      label: item.label,
    }))
    const decision = decideOutcome(batch, outcome, {
      kind: this.definition,
      action: this.run.action ?? 'create',
      haltedMeanwhile: true,
      canWaitForNetwork: true,
    })
    // Settled by the answer, or to be sent again by the resume. No run is going on to stop.
    const settles = decision.write !== undefined && decision.hold.length === 0
    const action = !settles ? 'queued again' : decision.stop ? 'failed' : decision.write!.action
    const updates = decision.write?.updates ?? backToQueue(batch)
    const { labels: _labels, ...record } = request
    await this.endRequest(
      { ...record, endedAt: systemClock.now(), outcome: recorded(outcome, `${ANSWERED_LATE}; ${action}`) },
      updates,
    )
    return updates.filter((update) => update.state === 'unknown').length
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
