import { Dexie, type Table } from 'dexie'
import {
  ITEM_STATES,
  type Decided,
  type ItemState,
  type OutboxItem,
  type SyncKind,
} from '#shared/sync/ports.ts'
import { holdForGaps, type Hold, type HoldRules } from '#shared/sync/send-gates.ts'
import { skuUpdatePlan, type SkuUpdatePlan } from '#shared/sync/sku-update.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import {
  destinationTags,
  doubtsWhatStands,
  isChangedSince,
  isLive,
  liveTag,
  liveTags,
  standingTag,
  withStanding,
  type DestinationStanding,
} from '#shared/sync/standing.ts'
import type { CatalogDatabase } from './database.ts'
import { chunks } from './chunks.ts'
import { walkIndex, type Anchor } from './index-walk.ts'
import { storedKind, type DraftRow } from './stored-kinds.ts'
import { createdStanding, moveStandings, standsFor, type StandingChange } from './draft-standings.ts'
import { countItems, itemsInState, itemsOfKeys, knowsWhatStands, standsThere } from './sync-outbox.ts'
import type { SyncItemRecord, SyncRequestRecord, SyncRunRecord, SyncRunState } from './sync-records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * Drafts read and queued a transaction at a time: each chunk commits on its own, so the list and
 * the page stay responsive while 100,000 drafts are queued, and progress has something to count.
 */
export const ENQUEUE_CHUNK = 1_000

/** What a run to one destination would take and what it would leave out, and why (the pre-flight summary). */
export interface Preflight {
  /** Not sent to that destination, not in a run, and passing validation (warnings allowed): what a run sends. */
  ready: number
  /** Not sent there, with errors: left out until they are fixed. */
  invalid: number
  /** Sent there before and created: left out. */
  synced: number
  /** Sent there with no answer that says whether they were created: a person decides first. */
  unknown: number
  /** A server error after sending there (they may have been created): sent again only when asked. */
  failed: number
  /** Refused there: left out until they are edited. */
  rejected: number
  /** Queued or being sent by a run that has not ended (to any destination). */
  inRun: number
}

/** A pre-flight with every count at zero, for counting into (`counts` already counted). */
export function emptyPreflight(counts: Partial<Preflight> = {}): Preflight {
  return { ready: 0, invalid: 0, synced: 0, unknown: 0, failed: 0, rejected: 0, inRun: 0, ...counts }
}

/** The profile a run sends with, as it is when the run starts. */
export interface RunTarget {
  id: string
  name: string
  url: string
  /** Where the drafts go (src/shared/sync/destination.ts). */
  destination: string
  batchSize: number
  concurrency: number
}

export interface EnqueueOptions {
  target: RunTarget
  /**
   * The run's id; a new one when absent. The page names it first, so while the run is prepared it
   * can tell it from a run a crash left open.
   */
  id?: string
  /**
   * Exactly these drafts, in this order, those of them that are eligible (the app editor's "Create
   * on …" gives one); every eligible draft, latest edit first, when absent.
   */
  ids?: readonly string[]
  /** Queue drafts whose last sending failed (HTTP 500) too. */
  includeFailed?: boolean
  /** Drafts the gates before sending hold back (src/renderer/src/db/sku-send-gates.ts): never queued. */
  heldBack?: ReadonlySet<string>
  now?: number
  /** After each chunk: drafts queued so far, drafts read, and how many there are to read. */
  onProgress?(queued: number, read: number, total: number): void
  chunk?: number
}

export interface Enqueued {
  run: SyncRunRecord
  queued: number
}

/**
 * Whether a draft may join a new creation run to `destination`: valid, held by no run, and never
 * sent there (or, when asked, sent there with a server error). A draft created there is never
 * created there again (a second copy); its changes go by update (`enqueueUpdates`).
 */
export function eligible(
  draft: Pick<DraftRow, 'validity' | 'sync'>,
  destination: string,
  includeFailed = false,
): boolean {
  if (draft.validity === 'invalid' || isLive(draft.sync)) return false
  const state = draft.sync[destination]?.state
  return state === undefined || (includeFailed && state === 'failed')
}

/**
 * Adds an item of `run` for each of `queued`, in order from `position`, and writes each draft's
 * standing at the run's destination as `standing` gives it for the item's position; in the
 * caller's transaction. Returns the position after the last.
 */
