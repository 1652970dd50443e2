import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { skuGaps } from '#shared/sync/send-gates.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox, DRAFT_GONE_MESSAGE, DRAFT_LEFT_MESSAGE } from '#renderer/db/sync-outbox.ts'
import { SyncRunRepository, type RunTarget } from '#renderer/db/sync-runs.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { OutboxConflictError } from '#shared/sync/ports.ts'
import type { RequestRecord } from '#shared/sync/ports.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { standingTag, stateAt } from '#shared/sync/standing.ts'
import { clearStanding, setStanding } from './standings.ts'

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let runs: SyncRunRepository

const target: RunTarget = {
  id: 'sandbox',
  name: 'Sandbox',
  url: 'http://127.0.0.1:1',
  destination: EMBEDDED_SANDBOX_DESTINATION,
  batchSize: 2,
  concurrency: 1,
}
/** Where the runs of these tests send: the drafts' states are read there. */
const DEST = target.destination

beforeEach(() => {
  name = `catalog-desk-sync-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  runs = new SyncRunRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

function sku(barcode: string, extra: Partial<Sku> = {}): Sku {
  return { ...structuredClone(full), barcode, productName: `Frame ${barcode}`, ...extra } as Sku
}

/** Drafts with barcodes b0…b(n-1); b0 is the latest edit. Every `ties` share one edit time. */
async function seed(n: number, { ties = 1 } = {}) {
  const ids: string[] = []
  for (let i = 0; i < n; i++)
    ids.push((await drafts.create(sku(`b${i}`), 1_000_000 - Math.floor(i / ties))).id)
  return ids
}

/** The drafts' states at the runs' destination. */
async function states(ids: readonly string[]) {
  return (await db.skuDrafts.bulkGet([...ids])).map((draft) => draft && stateAt(draft.sync, DEST))
}

function request(runId: string, keys: string[], id = `${runId}/r/${keys.join(',')}`): RequestRecord {
  return { id, runId, kind: 'skus', keys, bytes: 100, startedAt: Date.now() }
}

describe('pre-flight and queueing', () => {
  it('a run cut short while it is being queued says how many it holds', async () => {
    await seed(5)
    const stop = new Error('the window closed')
    await expect(
      runs.enqueue('skus', {
        target,
        chunk: 2,
        onProgress: () => {
          throw stop
        },
      }),
    ).rejects.toBe(stop)
    const [run] = await db.syncRuns.toArray()
    expect(run).toMatchObject({ state: 'open', total: 2 })
    expect(await db.syncItems.count()).toBe(2)
  })

  it('counts what a run would take and leave out, and queues valid drafts in the list order', async () => {
    const ids = await seed(5)
    const invalid = await drafts.create(sku('bad', { isActive: 'yes' } as unknown as Sku), 2_000_000)
    // A draft with missing fields is sendable (the contract does not say which fields are required).
    const partial = await drafts.create({ barcode: 'partial', productName: 'Partial' } as Sku, 500)
    await setStanding(db.skuDrafts, ids[1]!, 'synced', DEST)
    await setStanding(db.skuDrafts, ids[2]!, 'unknown', DEST)
    await setStanding(db.skuDrafts, ids[3]!, 'failed', DEST)

    expect(partial.validity).toBe('warnings')
    expect(await runs.preflight('skus', DEST)).toEqual({
      ready: 3,
      invalid: 1,
      synced: 1,
      unknown: 1,
      failed: 1,
      rejected: 0,
      inRun: 0,
    })

    const { run, queued } = await runs.enqueue('skus', { target, now: 5 })
    expect(queued).toBe(3)
    const items = await db.syncItems.where('[run+position]').between([run.id, 0], [run.id, 99]).toArray()
    expect(items.map((item) => [item.position, item.label, item.state])).toEqual([
      [0, 'b0', 'queued'],
      [1, 'b4', 'queued'],
      [2, 'partial', 'queued'],
    ])
    expect(await states([ids[0]!, ids[4]!, partial.id])).toEqual(['queued', 'queued', 'queued'])
    expect(await states([invalid.id, ids[1]!, ids[2]!, ids[3]!])).toEqual([
      'draft',
      'synced',
      'unknown',
      'failed',
    ])
    expect(await runs.get(run.id)).toMatchObject({
      state: 'open',
      total: 3,
      profileId: 'sandbox',
      destination: DEST,
      batchSize: 2,
    })
    // The standing of a queued draft names its item.
    expect((await db.skuDrafts.get(ids[4]!))!.sync[DEST]).toMatchObject({ run: run.id, position: 1, at: 5 })
    expect((await runs.preflight('skus', DEST)).inRun).toBe(3)
    // A queued draft can no longer be edited; a synced one can, and stays synced there.
    await expect(saveDraftPayload(db, 'skus', ids[0]!, sku('changed'))).rejects.toThrow(
      /is being sent; edit it once its run has ended/,
    )
    expect((await db.skuDrafts.get(ids[0]!))!.barcode).toBe('b0')
    await saveDraftPayload(db, 'skus', ids[1]!, sku('changed'))
    expect(await states([ids[1]!])).toEqual(['synced'])
  })

  it('queues failed drafts only when asked', async () => {
    const ids = await seed(3)
    await setStanding(db.skuDrafts, ids[1]!, 'failed', DEST)
    expect((await runs.enqueue('skus', { target, ids: [ids[1]!] })).queued).toBe(0)
    const { queued } = await runs.enqueue('skus', { target, includeFailed: true })
    expect(queued).toBe(3)
    expect(await states(ids)).toEqual(['queued', 'queued', 'queued'])
  })

  it('stores no run when nothing is eligible, and the run under the id it was given otherwise', async () => {
    const ids = await seed(3, { ties: 1 })
    for (const id of ids) await setStanding(db.skuDrafts, id, 'synced', DEST)
    const none = await runs.enqueue('skus', { target, id: 'empty', chunk: 2 })
    expect(none.queued).toBe(0)
    expect(await db.syncRuns.count()).toBe(0)
    expect(await runs.open()).toEqual([])

    await clearStanding(db.skuDrafts, ids[2]!, DEST)
    const one = await runs.enqueue('skus', { target, id: 'named', chunk: 2 })
    expect(one).toMatchObject({ queued: 1, run: { id: 'named', total: 1 } })
    expect((await runs.open()).map((run) => [run.id, run.total])).toEqual([['named', 1]])
  })

  it('walks the drafts a chunk a transaction, ties of edit time included, each draft once', async () => {
    const ids = await seed(23, { ties: 4 })
    const progress: number[] = []
    const { run, queued } = await runs.enqueue('skus', {
      target,
      chunk: 5,
      onProgress: (done, read, total) => progress.push(done, read, total),
    })
    expect(queued).toBe(23)
    const keys = (
      await db.syncItems.where('[run+position]').between([run.id, 0], [run.id, 99]).toArray()
    ).map((item) => item.key)
    expect(new Set(keys).size).toBe(23)
    expect(new Set(keys)).toEqual(new Set(ids))
    // Latest edit first: b0..b3 share the latest time.
    const first = (await db.syncItems.get([run.id, 0]))!.label
    expect(['b0', 'b1', 'b2', 'b3']).toContain(first)
    expect(progress.slice(0, 3)).toEqual([5, 5, 23])
    expect(progress.slice(-3)).toEqual([23, 23, 23])
  })
})

describe('the outbox the engine uses', () => {
  it('streams queued items after a position with their payloads, and mirrors every state on the drafts', async () => {
    const ids = await seed(5)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const first = await outbox.queuedAfter(-Infinity, 2)
    expect(first.map((item) => [item.position, item.label])).toEqual([
      [0, 'b0'],
      [1, 'b1'],
    ])
    expect(first[0]!.payload).toMatchObject({ barcode: 'b0', productName: 'Frame b0' })
    expect((await outbox.queuedAfter(1, 10)).map((item) => item.label)).toEqual(['b2', 'b3', 'b4'])

    const sent = request(run.id, [ids[0]!, ids[1]!])
    await outbox.beginRequest(sent)
    expect(await states(ids)).toEqual(['sending', 'sending', 'queued', 'queued', 'queued'])
    expect((await outbox.counts()).sending).toBe(2)
    // Items sending are not queued any more: the next read does not see them.
    expect((await outbox.queuedAfter(-Infinity, 10)).map((item) => item.label)).toEqual(['b2', 'b3', 'b4'])

    await outbox.endRequest(
      {
        ...sent,
        endedAt: sent.startedAt + 5,
        outcome: { kind: 'created', processed: 'yes', message: 'ok', durationMs: 5, action: 'synced' },
      },
      [
        { key: ids[0]!, state: 'synced' },
        { key: ids[1]!, state: 'rejected', message: 'barcode: taken' },
      ],
    )
    expect(await states(ids)).toEqual(['synced', 'rejected', 'queued', 'queued', 'queued'])
    expect(await outbox.counts()).toEqual({
      queued: 3,
      sending: 0,
      synced: 1,
      rejected: 1,
      failed: 0,
      unknown: 0,
    })
    const stored = await db.syncRequests.get(sent.id)
    expect(stored).toMatchObject({
      labels: ['b0', 'b1'],
      endedAt: sent.startedAt + 5,
      outcome: { kind: 'created' },
    })
    expect((await db.syncItems.get([run.id, 1]))!.message).toBe('barcode: taken')
  })

  it('recovers a run interrupted between beginRequest and endRequest: sending becomes unknown, nothing is sent twice', async () => {
    const ids = await seed(4)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const items = await outbox.queuedAfter(-Infinity, 2)
    await outbox.beginRequest(
      request(
        run.id,
        items.map((item) => item.key),
        'req-1',
      ),
    )
    // The window closes here: the answer never comes, endRequest never runs.
    db.close()

    const reopened = new CatalogDatabase(name)
    const after = new DexieSyncOutbox(reopened, run)
    const openRuns = await new SyncRunRepository(reopened).open()
    expect(openRuns.map((r) => r.id)).toEqual([run.id])
    expect(await after.recoverInterrupted('The app stopped while sending.')).toBe(2)
    expect((await reopened.skuDrafts.bulkGet(ids)).map((draft) => stateAt(draft?.sync, DEST))).toEqual([
      'unknown',
      'unknown',
      'queued',
      'queued',
    ])
    expect(await after.counts()).toMatchObject({ queued: 2, sending: 0, unknown: 2 })
    const closed = await reopened.syncRequests.get('req-1')
    expect(closed?.endedAt).toBeTypeOf('number')
    expect(closed?.outcome).toMatchObject({
      kind: 'unknown',
      processed: 'maybe',
      message: 'The app stopped while sending.',
    })
    // Only what provably was not sent is read again; a second recovery changes nothing.
    expect((await after.queuedAfter(-Infinity, 10)).map((item) => item.label)).toEqual(['b2', 'b3'])
    expect(await after.recoverInterrupted('again')).toBe(0)
    reopened.close()
    db = new CatalogDatabase(name)
  })
})

describe('the outbox is as strict as the reference outbox', () => {
  it('never returns a short page while items are queued: an item whose draft is gone fails, the read goes on', async () => {
    const ids = await seed(6)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    // Changed by hand: three queued drafts are gone.
    await db.skuDrafts.bulkDelete([ids[0]!, ids[1]!, ids[3]!])
    const page = await outbox.queuedAfter(-Infinity, 2)
    expect(page.map((item) => item.label)).toEqual(['b2', 'b4'])
    for (const position of [0, 1, 3])
      expect(await db.syncItems.get([run.id, position])).toMatchObject({
        state: 'failed',
        message: DRAFT_GONE_MESSAGE,
      })
    expect((await outbox.queuedAfter(4, 2)).map((item) => item.label)).toEqual(['b5'])
    expect(await outbox.counts()).toMatchObject({ queued: 3, failed: 3 })

    // Every draft gone: the page is empty, and nothing is left queued.
    await db.skuDrafts.bulkDelete([ids[2]!, ids[4]!, ids[5]!])
    expect(await outbox.queuedAfter(-Infinity, 2)).toEqual([])
    expect(await outbox.counts()).toMatchObject({ queued: 0, failed: 6 })
  })

  it('an item whose draft left the run (back to editing, or to another run) is not handed out', async () => {
    const ids = await seed(3)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    await clearStanding(db.skuDrafts, ids[0]!, DEST)
    expect((await outbox.queuedAfter(-Infinity, 2)).map((item) => item.label)).toEqual(['b1', 'b2'])
    expect(await db.syncItems.get([run.id, 0])).toMatchObject({
      state: 'failed',
      message: DRAFT_LEFT_MESSAGE,
    })
    // The draft itself is left as it is: it belongs to whoever took it.
    expect(await states([ids[0]!])).toEqual(['draft'])
  })

  it('beginRequest refuses, writing nothing, an item missing, not queued, or whose draft is not queued', async () => {
    const ids = await seed(4)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const untouched = async () => {
      expect(await states(ids)).toEqual(['queued', 'queued', 'queued', 'queued'])
      expect(await outbox.counts()).toMatchObject({ queued: 4, sending: 0 })
      expect(await db.syncRequests.count()).toBe(0)
    }
    await expect(outbox.beginRequest(request(run.id, [ids[0]!, 'nope']))).rejects.toBeInstanceOf(
      OutboxConflictError,
    )
    await untouched()

    const queuedOne = (await db.skuDrafts.get(ids[1]!))!
    await clearStanding(db.skuDrafts, ids[1]!, DEST)
    await expect(outbox.beginRequest(request(run.id, [ids[0]!, ids[1]!]))).rejects.toThrow(
      /draft of item .* is not queued in this run/,
    )
    // Queued at the same place by another run is not this run's either.
    await setStanding(db.skuDrafts, ids[1]!, 'queued', DEST, { run: 'another', position: 1 })
    await expect(outbox.beginRequest(request(run.id, [ids[1]!]))).rejects.toThrow(
      /draft of item .* is not queued in this run/,
    )
    await db.skuDrafts.put(queuedOne)
    await untouched()

    const kept = (await db.skuDrafts.get(ids[2]!))!
    await db.skuDrafts.delete(ids[2]!)
    await expect(outbox.beginRequest(request(run.id, [ids[2]!]))).rejects.toThrow(/draft of item .* is gone/)
    await db.skuDrafts.put(kept)
    await untouched()

    const sent = request(run.id, [ids[0]!], 'first')
    await outbox.beginRequest(sent)
    // The item is sending now: a second request with it is refused, as is the same request again.
    await expect(outbox.beginRequest(request(run.id, [ids[0]!], 'second'))).rejects.toThrow(
      /is sending, not queued/,
    )
    await expect(outbox.beginRequest(request(run.id, [ids[3]!], 'first'))).rejects.toThrow(/already recorded/)
    expect(await states(ids)).toEqual(['sending', 'queued', 'queued', 'queued'])
    expect((await db.syncRequests.toArray()).map((r) => r.id)).toEqual(['first'])
  })

  it('endRequest refuses a request that never began and an item it is not sending, writing nothing', async () => {
    const ids = await seed(3)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    await expect(
      outbox.endRequest(request(run.id, [ids[0]!], 'never'), [{ key: ids[0]!, state: 'synced' }]),
    ).rejects.toBeInstanceOf(OutboxConflictError)
    const sent = request(run.id, [ids[0]!], 'a')
    await outbox.beginRequest(sent)
    await expect(
      outbox.endRequest(sent, [
        { key: ids[0]!, state: 'synced' },
        { key: ids[1]!, state: 'synced' },
      ]),
    ).rejects.toThrow(/not sending in request a/)
    await expect(outbox.endRequest(sent, [{ key: 'nope', state: 'synced' }])).rejects.toThrow(/not sending/)
    expect(await states(ids)).toEqual(['sending', 'queued', 'queued'])
    await outbox.endRequest(sent, [{ key: ids[0]!, state: 'synced' }])
    expect(await states(ids)).toEqual(['synced', 'queued', 'queued'])
  })
})

describe('ending runs and the person’s decisions', () => {
  it('a cancel sends queued drafts back to draft, a chunk at a time', async () => {
    const ids = await seed(7)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const sent = request(run.id, [ids[0]!])
    await outbox.beginRequest(sent)
    await outbox.endRequest(sent, [{ key: ids[0]!, state: 'synced' }])
    expect(await runs.releaseQueued(run.id, { chunk: 2 })).toBe(6)
    expect(await states(ids)).toEqual(['synced', 'draft', 'draft', 'draft', 'draft', 'draft', 'draft'])
    expect(await runs.get(run.id)).toMatchObject({ state: 'cancelled', returned: 6 })
    expect(await outbox.counts()).toMatchObject({ queued: 0, synced: 1 })
    expect(await runs.open()).toEqual([])
  })

  it('drafts another desk’s run holds leave the run before it sends, back to draft; the rest stay queued', async () => {
    const ids = await seed(4)
    const { run } = await runs.enqueue('skus', { target })
    const queued = (await runs.queued(run.id)).map((item) => item.key)
    expect([...queued].sort()).toEqual([...ids].sort())
    expect(await runs.leaveOut(run.id, [ids[1]!, ids[3]!, 'not-in-the-run'])).toBe(2)
    expect(await states(ids)).toEqual(['queued', 'draft', 'queued', 'draft'])
    expect((await runs.queued(run.id)).map((item) => item.key).sort()).toEqual([ids[0]!, ids[2]!].sort())
    expect(await runs.get(run.id)).toMatchObject({ state: 'open', returned: 2 })
  })

  it('an unknown batch can be marked created, or queued again in its run', async () => {
    const ids = await seed(4)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const a = request(run.id, [ids[0]!, ids[1]!], 'a')
    const b = request(run.id, [ids[2]!, ids[3]!], 'b')
    for (const r of [a, b]) await outbox.beginRequest(r)
    await outbox.endRequest(a, [
      { key: ids[0]!, state: 'unknown', message: '502' },
      { key: ids[1]!, state: 'unknown', message: '502' },
    ])
    await outbox.endRequest(b, [
      { key: ids[2]!, state: 'failed', message: '500' },
      { key: ids[3]!, state: 'failed', message: '500' },
    ])
    await runs.setState(run.id, 'finished')
    expect((await runs.undecided(run.id)).map((r) => r.id)).toEqual(['a', 'b'])

    expect(await runs.resolve('a', 'created')).toEqual({
      moved: [
        { key: ids[0], from: 'unknown', to: 'synced' },
        { key: ids[1], from: 'unknown', to: 'synced' },
      ],
      requeued: [],
    })
    expect(await states(ids)).toEqual(['synced', 'synced', 'failed', 'failed'])
    // Queued again: what a running engine needs to send them, as its outbox would read them.
    const resent = await runs.resolve('b', 'resend')
    expect(resent.moved).toEqual([
      { key: ids[2], from: 'failed', to: 'queued' },
      { key: ids[3], from: 'failed', to: 'queued' },
    ])
    expect(resent.requeued).toEqual(await outbox.queuedAfter(-Infinity, 10))
    expect(resent.requeued.map((item) => [item.label, item.position])).toEqual([
      ['b2', 2],
      ['b3', 3],
    ])
    expect(await states(ids)).toEqual(['synced', 'synced', 'queued', 'queued'])
    expect(await runs.get(run.id)).toMatchObject({ state: 'open' })
    expect((await db.syncRequests.get('a'))?.resolution?.choice).toBe('created')
    expect(await runs.undecided(run.id)).toEqual([])
    expect((await outbox.queuedAfter(-Infinity, 10)).map((item) => item.label)).toEqual(['b2', 'b3'])
    // Deciding twice changes nothing more.
    expect((await runs.resolve('a', 'resend')).moved).toHaveLength(0)
  })

  it('rejected drafts can go back to editing, and stay rejected in the history', async () => {
    const ids = await seed(2)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const r = request(run.id, ids)
    await outbox.beginRequest(r)
    await outbox.endRequest(r, [
      { key: ids[0]!, state: 'rejected', message: 'no' },
      { key: ids[1]!, state: 'synced' },
    ])
    expect(await runs.returnRejected(run.id)).toBe(1)
    expect(await states(ids)).toEqual(['draft', 'synced'])
    expect((await outbox.counts()).rejected).toBe(1)
  })

  it('an old run does not pull back a draft a later run has taken', async () => {
    const ids = await seed(1)
    const first = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, first.run)
    const r = request(first.run.id, ids, 'old')
    await outbox.beginRequest(r)
    await outbox.endRequest(r, [{ key: ids[0]!, state: 'failed', message: '500' }])
    expect((await runs.undecided(first.run.id)).map((r) => r.id)).toEqual(['old'])
    const second = await runs.enqueue('skus', { target, includeFailed: true })
    expect(second.queued).toBe(1)
    // Sent again by the new run: the old batch no longer waits for a decision.
    expect(await runs.undecided(first.run.id)).toEqual([])
    // The old batch is decided afterwards: the draft is the new run's now, so neither it nor the
    // old item changes (the old run must not speak for, or send, a draft it no longer holds).
    expect((await runs.resolve('old', 'created')).moved).toHaveLength(0)
    expect((await runs.resolve('old', 'resend')).moved).toHaveLength(0)
    expect(await states(ids)).toEqual(['queued'])
    expect(await db.syncItems.get([first.run.id, 0])).toMatchObject({ state: 'failed', message: '500' })
    expect(await runs.get(first.run.id)).toMatchObject({ state: 'open' })
    expect(await new DexieSyncOutbox(db, first.run).queuedAfter(-Infinity, 10)).toEqual([])
  })

  it('resolves only the items whose draft is still in the item’s state', async () => {
    const ids = await seed(2)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const r = request(run.id, ids, 'both')
    await outbox.beginRequest(r)
    await outbox.endRequest(r, [
      { key: ids[0]!, state: 'unknown', message: '502' },
      { key: ids[1]!, state: 'unknown', message: '502' },
    ])
    // b1's draft was taken back to draft by hand (or by another window) since.
    await clearStanding(db.skuDrafts, ids[1]!, DEST)
    expect((await runs.resolve('both', 'resend')).moved).toHaveLength(1)
    expect(await states(ids)).toEqual(['queued', 'draft'])
    expect((await db.syncItems.get([run.id, 1]))!.state).toBe('unknown')
    expect((await outbox.queuedAfter(-Infinity, 10)).map((item) => item.label)).toEqual(['b0'])
  })
})

describe('schema version 4', () => {
  it('upgrades a version 3 database: drafts and their indexes kept (as versions 5 and 6 have them), the sync tables added empty', async () => {
    db.close()
    await Dexie.delete(name)
    const v3 = new Dexie(name)
    v3.version(1).stores({
      skuDrafts: 'id, updatedAt, productName, brand, barcode, category, status, validity, syncState',
      appDrafts: 'id, updatedAt, name, syncState',
    })
    v3.version(2).stores({
      skuDrafts:
        'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, syncState, *terms',
    })
    v3.version(3).stores({ skuUndo: '[batch+id], batch' })
    await v3.open()
    const indexesBefore = v3.table('skuDrafts').schema.indexes.map((index) => index.name)
    const old = { id: 'old-3', payload: sku('old'), syncState: 'draft', updatedAt: 7, terms: ['old'] }
    await v3.table('skuDrafts').add(old)
    v3.close()

    db = new CatalogDatabase(name)
    await db.open()
    expect(db.verno).toBe(14)
    // Carried on through version 5: a draft never sent stands nowhere; version 6 adds its gaps.
    const { syncState: _state, ...kept } = old
    expect(await db.skuDrafts.get('old-3')).toEqual({
      ...kept,
      sync: {},
      standing: [],
      gaps: skuGaps(old.payload),
      // Written again, and so marked as waiting to be shared should a workspace be joined (v14).
      teamWaiting: 1,
    })
    // Every index kept, but the one state: version 5 reads the standings instead, version 6 adds
    // the gaps, version 14 the drafts waiting to be shared.
    expect(db.skuDrafts.schema.indexes.map((index) => index.name).sort()).toEqual(
      [...indexesBefore.filter((index) => index !== 'syncState'), 'standing', 'gaps', 'teamWaiting'].sort(),
    )
    expect(await db.skuDrafts.where('standing').equals(standingTag(DEST, 'synced')).count()).toBe(0)
    expect(await db.syncRuns.count()).toBe(0)
    expect(await db.syncItems.count()).toBe(0)
    expect(await db.syncRequests.count()).toBe(0)
    expect(db.syncItems.schema.indexes.map((index) => index.name).sort()).toEqual(
      ['[run+key]', '[run+state+position]', 'key'].sort(),
    )
  })
})
