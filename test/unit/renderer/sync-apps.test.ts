import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppDraftRepository } from '#renderer/db/app-drafts.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox } from '#renderer/db/sync-outbox.ts'
import { MAX_KEPT_RESPONSE_CHARS } from '#renderer/db/draft-standings.ts'
import { SyncRunRepository, type RunTarget } from '#renderer/db/sync-runs.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { RequestRecord } from '#shared/sync/ports.ts'
import request from '../../fixtures/app-create-request.json'
import full from '../../fixtures/sku-eyewear-full.json'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { stateAt } from '#shared/sync/standing.ts'
import { clearStanding, setStanding } from './standings.ts'

let name = ''
let db: CatalogDatabase
let apps: AppDraftRepository
let runs: SyncRunRepository

const target: RunTarget = {
  id: 'sandbox',
  name: 'Sandbox',
  url: 'http://127.0.0.1:1',
  destination: EMBEDDED_SANDBOX_DESTINATION,
  batchSize: 50,
  concurrency: 4,
}
/** Where the runs send: the drafts' states are read there. */
const DEST = target.destination
/** Another destination, to tell a state there from one at `DEST`. */
const OTHER = 'https://api.example.com'

beforeEach(() => {
  name = `catalog-desk-sync-apps-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  apps = new AppDraftRepository(db)
  runs = new SyncRunRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

function app(appName: string, extra: Record<string, unknown> = {}): AppCreateRequest {
  return { ...structuredClone(request), name: appName, ...extra } as AppCreateRequest
}

/** Apps a0…a(n-1), a0 the latest edit. */
async function seed(n: number) {
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push((await apps.create(app(`a${i}`), 1_000 - i)).id)
  return ids
}

const states = async (ids: readonly string[]) =>
  (await db.appDrafts.bulkGet([...ids])).map((draft) => draft && stateAt(draft.sync, DEST))

const requestOf = (runId: string, key: string, at = 5_000): RequestRecord => ({
  id: `${runId}/${key}`,
  runId,
  kind: 'apps',
  keys: [key],
  bytes: 100,
  startedAt: at - 40,
  endedAt: at,
})

/** What the sandbox answers: the app with an id, and some nested objects emptied. */
const returned = (id: string, appName: string) => ({
  ...app(appName),
  _id: id,
  report_config: { ...structuredClone(request.report_config), features: {} },
})

describe('app pre-flight and queueing', () => {
  it('counts ready, invalid, created, unknown, failed and in-run app drafts, leaving SKU drafts out', async () => {
    const ids = await seed(6)
    const invalid = await apps.create(app('bad', { expire_images_after_days: 'soon' }), 10)
    await new SkuDraftRepository(db).create({ ...structuredClone(full), barcode: 's1' } as Sku)
    await setStanding(db.appDrafts, ids[1]!, 'synced', DEST)
    await setStanding(db.appDrafts, ids[2]!, 'unknown', DEST)
    await setStanding(db.appDrafts, ids[3]!, 'failed', DEST)
    await setStanding(db.appDrafts, ids[4]!, 'queued', DEST)

    expect(invalid.validity).toBe('invalid')
    expect(await runs.preflight('apps', DEST)).toEqual({
      ready: 2,
      invalid: 1,
      synced: 1,
      unknown: 1,
      failed: 1,
      rejected: 0,
      inRun: 1,
    })
    // The SKU pre-flight does not count apps.
    expect((await runs.preflight('skus', DEST)).ready).toBe(1)

    // Another destination: none of them was sent there; the one a run holds is not ready there either.
    expect(await runs.preflight('apps', OTHER)).toEqual({
      ready: 5,
      invalid: 1,
      synced: 0,
      unknown: 0,
      failed: 0,
      rejected: 0,
      inRun: 1,
    })
    // Held by a run to another destination: in a run, not ready, here too.
    await setStanding(db.appDrafts, ids[5]!, 'queued', OTHER)
    expect(await runs.preflight('apps', DEST)).toMatchObject({ ready: 1, inRun: 2 })
  })

  it('queues every valid draft, latest edit first, as a run of kind apps sending one app at a time', async () => {
    const ids = await seed(3)
    const invalid = await apps.create(app('bad', { expire_images_after_days: 'soon' }), 2_000)
    await setStanding(db.appDrafts, ids[1]!, 'synced', DEST)

    const { run, queued } = await runs.enqueue('apps', { target, now: 7 })
    expect(queued).toBe(2)
    expect(run).toMatchObject({
      kind: 'apps',
      destination: DEST,
      batchSize: 1,
      concurrency: 1,
      total: 2,
      createdAt: 7,
    })
    expect(await runs.get(run.id)).toEqual(run)
    const items = await db.syncItems.where('[run+position]').between([run.id, 0], [run.id, 99]).toArray()
    expect(items.map((item) => [item.position, item.key, item.label, item.state])).toEqual([
      [0, ids[0], 'a0', 'queued'],
      [1, ids[2], 'a2', 'queued'],
    ])
    expect(await states([...ids, invalid.id])).toEqual(['queued', 'synced', 'queued', 'draft'])
  })

  it('with ids, queues exactly those that are eligible, in the order given; none eligible stores no run', async () => {
    const ids = await seed(4)
    await setStanding(db.appDrafts, ids[3]!, 'rejected', DEST)

    const { run, queued } = await runs.enqueue('apps', { target, ids: [ids[2]!, ids[3]!, 'gone', ids[0]!] })
    expect(queued).toBe(2)
    const items = await db.syncItems.where('[run+position]').between([run.id, 0], [run.id, 99]).toArray()
    expect(items.map((item) => item.key)).toEqual([ids[2], ids[0]])
    expect(await states(ids)).toEqual(['queued', 'draft', 'queued', 'rejected'])

    const none = await runs.enqueue('apps', { target, ids: [ids[3]!, ids[0]!] })
    expect(none.queued).toBe(0)
    expect(await runs.get(none.run.id)).toBeUndefined()
    expect(await db.syncRuns.count()).toBe(1)
  })

  it('queues failed app drafts only when asked', async () => {
    const ids = await seed(2)
    await setStanding(db.appDrafts, ids[0]!, 'failed', DEST)
    expect((await runs.enqueue('apps', { target })).queued).toBe(1)
    expect((await runs.enqueue('apps', { target, includeFailed: true })).queued).toBe(1)
    expect(await states(ids)).toEqual(['queued', 'queued'])
  })
})

describe('the outbox writes what the service said onto the app draft', () => {
  it('keeps the app id, the time of the answer and the answer, in the transaction of the state', async () => {
    const [id] = await seed(1)
    const { run } = await runs.enqueue('apps', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const [item] = await outbox.queuedAfter(-1, 10)
    expect(item).toMatchObject({ key: id, label: 'a0', payload: app('a0') })
    const sent = requestOf(run.id, id!, 12_345)
    await outbox.beginRequest(sent)
    expect(await states([id!])).toEqual(['sending'])
    await outbox.endRequest(sent, [
      { key: id!, state: 'synced', remoteId: 'app-1', response: returned('app-1', 'a0') },
    ])

    const draft = (await db.appDrafts.get(id!))!
    // Kept at the destination that created it.
    expect(draft.sync[DEST]).toMatchObject({
      state: 'synced',
      run: run.id,
      position: 0,
      remoteId: 'app-1',
      remoteCreatedAt: 12_345,
    })
    expect(draft.sync[DEST]!.response).toEqual(returned('app-1', 'a0'))
    expect(Object.keys(draft.sync)).toEqual([DEST])
    expect(draft).not.toHaveProperty('remoteId')
    expect(draft).not.toHaveProperty('response')
    // The payload is what was sent, untouched, and the item keeps it as what was sent.
    expect(draft.payload).toEqual(app('a0'))
    const stored = await db.syncItems.where('key').equals(id!).first()
    expect(stored?.remoteId).toBe('app-1')
    expect(stored?.sent).toEqual(app('a0'))
  })

  it('writes nothing but the state for a rejection, a failure or an unknown outcome', async () => {
    const ids = await seed(3)
    const { run } = await runs.enqueue('apps', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const outcomes = ['rejected', 'failed', 'unknown'] as const
    for (const [i, state] of outcomes.entries()) {
      const sent = requestOf(run.id, ids[i]!)
      await outbox.beginRequest(sent)
      await outbox.endRequest(sent, [{ key: ids[i]!, state, message: 'no' }])
    }
    for (const draft of await db.appDrafts.bulkGet(ids)) {
      expect(draft!.sync[DEST]).not.toHaveProperty('remoteId')
      expect(draft!.sync[DEST]).not.toHaveProperty('remoteCreatedAt')
      expect(draft!.sync[DEST]).not.toHaveProperty('response')
    }
    expect(await states(ids)).toEqual([...outcomes])
  })

  it('keeps only the id of an answer too large to keep', async () => {
    const [id] = await seed(1)
    const { run } = await runs.enqueue('apps', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const sent = requestOf(run.id, id!)
    await outbox.beginRequest(sent)
    const huge = { ...returned('app-2', 'a0'), meta: { blob: 'x'.repeat(MAX_KEPT_RESPONSE_CHARS) } }
    await outbox.endRequest(sent, [{ key: id!, state: 'synced', remoteId: 'app-2', response: huge }])
    const draft = (await db.appDrafts.get(id!))!
    expect(draft.sync[DEST]).toMatchObject({ state: 'synced', remoteId: 'app-2' })
    expect(draft.sync[DEST]).not.toHaveProperty('response')
  })

  it('does not write onto a draft that left the run (a person marked it meanwhile)', async () => {
    const [id] = await seed(1)
    const { run } = await runs.enqueue('apps', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const sent = requestOf(run.id, id!)
    await outbox.beginRequest(sent)
    await clearStanding(db.appDrafts, id!, DEST)
    await outbox.endRequest(sent, [{ key: id!, state: 'synced', remoteId: 'app-3', response: {} }])
    expect((await db.appDrafts.get(id!))!.sync).toEqual({})
    // The item records the outcome all the same.
    expect((await db.syncItems.get([run.id, 0]))?.remoteId).toBe('app-3')
  })

  it("a SKU run keeps the platform's id and what stands there, never an app's answer", async () => {
    const skus = new SkuDraftRepository(db)
    const sku = await skus.create({ ...structuredClone(full), barcode: 's1' } as Sku)
    const { run } = await runs.enqueue('skus', { target })
    const outbox = new DexieSyncOutbox(db, run)
    const sent: RequestRecord = { ...requestOf(run.id, sku.id), kind: 'skus' }
    await outbox.beginRequest(sent)
    await outbox.endRequest(sent, [{ key: sku.id, state: 'synced', remoteId: 'x', response: { a: 1 } }])
    const stored = (await db.skuDrafts.get(sku.id))!
    expect(stateAt(stored.sync, DEST)).toBe('synced')
    expect(stored.sync[DEST]).toMatchObject({ remoteId: 'x', sent: expect.any(String) })
    expect(stored.sync[DEST]).not.toHaveProperty('remoteCreatedAt')
    expect(stored.sync[DEST]).not.toHaveProperty('response')
    expect(stored).not.toHaveProperty('remoteId')
  })

  it('a refused app goes back to editing; a created one does not', async () => {
    const ids = await seed(2)
    await setStanding(db.appDrafts, ids[0]!, 'rejected', DEST)
    await setStanding(db.appDrafts, ids[1]!, 'synced', DEST)
    // Refused here, not there: returning it there changes nothing.
    expect(await runs.returnToEditing(ids[0]!, 'apps', OTHER)).toBe(false)
    expect(await states(ids)).toEqual(['rejected', 'synced'])
    expect(await runs.returnToEditing(ids[0]!, 'apps', DEST)).toBe(true)
    expect(await runs.returnToEditing(ids[1]!, 'apps', DEST)).toBe(false)
    expect(await states(ids)).toEqual(['draft', 'synced'])
    expect((await db.appDrafts.get(ids[0]!))!.standing).toEqual([])
  })
})