async function addItems(
  db: CatalogDatabase,
  drafts: Table<DraftRow, string>,
  run: SyncRunRecord,
  queued: readonly DraftRow[],
  position: number,
  standing: (draft: DraftRow, position: number) => DestinationStanding,
): Promise<number> {
  const definition = storedKind(run.kind).definition
  const items: SyncItemRecord[] = queued.map((draft, i) => ({
    run: run.id,
    position: position + i,
    key: draft.id,
    label: definition.label(draft.payload, draft.id),
    state: 'queued',
  }))
  await db.syncItems.bulkAdd(items)
  await drafts.bulkPut(
    queued.map((draft, i) => ({
      ...draft,
      ...withStanding(draft, run.destination, standing(draft, items[i]!.position)),
    })),
  )
  return position + items.length
}

/** Whether the draft's standing at the run's destination is still this item, in the item's state. */
function standsAt(draft: DraftRow | undefined, run: SyncRunRecord, item: SyncItemRecord): boolean {
  return standsFor(draft, run, item.position, [item.state])
}

/** The same next state for each item's draft. */
function backTo(
  state: StandingChange['state'],
  items: readonly Pick<SyncItemRecord, 'key' | 'position'>[],
): Map<string, StandingChange> {
  return new Map(items.map((item) => [item.key, { state, position: item.position }]))
}

/** The updates a destination is offered: SKUs created there and changed since, by what can be done. */
export interface UpdatesPreflight {
  /** Changed since sent there, with the platform's id known: what "Update" sends. */
  ready: number
  /** Changed since sent there, but the platform's id of them is unknown: not sent until it is. */
  noId: number
  /** Changed, with an id, held back by the gates (errors, no name or barcode, a required field). */
  held: number
  /** Of the ready, those sent whole: what stands there is not known field by field (`standsThere`). */
  whole: number
  /** Created there with no platform id known, changed or not (what a platform list would give ids to). */
  withoutId: number
  /** Updates that found the SKU no longer there: the person chooses to create it again or forget it. */
  gone: number
}

/** One update as the pre-flight shows it: the draft, the platform's id, and what it would send. */
export interface UpdatePreview {
  id: string
  label: string
  remoteId: string
  plan: SkuUpdatePlan
}

/**
 * Why a changed draft with an id is not updated now: its errors, versions of two desks not settled
 * (an update would send one and leave the other's edit out without a word, as a tryout found), or
 * the gates' hold on its fields.
 */
function updateHold(
  draft: Pick<DraftRow, 'validity' | 'team'> & { gaps?: readonly string[] },
  gate: UpdateGate,
): Hold | undefined {
  if (draft.validity === 'invalid') return { reason: 'required', message: 'It has errors' }
  if (draft.team?.conflicts)
    return {
      reason: 'required',
      message: 'Edited on two desks: keep one version first (its editor compares them)',
    }
  return holdForGaps(draft.gaps ?? [], gate.required, gate.requiredBy, gate)
}

/**
 * The gates an update passes besides validity: the identity fields, the profile's required ones,
 * and a right check digit when the profile holds wrong ones back.
 */
export interface UpdateGate extends HoldRules {
  required: readonly string[]
  /** Who requires them, as a hold's words name it (the profile's name). */
  requiredBy: string
}

/** What a person decides about a batch whose outcome is not known (or that failed with a 500). */
export type Resolution = 'created' | 'resend'

/**
 * The runs and their items, beside the engine: preparing a run, ending it, the person's decisions
 * about batches, and the history. The engine's own reads and writes go through `DexieSyncOutbox`.
 * Every method takes the kind of draft it is about, or reads it from the run.
 */
