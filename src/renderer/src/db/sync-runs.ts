import { Dexie } from 'dexie'
import type { ItemState, SyncKind } from '#shared/sync/ports.ts'
import type { SyncState } from '#shared/sync-state.ts'
import type { CatalogDatabase } from './database.ts'
import { walkIndex, type Anchor } from './index-walk.ts'
import { storedKind, type DraftRow } from './draft-kinds.ts'
import { countItems, itemsInState, itemsOfKeys, mirrorDrafts } from './sync-outbox.ts'
import type { SyncItemRecord, SyncRequestRecord, SyncRunRecord, SyncRunState } from './sync-records.ts'

/**
 * Drafts read and queued a transaction at a time: each chunk commits on its own, so the list and
 * the page stay responsive while 100,000 drafts are queued, and progress has something to count.
 */
export const ENQUEUE_CHUNK = 1_000

/** What a run would take and what it would leave out, and why (the pre-flight summary). */
export interface Preflight {
  /** Drafts in the draft state that pass validation (warnings allowed): what a run sends. */
  ready: number
  /** Drafts in the draft state with errors: left out until they are fixed. */
  invalid: number
  /** Sent before and created: left out. */
  synced: number
  /** Sent before with no answer that says whether they were created: a person decides first. */
  unknown: number
  /** A server error after sending (they may have been created): sent again only when asked. */
  failed: number
  /** Refused by the service: left out until they are edited. */
  rejected: number
  /** Queued or being sent by a run that has not ended. */
  inRun: number
}

export interface RunTarget {
  id: string
  name: string
  url: string
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
  now?: number
  /** After each chunk: drafts queued so far, drafts read, and how many there are to read. */
  onProgress?(queued: number, read: number, total: number): void
  chunk?: number
}

export interface Enqueued {
  run: SyncRunRecord
  queued: number
}

