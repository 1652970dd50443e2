import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox } from '#renderer/db/sync-outbox.ts'
import { SyncRunRepository } from '#renderer/db/sync-runs.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import type { SyncClock, SyncTransport } from '#shared/sync/ports.ts'
import type { Sku } from '#shared/schema/sku.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { stateAt } from '#shared/sync/standing.ts'
import { clearStanding } from './standings.ts'

// The engine (src/shared/sync) over the Dexie outbox: what the Sync page runs, minus the bridge.
let name = ''
let db: CatalogDatabase
let runs: SyncRunRepository

beforeEach(() => {
  name = `catalog-desk-sync-engine-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  runs = new SyncRunRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const clock: SyncClock = { now: () => Date.now(), random: () => 0.5, sleep: async () => {} }
const created = (): Outcome => ({
  kind: 'created',
  processed: 'yes',
  status: 201,
  message: 'ok',
  durationMs: 1,
})
const target = {
  id: 'local',
  name: 'Local',
  url: 'http://127.0.0.1:1',
  destination: 'http://127.0.0.1:1',
  batchSize: 3,
  concurrency: 1,
}
/** Where the runs send: the drafts' states are read there. */
const DEST = target.destination

async function seed(n: number) {
  const drafts = new SkuDraftRepository(db)
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const payload = { ...structuredClone(full), barcode: `b${i}` } as Sku
    ids.push((await drafts.create(payload, 1_000_000 - i)).id)
  }
  return ids
}

/** A transport that records every barcode it was given, answering with `answer` per request. */
function recording(answer: (call: number) => Promise<Outcome>) {
  const sent: string[][] = []
  const transport: SyncTransport = {
    send: async ({ operation, argument }) => {
      if (operation !== 'bulk-upload') return created()
      sent.push((argument as { barcode: string }[]).map((sku) => sku.barcode))
      return answer(sent.length)
    },
  }
  return { sent, transport }
}

async function states(database: CatalogDatabase, ids: string[]) {
  return (await database.skuDrafts.bulkGet(ids)).map((draft) => draft && stateAt(draft.sync, DEST))
}

describe('the engine over the Dexie outbox', () => {
  it('sends every queued draft once, in the list order, and leaves every draft synced', async () => {
    const ids = await seed(7)
    const { run } = await runs.enqueue('skus', { target })
    const { sent, transport } = recording(async () => created())
    const engine = createSyncRun(
      { outbox: new DexieSyncOutbox(db, run), transport, clock },
      { runId: run.id, kind: 'skus', batchSize: 3, concurrency: 1 },
    )
    const summary = await engine.start()
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(sent).toEqual([['b0', 'b1', 'b2'], ['b3', 'b4', 'b5'], ['b6']])
    expect(await states(db, ids)).toEqual(Array(7).fill('synced'))
    expect(await runs.requestCount(run.id)).toBe(3)
    // Each item keeps exactly what was sent: the draft's payload as its batch was read.
    const items = await db.syncItems.where('[run+position]').between([run.id, 0], [run.id, 99]).toArray()
    const payloads = await db.skuDrafts.bulkGet(items.map((item) => item.key))
    expect(items.map((item) => item.sent)).toEqual(payloads.map((draft) => draft!.payload))
  })

  it('drafts deleted by hand do not end the run early: they fail, every other draft is sent, nothing stays queued', async () => {
    const ids = await seed(9)
    const { run } = await runs.enqueue('skus', { target })
    await db.skuDrafts.bulkDelete([ids[1]!, ids[4]!, ids[5]!])
    const { sent, transport } = recording(async () => created())
    const engine = createSyncRun(
      { outbox: new DexieSyncOutbox(db, run), transport, clock },
      { runId: run.id, kind: 'skus', batchSize: 3, concurrency: 2 },
    )
    const summary = await engine.start()
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(sent.flat()).toEqual(['b0', 'b2', 'b3', 'b6', 'b7', 'b8'])
    expect(await runs.counts(run.id)).toMatchObject({ queued: 0, sending: 0, synced: 6, failed: 3 })
  })

  it('a draft that left the run after it was queued is not sent; the others are', async () => {
    const ids = await seed(4)
    const { run } = await runs.enqueue('skus', { target })
    // Taken back to editing after it was queued (by hand here): the outbox does not hand it out.
    await clearStanding(db.skuDrafts, ids[1]!, DEST)
    const { sent, transport } = recording(async () => created())
    const engine = createSyncRun(
      { outbox: new DexieSyncOutbox(db, run), transport, clock },
      { runId: run.id, kind: 'skus', batchSize: 3, concurrency: 1 },
    )
    const summary = await engine.start()
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(sent.flat()).toEqual(['b0', 'b2', 'b3'])
    expect(await states(db, ids)).toEqual(['synced', 'draft', 'synced', 'synced'])
    expect(await runs.counts(run.id)).toMatchObject({ synced: 3, failed: 1, queued: 0 })
  })

  it('after a crash mid-request: the batch in flight is unknown, the rest is sent on resume, nothing twice', async () => {
    const ids = await seed(7)
    const { run } = await runs.enqueue('skus', { target })
    // The second request never answers: the window closes while it is in flight.
    const first = recording((call) =>
      call === 2 ? new Promise<Outcome>(() => {}) : Promise.resolve(created()),
    )
    const crashed = createSyncRun(
      { outbox: new DexieSyncOutbox(db, run), transport: first.transport, clock },
      { runId: run.id, kind: 'skus', batchSize: 3, concurrency: 1 },
    )
    void crashed.start()
    await expect.poll(() => first.sent.length).toBe(2)
    await expect.poll(() => states(db, ids.slice(3, 6))).toEqual(['sending', 'sending', 'sending'])
    db.close()

    const reopened = new CatalogDatabase(name)
    const again = new SyncRunRepository(reopened)
    expect((await again.open()).map((open) => open.id)).toEqual([run.id])
    const second = recording(async () => created())
    const resumed = createSyncRun(
      { outbox: new DexieSyncOutbox(reopened, run), transport: second.transport, clock },
      { runId: run.id, kind: 'skus', batchSize: 3, concurrency: 1 },
    )
    const summary = await resumed.start()
    expect(summary.counts).toMatchObject({ synced: 4, unknown: 3, queued: 0, sending: 0 })
    expect(second.sent).toEqual([['b6']])
    const everySent = [...first.sent, ...second.sent].flat()
    expect(new Set(everySent).size).toBe(everySent.length)
    expect(await states(reopened, ids)).toEqual([
      'synced',
      'synced',
      'synced',
      'unknown',
      'unknown',
      'unknown',
      'synced',
    ])
    // The interrupted batch waits for the person's decision.
    const [undecided] = await again.undecided(run.id)
    expect(undecided?.labels).toEqual(['b3', 'b4', 'b5'])
    expect(undecided?.outcome?.kind).toBe('unknown')
    reopened.close()
    db = new CatalogDatabase(name)
  })

  it('a cancel lets the request in flight finish and records it; the queued drafts go back to draft', async () => {
    const ids = await seed(7)
    const { run } = await runs.enqueue('skus', { target })
    let release: () => void = () => {}
    const { sent, transport } = recording(
      () => new Promise<Outcome>((resolve) => (release = () => resolve(created()))),
    )
    const engine = createSyncRun(
      { outbox: new DexieSyncOutbox(db, run), transport, clock },
      { runId: run.id, kind: 'skus', batchSize: 3, concurrency: 1 },
    )
    const done = engine.start()
    await expect.poll(() => sent.length).toBe(1)
    engine.cancel()
    release()
    const summary = await done
    expect(summary.status).toEqual({ state: 'finished', cancelled: true })
    expect(sent).toHaveLength(1)
    expect(await runs.releaseQueued(run.id)).toBe(4)
    expect(await states(db, ids)).toEqual(['synced', 'synced', 'synced', 'draft', 'draft', 'draft', 'draft'])
  })

  it('a failed batch sent again by the person goes out once more, in its own run', async () => {
    const ids = await seed(2)
    const { run } = await runs.enqueue('skus', { target })
    const outcomes: Outcome[] = [
      { kind: 'failed', processed: 'maybe', status: 500, message: 'HTTP 500', durationMs: 1 },
      created(),
    ]
    const { sent, transport } = recording(async (call) => outcomes[call - 1]!)
    const settings = { runId: run.id, kind: 'skus' as const, batchSize: 3, concurrency: 1 }
    await createSyncRun({ outbox: new DexieSyncOutbox(db, run), transport, clock }, settings).start()
    expect(await states(db, ids)).toEqual(['failed', 'failed'])
    const [batch] = await runs.undecided(run.id)
    expect((await runs.resolve(batch!.id, 'resend')).moved).toHaveLength(2)
    await createSyncRun({ outbox: new DexieSyncOutbox(db, run), transport, clock }, settings).start()
    expect(sent).toEqual([
      ['b0', 'b1'],
      ['b0', 'b1'],
    ])
    expect(await states(db, ids)).toEqual(['synced', 'synced'])
  })

  it('decisions while the run is paused: what is sent again goes out once, after Resume, in the same run', async () => {
    const ids = await seed(9)
    const { run } = await runs.enqueue('skus', { target })
    const failing: Outcome[] = [
      { kind: 'failed', processed: 'maybe', status: 500, message: 'HTTP 500', durationMs: 1 },
      { kind: 'unknown', processed: 'maybe', status: 504, message: 'HTTP 504', durationMs: 1 },
    ]
    const { sent, transport } = recording(async (call) => failing[call - 1] ?? created())
    const settings = {
      runId: run.id,
      kind: 'skus' as const,
      batchSize: 3,
      concurrency: 1,
      pauseAfterDoubtful: 2,
    }
    const engine = createSyncRun({ outbox: new DexieSyncOutbox(db, run), transport, clock }, settings)
    const done = engine.start()
    await vi.waitFor(() => expect(engine.status.state).toBe('paused'))
    expect(engine.status).toMatchObject({ state: 'paused', reason: 'failing' })
    const [failed, unknown] = await runs.undecided(run.id)
    const resent = await engine.decide(() => runs.resolve(failed!.id, 'resend'))
    expect(resent?.requeued.map((item) => item.label)).toEqual(['b0', 'b1', 'b2'])
    expect((await engine.decide(() => runs.resolve(unknown!.id, 'created')))?.moved).toHaveLength(3)
    expect(engine.status.state).toBe('paused')
    expect(sent).toHaveLength(2)
    engine.resume()
    const summary = await done
    expect(sent).toEqual([
      ['b0', 'b1', 'b2'],
      ['b3', 'b4', 'b5'],
      ['b0', 'b1', 'b2'],
      ['b6', 'b7', 'b8'],
    ])
    expect(summary.counts).toMatchObject({ queued: 0, synced: 9, failed: 0, unknown: 0 })
    expect(await states(db, ids)).toEqual(Array(9).fill('synced'))
    expect(await runs.undecided(run.id)).toEqual([])
  })
})