export class SyncRunRepository {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  /**
   * Where the drafts stand with `destination`. Counts on the `standing` index; reads no payloads
   * except those of invalid drafts (there are few).
   */
  async preflight(kind: SyncKind, destination: string): Promise<Preflight> {
    const stored = storedKind(kind)
    const table = stored.table(this.db)
    const tagged = (tag: string) => table.where('standing').equals(tag).count()
    const [total, invalid, queuedAnywhere, sendingAnywhere, ...there] = await Promise.all([
      table.count(),
      stored.countInvalidUnsent(this.db, destination),
      tagged(liveTag('queued')),
      tagged(liveTag('sending')),
      ...ITEM_STATES.map((state) => tagged(standingTag(destination, state))),
    ])
    const at = Object.fromEntries(ITEM_STATES.map((state, i) => [state, there[i]!])) as Record<
      ItemState,
      number
    >
    const inRun = queuedAnywhere + sendingAnywhere
    const sentThere = ITEM_STATES.reduce((sum, state) => sum + at[state], 0)
    // Held by a run to another destination: neither sent here nor ready. A draft sent here and held
    // elsewhere (synced here, being promoted) is already counted as sent here: only while such runs
    // exist are the keys read, to count it once.
    let elsewhere = inRun - at.queued - at.sending
    if (elsewhere > 0) {
      const [live, here] = await Promise.all([
        table.where('standing').anyOf(liveTags()).primaryKeys(),
        table.where('standing').anyOf(destinationTags(destination)).primaryKeys(),
      ])
      const sentHere = new Set(here)
      elsewhere = new Set(live.filter((id) => !sentHere.has(id))).size
    }
    return {
      ready: total - sentThere - elsewhere - invalid,
      invalid,
      synced: at.synced,
      unknown: at.unknown,
      failed: at.failed,
      rejected: at.rejected,
      inRun,
    }
  }

  /**
   * Prepares a run of one kind: every eligible draft, in the lists' order (latest edit first), or
   * of `ids` exactly those that are eligible, in that order, becomes an item of the run and
   * `queued`, a chunk a transaction. The run is stored with the first chunk that queues a draft,
   * so a window closed midway leaves a run with what it had queued (resumable) and drafts as
   * drafts; no run is stored when nothing is eligible (`queued` 0). The run sends as the kind says
   * (SKUs in the profile's batches, apps one at a time).
   */
  async enqueue(
    kind: SyncKind,
    {
      target,
      id = crypto.randomUUID(),
      ids,
      includeFailed = false,
      heldBack,
      now = systemClock.now(),
      onProgress,
      chunk = ENQUEUE_CHUNK,
    }: EnqueueOptions,
  ): Promise<Enqueued> {
    await this.db.open()
    const stored = storedKind(kind)
    const { definition } = stored
    const drafts = stored.table(this.db)
    const { destination } = target
    const run: SyncRunRecord = {
      id,
      kind,
      profileId: target.id,
      profileName: target.name,
      url: target.url,
      destination,
      ...definition.sending(target),
      createdAt: now,
      updatedAt: now,
      state: 'open',
      total: 0,
    }
    let position = 0
    let read = 0
    /** Queues the eligible drafts among `keys`, in their order, in one transaction. */
    const queueChunk = (keys: readonly string[]) =>
      this.db.transaction('rw', drafts, this.db.syncItems, this.db.syncRuns, async () => {
        // Read inside the transaction: a draft edited or sent since it was listed is judged as it is now.
        const found = await drafts.bulkGet([...keys])
        const queued = found.filter(
          (draft): draft is DraftRow =>
            draft !== undefined && eligible(draft, destination, includeFailed) && !heldBack?.has(draft.id),
        )
        if (queued.length === 0) return
        if (position === 0) await this.db.syncRuns.add(run)
        position = await addItems(this.db, drafts, run, queued, position, (_draft, at) => ({
          state: 'queued',
          run: run.id,
          position: at,
          at: now,
        }))
        // With each chunk: a window closed midway leaves a run that says what it holds.
        await this.db.syncRuns.update(run.id, { total: position })
      })

    if (ids) {
      const wanted = [...new Set(ids)]
      for (let start = 0; start < wanted.length; start += chunk) {
        const keys = wanted.slice(start, start + chunk)
        await queueChunk(keys)
        read += keys.length
        onProgress?.(position, read, wanted.length)
      }
    } else {
      const total = await drafts.count()
      let after: Anchor | undefined
      for (;;) {
        const index = this.db.backendDB().transaction(drafts.name, 'readonly').objectStore(drafts.name)
        const entries = await walkIndex(index.index('updatedAt'), {
          direction: 'prev',
          after,
          skip: 0,
          take: chunk,
          values: false,
        })
        if (entries.length === 0) break
        const last = entries.at(-1)!
        after = { key: last.key, id: last.id }
        read += entries.length
        await queueChunk(entries.map((entry) => entry.id))
        onProgress?.(position, read, total)
        if (entries.length < chunk) break
      }
    }
    run.total = position
    return { run, queued: position }
  }