/** Whether a draft may join a new run. */
function eligible(draft: Pick<DraftRow, 'validity' | 'syncState'>, includeFailed: boolean): boolean {
  if (draft.validity === 'invalid') return false
  return draft.syncState === 'draft' || (includeFailed && draft.syncState === 'failed')
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

  /** Counts on the indexes; reads no payloads except those of invalid drafts (there are few). */
  async preflight(kind: SyncKind): Promise<Preflight> {
    const stored = storedKind(kind)
    const table = stored.table(this.db)
    const inState = (state: SyncState) => table.where('syncState').equals(state).count()
    const [drafts, invalid, synced, unknown, failed, rejected, queued, sending] = await Promise.all([
      inState('draft'),
      stored.countInvalidUnsent(this.db),
      inState('synced'),
      inState('unknown'),
      inState('failed'),
      inState('rejected'),
      inState('queued'),
      inState('sending'),
    ])
    return { ready: drafts - invalid, invalid, synced, unknown, failed, rejected, inRun: queued + sending }
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
      now = Date.now(),
      onProgress,
      chunk = ENQUEUE_CHUNK,
    }: EnqueueOptions,
  ): Promise<Enqueued> {
    await this.db.open()
    const stored = storedKind(kind)
    const { definition } = stored
    const drafts = stored.table(this.db)
    const run: SyncRunRecord = {
      id,
      kind,
      profileId: target.id,
      profileName: target.name,
      url: target.url,
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
          (draft): draft is DraftRow => draft !== undefined && eligible(draft, includeFailed),
        )
        if (queued.length === 0) return
        if (position === 0) await this.db.syncRuns.add(run)
        const items: SyncItemRecord[] = queued.map((draft) => ({
          run: run.id,
          position: position++,
          key: draft.id,
          label: definition.label(draft.payload, draft.id),
          state: 'queued',
        }))
        await this.db.syncItems.bulkAdd(items)
        await drafts.bulkPut(queued.map((draft) => ({ ...draft, syncState: 'queued' as const })))
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
    now = Date.now(),
  ): Promise<void> {
    await this.db.syncRuns.update(id, { state, updatedAt: now, ...details })
  }

  /**
   * After a cancel (once the requests in flight ended): the items still queued leave the run and
   * their drafts go back to draft, a chunk a transaction. Returns how many went back.
   */
  async releaseQueued(id: string, { chunk = ENQUEUE_CHUNK, now = Date.now() } = {}): Promise<number> {
    const run = await this.db.syncRuns.get(id)
    if (!run) return 0
    const drafts = storedKind(run.kind).table(this.db)
    let returned = 0
    for (;;) {
      const done = await this.db.transaction('rw', this.db.syncItems, drafts, async () => {
        const items = await itemsInState(this.db, id, 'queued').limit(chunk).toArray()
        await this.db.syncItems.bulkDelete(items.map((item) => [item.run, item.position]))
        await mirrorDrafts(drafts, new Map(items.map((item) => [item.key, 'draft'])), ['queued'])
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

  /**
   * The person's decision about a batch that may have been processed (unknown, or failed with a
   * 500): 'created' marks its SKUs synced; 'resend' queues them again in their run (which then
   * opens again) and accepts the risk of duplicates. Items of the batch that moved on are left, and
   * so are items whose draft is no longer in the item's state (a later run took it, or it went back
   * to draft): the draft is that run's now, and this run must not send it or speak for it.
   */
  async resolve(requestId: string, choice: Resolution, now = Date.now()): Promise<number> {
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
        const items = await itemsOfKeys(this.db, run.id, request.keys)
        const current = await drafts.bulkGet([...request.keys])
        const decided = items.filter(
          (item, i): item is SyncItemRecord =>
            item !== undefined &&
            item.requestId === request.id &&
            (item.state === 'unknown' || item.state === 'failed') &&
            current[i]?.syncState === item.state,
        )
        const changed = decided.map(({ message: _m, ...item }) => {
          const record: SyncItemRecord = { ...item, state: next }
          if (choice === 'created') record.message = 'Marked as created by you'
          return record
        })
        await this.db.syncItems.bulkPut(changed)
        await mirrorDrafts(drafts, new Map(changed.map((item) => [item.key, next])), ['unknown', 'failed'])
        await this.db.syncRequests.update(request.id, { resolution: { choice, at: now } })
        if (choice === 'resend' && changed.length > 0) {
          await this.db.syncRuns.update(run.id, { state: 'open', updatedAt: now })
        }
        return changed.length
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
        const keys = items.map((item) => item.key)
        const before = (await drafts.bulkGet(keys)).filter((draft) => draft?.syncState === 'rejected').length
        await mirrorDrafts(drafts, new Map(keys.map((key) => [key, 'draft'])), ['rejected'])
        returned += before
      })
      if (items.length < chunk) break
    }
    return returned
  }

  /**
   * One refused draft (a SKU's, or an app's with `kind` 'apps') back to draft, so it can be fixed;
   * false when it is not refused (any more).
   */
  async returnToEditing(draftId: string, kind: SyncKind = 'skus'): Promise<boolean> {
    const table = storedKind(kind).table(this.db)
    return this.db.transaction('rw', table, async () => {
      const draft = await table.get(draftId)
      if (draft?.syncState !== 'rejected') return false
      await table.put({ ...draft, syncState: 'draft' })
      return true
    })
  }

  /** Why the service refused or left unclear a draft: the message of its latest run's item. */
  async latestMessage(draftId: string): Promise<string | undefined> {
    const items = await this.db.syncItems.where('key').equals(draftId).toArray()
    if (items.length === 0) return undefined
    const runs = await this.db.syncRuns.bulkGet(items.map((item) => item.run))
    let latest: { at: number; message?: string } | undefined
    items.forEach((item, i) => {
      const at = runs[i]?.createdAt ?? 0
      if (!latest || at > latest.at) latest = { at, message: item.message }
    })
    return latest?.message
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

  /** The batches of a run a person still has to decide about (unknown or failed, not yet resolved). */
  async undecided(runId: string): Promise<SyncRequestRecord[]> {
    const run = await this.db.syncRuns.get(runId)
    if (!run) return []
    const waiting = new Set<string>()
    for (const state of ['unknown', 'failed'] as const) {
      const items = await itemsInState(this.db, runId, state).toArray()
      // A failed draft a later run took (sent again on request) is that run's business now.
      const drafts = await storedKind(run.kind)
        .table(this.db)
        .bulkGet(items.map((item) => item.key))
      items.forEach((item, i) => {
        if (item.requestId && drafts[i]?.syncState === state) waiting.add(item.requestId)
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
