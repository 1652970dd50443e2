import {
  noItems,
  OutboxConflictError,
  type Decided,
  type DecidedMove,
  type ItemState,
  type ItemUpdate,
  type OutboxItem,
  type RequestRecord,
  type SyncOutbox,
} from '#shared/sync/ports.ts'

/**
 * A SyncOutbox in memory, for tests only: the outbox of the engine's tests, and with the Dexie
 * outbox and the CLI's journal one of the three the outbox contract runs against
 * (outbox-contract.ts). It is strict where the engine must be: a request that names an item not
 * `queued` is refused, so an engine that would send an item twice fails loudly instead of passing
 * a test.
 */

export interface StoredItem extends OutboxItem {
  state: ItemState
  message?: string
  remoteId?: string
  response?: unknown
}

export interface MemoryOutbox extends SyncOutbox {
  /** An item as stored now (a copy). */
  get(key: string): StoredItem | undefined
  /** Every item, in position order (copies). */
  items(): StoredItem[]
  /** Every request recorded, in the order they began (copies). */
  requests(): RequestRecord[]
  /**
   * A person's decision, as the app's run repository makes it: those of `keys` that are unknown or
   * failed become synced ('created') or queued to be sent again ('resend'); the rest are left.
   * Hand it to `SyncRun.decide` while the run goes on.
   */
  decide(keys: readonly string[], choice: 'created' | 'resend'): Promise<Decided>
}

type Seed = OutboxItem & { state?: ItemState; message?: string }

export function createMemoryOutbox(seed: readonly Seed[]): MemoryOutbox {
  const sorted: StoredItem[] = seed
    .map((item) => ({ ...item, state: item.state ?? 'queued' }))
    .sort((a, b) => a.position - b.position)
  const byKey = new Map(sorted.map((item) => [item.key, item]))
  if (byKey.size !== sorted.length) throw new Error('Outbox keys must be unique')
  const requests = new Map<string, RequestRecord>()

  /** The first index whose position is above `after` (binary search: reads stay cheap at 100,000 items). */
  function firstAbove(after: number): number {
    let low = 0
    let high = sorted.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (sorted[middle]!.position > after) high = middle
      else low = middle + 1
    }
    return low
  }

  function itemOf(key: string): StoredItem {
    const item = byKey.get(key)
    if (!item) throw new OutboxConflictError(`No item ${key} in the outbox`)
    return item
  }

  const copy = (item: StoredItem): StoredItem => ({ ...item })

  return {
    async queuedAfter(after, limit) {
      const found: OutboxItem[] = []
      for (let index = firstAbove(after); index < sorted.length && found.length < limit; index++) {
        const item = sorted[index]!
        if (item.state === 'queued')
          found.push({ key: item.key, position: item.position, payload: item.payload, label: item.label })
      }
      return found
    },

    async beginRequest(request) {
      if (requests.has(request.id))
        throw new OutboxConflictError(`Request ${request.id} was already recorded`)
      // All or nothing, as one transaction: check every item before changing any.
      const items = request.keys.map(itemOf)
      const notQueued = items.find((item) => item.state !== 'queued')
      if (notQueued) {
        throw new OutboxConflictError(
          `Item ${notQueued.key} is ${notQueued.state}, not queued: it cannot be sent`,
        )
      }
      for (const item of items) item.state = 'sending'
      requests.set(request.id, structuredClone(request))
    },

    async endRequest(request, updates: readonly ItemUpdate[]) {
      if (!requests.has(request.id)) throw new OutboxConflictError(`Request ${request.id} never began`)
      const items = updates.map((update) => itemOf(update.key))
      const stray = items.find((item) => item.state !== 'sending' || !request.keys.includes(item.key))
      if (stray) throw new OutboxConflictError(`Item ${stray.key} is not sending in request ${request.id}`)
      updates.forEach((update, index) => {
        const item = items[index]!
        item.state = update.state
        if (update.message === undefined) delete item.message
        else item.message = update.message
        if (update.remoteId !== undefined) item.remoteId = update.remoteId
        if (update.response !== undefined) item.response = update.response
      })
      requests.set(request.id, structuredClone(request))
    },

    async recoverInterrupted(message) {
      let changed = 0
      for (const item of sorted) {
        if (item.state !== 'sending') continue
        item.state = 'unknown'
        item.message = message
        changed += 1
      }
      for (const [id, request] of requests) {
        if (request.endedAt !== undefined) continue
        requests.set(id, {
          ...request,
          endedAt: Date.now(),
          outcome: { kind: 'unknown', processed: 'maybe', message, durationMs: 0, action: 'interrupted' },
        })
      }
      return changed
    },

    async counts() {
      const counts = noItems()
      for (const item of sorted) counts[item.state] += 1
      return counts
    },

    async decide(keys, choice) {
      const to = choice === 'created' ? 'synced' : 'queued'
      const moved: DecidedMove[] = []
      const requeued: OutboxItem[] = []
      for (const key of keys) {
        const item = byKey.get(key)
        if (item?.state !== 'unknown' && item?.state !== 'failed') continue
        moved.push({ key, from: item.state, to })
        item.state = to
        if (to === 'synced') item.message = 'Marked as created by you'
        else {
          delete item.message
          requeued.push({ key, position: item.position, payload: item.payload, label: item.label })
        }
      }
      requeued.sort((a, b) => a.position - b.position)
      return { moved, requeued }
    },

    get: (key) => {
      const item = byKey.get(key)
      return item && copy(item)
    },
    items: () => sorted.map(copy),
    requests: () => [...requests.values()].map((request) => structuredClone(request)),
  }
}