  /**
   * The ids of SKUs changed since sent to `destination` (of `ids` only, when given: a chosen scope),
   * and of those created there without a platform id, from the index.
   */
  private async updatable(
    destination: string,
    ids?: readonly string[],
  ): Promise<{ changed: string[]; noId: Set<string> }> {
    const table = storedKind('skus').table(this.db)
    const [changed, noId] = await Promise.all([
      table.where('standing').equals(standingTag(destination, 'changed')).primaryKeys(),
      table.where('standing').equals(standingTag(destination, 'no-id')).primaryKeys(),
    ])
    const only = ids && new Set(ids)
    return { changed: only ? changed.filter((id) => only.has(id)) : changed, noId: new Set(noId) }
  }

  /**
   * What "Update" would do at `destination`: counted on the `standing` index (changed, no id,
   * gone); only the changed drafts with an id are read, for the gates (there are few: a draft is
   * changed only once edited after it was sent). With `ids`, the changed ones are of those only;
   * `withoutId` and `gone` still count the whole destination.
   */
  async updatesPreflight(
    destination: string,
    gate: UpdateGate,
    ids?: readonly string[],
  ): Promise<UpdatesPreflight> {
    const table = storedKind('skus').table(this.db)
    const { changed, noId } = await this.updatable(destination, ids)
    const withId = changed.filter((id) => !noId.has(id))
    let held = 0
    let whole = 0
    for (const chunk of chunks(withId))
      for (const draft of await this.db.skuDrafts.bulkGet(chunk)) {
        if (!draft) continue
        if (updateHold(draft, gate)) held++
        else if (!knowsWhatStands(draft.sync[destination]!)) whole++
      }
    const gone = await table.where('standing').equals(standingTag(destination, 'gone')).count()
    return {
      ready: withId.length - held,
      noId: changed.length - withId.length,
      held,
      whole,
      withoutId: noId.size,
      gone,
    }
  }

  /** The first `limit` updates "Update" would send, each with its field diff, for the pre-flight. */
  async updatePreviews(
    destination: string,
    gate: UpdateGate,
    limit = 50,
    ids?: readonly string[],
  ): Promise<UpdatePreview[]> {
    const { changed, noId } = await this.updatable(destination, ids)
    const previews: UpdatePreview[] = []
    for (const chunk of chunks(changed.filter((id) => !noId.has(id)))) {
      for (const draft of await this.db.skuDrafts.bulkGet(chunk)) {
        const standing = draft?.sync[destination]
        if (!draft || !standing?.remoteId || updateHold(draft, gate)) continue
        const kept = await standsThere(this.db, standing)
        previews.push({
          id: draft.id,
          label: storedKind('skus').definition.label(draft.payload, draft.id),
          remoteId: standing.remoteId,
          plan: skuUpdatePlan(kept, draft.payload),
        })
        if (previews.length >= limit) return previews
      }
    }
    return previews
  }

  /**
   * Prepares an update run to `target`'s destination: every SKU created there and changed since,
   * with a platform id and passing the gates (of `ids` only those), becomes an item, its draft's
   * `update` standing there `queued` (its creation's standing stays as it is). One a request; the
   * outbox counts each one's changed fields as it is read. No run is stored when none is due.
   */
  async enqueueUpdates({
    target,
    gate,
    id = crypto.randomUUID(),
    ids,
    now = systemClock.now(),
    onProgress,
    chunk = ENQUEUE_CHUNK,
  }: Omit<EnqueueOptions, 'includeFailed' | 'heldBack'> & { gate: UpdateGate }): Promise<Enqueued> {
    await this.db.open()
    const { definition, table } = storedKind('skus')
    const drafts = table(this.db)
    const { destination } = target
    const run: SyncRunRecord = {
      id,
      kind: 'skus',
      action: 'update',
      profileId: target.id,
      profileName: target.name,
      url: target.url,
      destination,
      ...definition.sending(target),
      batchSize: 1,
      createdAt: now,
      updatedAt: now,
      state: 'open',
      total: 0,
    }
    const { changed, noId } = await this.updatable(destination)
    const only = ids && new Set(ids)
    const wanted = changed.filter((key) => !noId.has(key) && (!only || only.has(key)))
    let position = 0
    for (let start = 0; start < wanted.length; start += chunk) {
      const keys = wanted.slice(start, start + chunk)
      await this.db.transaction('rw', drafts, this.db.syncItems, this.db.syncRuns, async () => {
        // Read inside the transaction: judged as it is now.
        const found = await drafts.bulkGet(keys)
        const due = found.filter((draft): draft is DraftRow => {
          const standing = draft?.sync[destination]
          return (
            draft !== undefined &&
            standing?.remoteId !== undefined &&
            !isLive(draft.sync) &&
            isChangedSince(standing, () => payloadFingerprint(draft.payload)) &&
            !updateHold(draft, gate)
          )
        })
        if (due.length === 0) return
        if (position === 0) await this.db.syncRuns.add(run)
        // The creation's standing stays as it is: the update is beside it.
        position = await addItems(this.db, drafts, run, due, position, (draft, at) => {
          const standing = draft.sync[destination]!
          return {
            ...standing,
            update: {
              run: run.id,
              position: at,
              state: 'queued',
              at: now,
              sent: payloadFingerprint(draft.payload),
              // After an update nobody knows the outcome of, this one sends the whole SKU.
              ...(doubtsWhatStands(standing.update) ? { afterDoubt: true as const } : {}),
            },
          }
        })
        await this.db.syncRuns.update(run.id, { total: position })
      })
      onProgress?.(position, Math.min(start + chunk, wanted.length), wanted.length)
    }
    run.total = position
    return { run, queued: position }
  }

  /**
   * A SKU an update found no longer on the platform at `destination`: forgotten there (as never
   * created: offered for creation again), whether to create it again now or later. False when no
   * update found it gone there (any more).
   */
  async forgetCreated(draftId: string, destination: string): Promise<boolean> {
    const table = storedKind('skus').table(this.db)
    return this.db.transaction('rw', table, async () => {
      const draft = await table.get(draftId)
      if (!draft?.sync[destination]?.update?.gone || isLive(draft.sync)) return false
      await table.put({ ...draft, ...withStanding(draft, destination, undefined) })
      return true
    })
  }

  /** Drafts an update found gone at `destination`, by the index. */
  goneAt(destination: string): Promise<string[]> {
    return storedKind('skus')
      .table(this.db)
      .where('standing')
      .equals(standingTag(destination, 'gone'))
      .primaryKeys()
  }

  get(id: string): Promise<SyncRunRecord | undefined> {
    return this.db.syncRuns.get(id)
  }

  /** Runs not finished, cancelled or stopped: a crash, a closed window, or a pause left them. */
  open(): Promise<SyncRunRecord[]> {
    return this.db.syncRuns.where('state').equals('open').sortBy('createdAt')
  }

  /** The latest runs first. */
  recent(limit = 20): Promise<SyncRunRecord[]> {
    return this.db.syncRuns.orderBy('createdAt').reverse().limit(limit).toArray()
  }

  counts(run: string): Promise<Record<ItemState, number>> {
    return countItems(this.db, run)
  }

  /** Records how a run ended (or paused), for the history. */
  async setState(
    id: string,
    state: SyncRunState,
    details: Partial<Pick<SyncRunRecord, 'lastMessage' | 'lastPause'>> = {},
    now = systemClock.now(),
  ): Promise<void> {
    await this.db.syncRuns.update(id, { state, updatedAt: now, ...details })
  }

  /**
   * After a cancel (once the requests in flight ended): the items still queued leave the run and
   * their drafts go back to draft, a chunk a transaction. Returns how many went back.
   */
  async releaseQueued(id: string, { chunk = ENQUEUE_CHUNK, now = systemClock.now() } = {}): Promise<number> {
    const run = await this.db.syncRuns.get(id)
    if (!run) return 0
    const drafts = storedKind(run.kind).table(this.db)
    let returned = 0
    for (;;) {
      const done = await this.db.transaction('rw', this.db.syncItems, drafts, async () => {
        const items = await itemsInState(this.db, id, 'queued').limit(chunk).toArray()
        await this.db.syncItems.bulkDelete(items.map((item) => [item.run, item.position]))
        // Back to no standing there: a draft queued with "include failed" forgets its failure too,
        // as a cancelled run of today's version always did (the failed item stays in the history).
        await moveStandings(drafts, run, backTo('draft', items), ['queued'])
        return items.length
      })
      returned += done
      if (done < chunk) break
    }
    await this.db.syncRuns.update(id, {
      state: 'cancelled',
      updatedAt: now,
      returned: (run.returned ?? 0) + returned,
    })
    return returned
  }

  /** The drafts of a run's items still queued, in the run's order. */
  /** Names the desk that sends a run (its team workspace name, issue #42), for the history. */
  async sentBy(id: string, desk: string): Promise<void> {
    await this.db.syncRuns.update(id, { sentBy: desk })
  }

  /** A run's items still queued: each draft's id, its place in the run and its label. */
  async queued(id: string): Promise<Array<Pick<SyncItemRecord, 'key' | 'position' | 'label'>>> {
    return (await itemsInState(this.db, id, 'queued').toArray()).map(({ key, position, label }) => ({
      key,
      position,
      label,
    }))
  }

  /**
   * Leaves drafts out of a run before it sends them (another desk's run holds them, issue #42):
   * their items still queued leave the run and the drafts go back to draft, as a cancel returns
   * them. Returns how many left.
   */
  async leaveOut(id: string, keys: readonly string[], now = systemClock.now()): Promise<number> {
    const run = await this.db.syncRuns.get(id)
    if (!run || keys.length === 0) return 0
    const drafts = storedKind(run.kind).table(this.db)
    const wanted = new Set(keys)
    const left = await this.db.transaction('rw', this.db.syncItems, drafts, this.db.syncRuns, async () => {
      const items = (await itemsInState(this.db, id, 'queued').toArray()).filter((item) =>
        wanted.has(item.key),
      )
      await this.db.syncItems.bulkDelete(items.map((item) => [item.run, item.position]))
      await moveStandings(drafts, run, backTo('draft', items), ['queued'])
      await this.db.syncRuns.update(id, { updatedAt: now, returned: (run.returned ?? 0) + items.length })
      return items.length
    })
    return left
  }

  /**
   * The person's decision about a batch that may have been processed (unknown, or failed with a
   * 500): 'created' marks its SKUs synced; 'resend' queues them again in their run (which then
   * opens again) and accepts the risk of duplicates. Items of the batch that moved on are left, and
   * so are items whose draft is no longer in the item's state (a later run took it, or it went back
   * to draft): the draft is that run's now, and this run must not send it or speak for it.
   * Says what moved, and the items queued again as the outbox reads them (the drafts' payloads),
   * for an engine sending the run meanwhile (`SyncRun.decide`).
   */
  async resolve(requestId: string, choice: Resolution, now = systemClock.now()): Promise<Decided> {
    const request = await this.db.syncRequests.get(requestId)
    if (!request) throw new Error('This batch is no longer in the history.')
    const run = await this.db.syncRuns.get(request.runId)
    if (!run) throw new Error('The run of this batch is no longer in the history.')
    const drafts = storedKind(run.kind).table(this.db)
    const next: ItemState = choice === 'created' ? 'synced' : 'queued'
    return this.db.transaction(
      'rw',
      [this.db.syncItems, this.db.syncRequests, this.db.syncRuns, drafts],
      async () => {
        // Decided already (a second press, another window): the first decision stands, unrecorded again.
        if ((await this.db.syncRequests.get(request.id))?.resolution) return { moved: [], requeued: [] }
        const items = await itemsOfKeys(this.db, run.id, request.keys)
        const current = await drafts.bulkGet([...request.keys])
        const payloads = new Map<string, unknown>()
        const decided = items.filter((item, i): item is SyncItemRecord => {
          const chosen =
            item !== undefined &&
            item.requestId === request.id &&
            (item.state === 'unknown' || item.state === 'failed') &&
            standsAt(current[i], run, item)
          if (chosen) payloads.set(item.key, current[i]!.payload)
          return chosen
        })
        const changed = decided.map(({ message: _m, ...item }) => {
          const record: SyncItemRecord = { ...item, state: next }
          if (choice === 'created') record.message = 'Marked as created by you'
          return record
        })
        await this.db.syncItems.bulkPut(changed)
        const moves = backTo(next, changed)
        // Marked created: what it sent stands there, as if the answer had said so (no id is known).
        if (choice === 'created')
          for (const item of changed) {
            const stands = createdStanding(run.kind, item.sent)
            if (stands) moves.get(item.key)!.stands = stands
          }
        await moveStandings(drafts, run, moves, ['unknown', 'failed'], now)
        await this.db.syncRequests.update(request.id, { resolution: { choice, at: now } })
        if (choice === 'resend' && changed.length > 0) {
          await this.db.syncRuns.update(run.id, { state: 'open', updatedAt: now })
        }
        // What the outbox's `queuedAfter` would give for them: a queued draft cannot be edited, so
        // its payload now is what goes out.
        const requeued: OutboxItem[] =
          next === 'queued'
            ? changed
                .map((item) => ({
                  key: item.key,
                  position: item.position,
                  payload: payloads.get(item.key),
                  label: item.label,
                }))
                .sort((a, b) => a.position - b.position)
            : []
        return {
          moved: decided.map((item) => ({ key: item.key, from: item.state, to: next })),
          requeued,
        }
      },
    )
  }

  /**
   * Rejected drafts go back to draft, so they can be fixed and sent by a later run; their items
   * stay in the history as rejected.
   */
  async returnRejected(runId: string, chunk = ENQUEUE_CHUNK): Promise<number> {
    const run = await this.db.syncRuns.get(runId)
    if (!run) return 0
    const drafts = storedKind(run.kind).table(this.db)
    let returned = 0
    let after = -Infinity
    for (;;) {
      const items = await itemsInState(this.db, runId, 'rejected', after).limit(chunk).toArray()
      if (items.length === 0) break
      after = items.at(-1)!.position
      await this.db.transaction('rw', drafts, async () => {
        returned += (await moveStandings(drafts, run, backTo('draft', items), ['rejected'])).length
      })
      if (items.length < chunk) break
    }
    return returned
  }

  /**
   * One draft refused at `destination` (a SKU's, or an app's with `kind` 'apps') offered there
   * again, without an edit (the refusal was the service's mistake, or a rule since changed); false
   * when it is not refused there (any more). An edit does the same by itself.
   */
  async returnToEditing(draftId: string, kind: SyncKind, destination: string): Promise<boolean> {
    const table = storedKind(kind).table(this.db)
    return this.db.transaction('rw', table, async () => {
      const draft = await table.get(draftId)
      if (draft?.sync[destination]?.state !== 'rejected') return false
      await table.put({ ...draft, ...withStanding(draft, destination, undefined) })
      return true
    })
  }

  /** The draft's history: every run that held it, to any destination, latest first. */
  async history(draftId: string): Promise<Array<{ run: SyncRunRecord; item: SyncItemRecord }>> {
    const items = await this.db.syncItems.where('key').equals(draftId).toArray()
    const runs = await this.db.syncRuns.bulkGet(items.map((item) => item.run))
    return items
      .flatMap((item, i) => (runs[i] ? [{ run: runs[i], item }] : []))
      .sort((a, b) => b.run.createdAt - a.run.createdAt)
  }

  /** A run's requests in the order they left, a page at a time. */
  requests(runId: string, offset = 0, limit = 100): Promise<SyncRequestRecord[]> {
    return this.db.syncRequests
      .where('[runId+startedAt]')
      .between([runId, Dexie.minKey], [runId, Dexie.maxKey])
      .offset(offset)
      .limit(limit)
      .toArray()
  }

  requestCount(runId: string): Promise<number> {
    return this.db.syncRequests
      .where('[runId+startedAt]')
      .between([runId, Dexie.minKey], [runId, Dexie.maxKey])
      .count()
  }

  /**
   * The batches of a run a person still has to decide about (unknown or failed, not yet resolved).
   * None for an update run: an update whose outcome is unknown leaves its SKU changed since sent,
   * so the next "Update" sends it again (a PUT sent twice does what it does once).
   */
  async undecided(runId: string): Promise<SyncRequestRecord[]> {
    const run = await this.db.syncRuns.get(runId)
    if (!run || run.action === 'update') return []
    const waiting = new Set<string>()
    for (const state of ['unknown', 'failed'] as const) {
      const items = await itemsInState(this.db, runId, state).toArray()
      // A failed draft a later run took (sent again on request) is that run's business now.
      const drafts = await storedKind(run.kind)
        .table(this.db)
        .bulkGet(items.map((item) => item.key))
      items.forEach((item, i) => {
        if (item.requestId && standsAt(drafts[i], run, item)) waiting.add(item.requestId)
      })
    }
    const requests = await this.db.syncRequests.bulkGet([...waiting])
    return requests
      .filter((request): request is SyncRequestRecord => request !== undefined)
      .sort((a, b) => a.startedAt - b.startedAt)
  }

  /** The drafts' current states of a request's SKUs, for the batch details. */
  async itemsOf(request: SyncRequestRecord): Promise<Array<SyncItemRecord | undefined>> {
    return itemsOfKeys(this.db, request.runId, request.keys)
  }
}
