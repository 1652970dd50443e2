import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox, NO_PLATFORM_ID_MESSAGE } from '#renderer/db/sync-outbox.ts'
import { SyncRunRepository, type RunTarget, type UpdateGate } from '#renderer/db/sync-runs.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { OperationCall } from '#shared/service/operations.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import type { SyncClock, SyncTransport } from '#shared/sync/ports.ts'
import { standingTag } from '#shared/sync/standing.ts'
import full from '../../fixtures/sku-eyewear-full.json'

// SKU updates over the Dexie outbox (issue #34): what the Sync page's "Update" runs, minus the
// bridge. A transport stands in for the service and records what it was asked.
let name = ''
let db: CatalogDatabase
let runs: SyncRunRepository
let drafts: SkuDraftRepository

beforeEach(() => {
  name = `catalog-desk-sync-updates-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  runs = new SyncRunRepository(db)
  drafts = new SkuDraftRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const clock: SyncClock = { now: () => Date.now(), random: () => 0.5, sleep: async () => {} }
const target: RunTarget = {
  id: 'local',
  name: 'Local',
  url: 'http://127.0.0.1:1',
  destination: 'http://127.0.0.1:1',
  batchSize: 10,
  concurrency: 2,
}
const DEST = target.destination
const gate: UpdateGate = { required: ['category'], requiredBy: 'Local' }

function outcome(kind: Outcome['kind'], extra: Partial<Outcome> = {}): Outcome {
  return { kind, processed: kind === 'created' ? 'yes' : 'no', message: kind, durationMs: 1, ...extra }
}

/** A service that creates with ids (or without), and answers updates as `onUpdate` says. */
function service({
  ids = true,
  onUpdate = (_call: OperationCall) => outcome('created', { status: 200 }),
} = {}) {
  const calls: OperationCall[] = []
  const transport: SyncTransport = {
    send: async (call) => {
      calls.push(structuredClone(call))
      if (call.operation === 'bulk-upload') {
        const skus = call.argument as Array<{ barcode: string }>
        return outcome('created', {
          status: 201,
          body: ids
            ? {
                message: 'Created',
                count: skus.length,
                skus: skus.map((sku) => ({ _id: `id${sku.barcode}`, barcode: sku.barcode })),
              }
            : { message: 'Created', count: skus.length },
        })
      }
      return onUpdate(call)
    },
  }
  return { calls, transport }
}

async function seed(n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const payload = { ...structuredClone(full), barcode: `b${i}`, productName: `Frame ${i}` } as Sku
    ids.push((await drafts.create(payload, 1_000_000 - i)).id)
  }
  return ids
}

async function createAll(transport: SyncTransport) {
  const { run } = await runs.enqueue('skus', { target })
  const summary = await createSyncRun(
    { outbox: new DexieSyncOutbox(db, run), transport, clock },
    { runId: run.id, kind: 'skus', batchSize: 10, concurrency: 1 },
  ).start()
  expect(summary.counts.synced).toBeGreaterThan(0)
}

async function updateAll(transport: SyncTransport) {
  const { run, queued } = await runs.enqueueUpdates({ target, gate })
  if (queued === 0) return { run, queued, summary: undefined }
  const summary = await createSyncRun(
    { outbox: new DexieSyncOutbox(db, run), transport, clock },
    { runId: run.id, kind: 'skus', action: 'update', batchSize: run.batchSize, concurrency: run.concurrency },
  ).start()
  return { run, queued, summary }
}

async function edit(id: string, change: (payload: Sku) => void) {
  const draft = (await db.skuDrafts.get(id!))!
  const payload = structuredClone(draft.payload)
  change(payload)
  await saveDraftPayload<SkuDraftRecord>(db, 'skus', id, payload)
}

const tagged = (tag: string) => db.skuDrafts.where('standing').equals(tag).primaryKeys()

describe('updates of what was created', () => {
  it('keeps the platform ids of a bulk answer and sends only what changed, one SKU a request', async () => {
    const ids = await seed(3)
    const { calls, transport } = service()
    await createAll(transport)
    const first = (await db.skuDrafts.get(ids[0]!))!
    expect(first.sync[DEST]?.remoteId).toBe('idb0')
    expect(await tagged(standingTag(DEST, 'changed'))).toEqual([])

    await edit(ids[0]!, (sku) => {
      sku.arEffect!.transform!.position!.y = 0.042
    })
    await edit(ids[1]!, (sku) => {
      sku.brand = 'Other brand'
    })
    expect((await tagged(standingTag(DEST, 'changed'))).sort()).toEqual([ids[0], ids[1]].sort())
    expect(await runs.updatesPreflight(DEST, gate)).toEqual({
      ready: 2,
      noId: 0,
      held: 0,
      whole: 0,
      withoutId: 0,
      gone: 0,
    })
    const previews = await runs.updatePreviews(DEST, gate)
    expect(previews.map((preview) => preview.plan.changes.map((change) => change.path)).sort()).toEqual([
      ['arEffect.transform.position.y'],
      ['brand'],
    ])

    calls.length = 0
    const { summary } = await updateAll(transport)
    expect(summary?.counts.synced).toBe(2)
    const puts = calls
      .map((call) => call.argument)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
    expect(calls.every((call) => call.operation === 'update-sku')).toBe(true)
    expect(puts).toEqual([
      { skuId: 'idb0', fields: { arEffect: { transform: { position: { y: 0.042 } } } } },
      { skuId: 'idb1', fields: { brand: 'Other brand' } },
    ])
    // Applied: nothing is changed since any more, and the next update counts from this one.
    expect(await tagged(standingTag(DEST, 'changed'))).toEqual([])
    await edit(ids[1]!, (sku) => {
      sku.brand = 'Third brand'
    })
    calls.length = 0
    await updateAll(transport)
    expect(calls.map((call) => call.argument)).toEqual([{ skuId: 'idb1', fields: { brand: 'Third brand' } }])
  })

  it('says a SKU without a platform id cannot be updated, and never queues it', async () => {
    const [id] = await seed(1)
    const { calls, transport } = service({ ids: false })
    await createAll(transport)
    await edit(id!, (sku) => {
      sku.brand = 'Other brand'
    })
    expect(await runs.updatesPreflight(DEST, gate)).toEqual({
      ready: 0,
      noId: 1,
      held: 0,
      whole: 0,
      withoutId: 1,
      gone: 0,
    })
    calls.length = 0
    expect((await updateAll(transport)).queued).toBe(0)
    expect(calls).toEqual([])
    expect(NO_PLATFORM_ID_MESSAGE).toMatch(/platform's id of this SKU is unknown/)
  })

  it('marks a SKU the service says is not there as gone, and lets the person forget it was created', async () => {
    const [id] = await seed(1)
    const { transport } = service({
      onUpdate: () =>
        outcome('not-found', { status: 404, serviceMessage: 'SKU idb0 not found', message: 'not there' }),
    })
    await createAll(transport)
    await edit(id!, (sku) => {
      sku.brand = 'Other brand'
    })
    const { summary } = await updateAll(transport)
    expect(summary?.counts.rejected).toBe(1)
    expect(summary?.status.state).toBe('finished')
    const draft = (await db.skuDrafts.get(id!))!
    expect(draft.sync[DEST]?.state).toBe('synced')
    expect(draft.sync[DEST]?.update).toMatchObject({ state: 'rejected', gone: true })
    expect(await runs.goneAt(DEST)).toEqual([id])
    // Not offered as a change while it is gone; forgotten, it is offered for creation again.
    expect((await runs.updatesPreflight(DEST, gate)).ready).toBe(0)
    expect(await runs.forgetCreated(id!, DEST)).toBe(true)
    expect((await db.skuDrafts.get(id!))!.sync[DEST]).toBeUndefined()
    expect((await runs.preflight('skus', DEST)).ready).toBe(1)
  })

  it('stops after three updates in a row find nothing: a wrong address, not three gone SKUs', async () => {
    await seed(4)
    const ids = (await db.skuDrafts.toCollection().primaryKeys()) as string[]
    const { transport } = service({
      onUpdate: () =>
        outcome('not-found', { status: 404, serviceMessage: 'not found', message: 'not there' }),
    })
    await createAll(transport)
    for (const id of ids)
      await edit(id, (sku) => {
        sku.brand = 'Other brand'
      })
    const { run, summary } = await updateAll(transport)
    expect(summary?.status).toMatchObject({ state: 'stopped' })
    expect(summary?.status.state === 'stopped' && summary.status.message).toMatch(
      /3 requests in a row found nothing/,
    )
    const counts = await runs.counts(run.id)
    expect(counts.rejected + counts.failed).toBeLessThanOrEqual(4)
    expect(counts.failed).toBeGreaterThanOrEqual(1)
  })

  it('sends an update left sending by a crash again once, and only once', async () => {
    const [id] = await seed(1)
    const { calls, transport } = service()
    await createAll(transport)
    await edit(id!, (sku) => {
      sku.brand = 'Other brand'
    })
    const { run } = await runs.enqueueUpdates({ target, gate })
    // The app stops after the request was recorded and before its answer.
    const outbox = new DexieSyncOutbox(db, run)
    const [item] = await outbox.queuedAfter(-1, 1)
    await outbox.beginRequest({
      id: 'crashed-1',
      runId: run.id,
      kind: 'skus',
      keys: [item!.key],
      bytes: 10,
      startedAt: Date.now(),
    })
    // The next start recovers it: queued again, and sent.
    calls.length = 0
    const summary = await createSyncRun(
      { outbox: new DexieSyncOutbox(db, run), transport, clock },
      { runId: run.id, kind: 'skus', action: 'update', batchSize: 1, concurrency: 1 },
    ).start()
    expect(summary.counts.synced).toBe(1)
    expect(calls.map((call) => call.operation)).toEqual(['update-sku'])

    // Left sending a second time: unknown, and the SKU stays changed for the next Update.
    await edit(id!, (sku) => {
      sku.brand = 'Third brand'
    })
    const again = await runs.enqueueUpdates({ target, gate })
    const second = new DexieSyncOutbox(db, again.run)
    for (const attempt of ['a', 'b']) {
      await second.recoverInterrupted('interrupted')
      const [next] = await second.queuedAfter(-1, 1)
      if (!next) break
      await second.beginRequest({
        id: `crashed-${attempt}`,
        runId: again.run.id,
        kind: 'skus',
        keys: [next.key],
        bytes: 10,
        startedAt: Date.now(),
      })
    }
    expect(await second.recoverInterrupted('interrupted')).toBe(1)
    expect((await runs.counts(again.run.id)).unknown).toBe(1)
    expect(await tagged(standingTag(DEST, 'changed'))).toEqual([id])
  })

  it('holds back a changed SKU whose edit broke a gate, and never locks its creation', async () => {
    const [id] = await seed(1)
    const { transport } = service()
    await createAll(transport)
    await edit(id!, (sku) => {
      delete (sku as Partial<Sku>).category
    })
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 0, held: 1 })
    expect((await runs.enqueueUpdates({ target, gate })).queued).toBe(0)
    // Still created there: never offered for creation again.
    expect((await runs.preflight('skus', DEST)).synced).toBe(1)
    expect((await runs.preflight('skus', DEST)).ready).toBe(0)
  })

  it('holds back an update to a barcode whose check digit is wrong only when the profile says so', async () => {
    const [id] = await seed(1)
    const { transport } = service()
    await createAll(transport)
    // The PrestaShop sample's EAN-13, whose check digit should be 8 (test/fixtures/sheets/exports/real).
    await edit(id!, (sku) => {
      sku.barcode = '1234567890123'
    })
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 1, held: 0 })
    const strict: UpdateGate = { ...gate, holdBadCheckDigits: true }
    expect(await runs.updatesPreflight(DEST, strict)).toMatchObject({ ready: 0, held: 1 })
    expect(await runs.updatePreviews(DEST, strict)).toEqual([])
    expect((await runs.enqueueUpdates({ target, gate: strict })).queued).toBe(0)
  })
})

describe('a SKU edited on two desks of a team', () => {
  // A tryout's two desks edited a created SKU before either synced: Update offered the winning
  // version and left the other desk's edit out without a word.
  it('is held back from Update until one version is kept, and says why', async () => {
    const [id] = await seed(1)
    const { transport } = service()
    await createAll(transport)
    await edit(id!, (sku) => {
      sku.brand = 'Other brand'
    })
    const team = { rev: '3-abc', sharedAt: 5_000, editedBy: 'ana', editedAt: 5_000 }
    await db.skuDrafts.update(id!, { team: { ...team, conflicts: 1 } })
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 0, held: 1 })
    expect(await runs.updatePreviews(DEST, gate)).toEqual([])
    expect((await runs.enqueueUpdates({ target, gate })).queued).toBe(0)

    await db.skuDrafts.update(id!, { team: { ...team, conflicts: 0 } })
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 1, held: 0 })
  })
})

describe('after an update nobody knows the outcome of', () => {
  it('sends the whole SKU next time, until one is applied', async () => {
    const [id] = await seed(1)
    let answer: Outcome = outcome('unknown', { status: 504, processed: 'maybe' })
    const { calls, transport } = service({ onUpdate: () => answer })
    await createAll(transport)
    await edit(id!, (sku) => {
      sku.brand = 'Other brand'
    })
    await updateAll(transport)
    expect(await tagged(standingTag(DEST, 'changed'))).toEqual([id])
    // Edited back to what was created: the 504'd update may have left "Other brand" there.
    await edit(id!, (sku) => {
      sku.brand = (full as { brand: string }).brand
      sku.productName = 'Renamed'
    })
    // The pre-flight says so: a tryout read "changed fields" above a retry that sent every field.
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 1, whole: 1 })
    answer = outcome('created', { status: 200 })
    calls.length = 0
    await updateAll(transport)
    const sent = calls[0]?.argument as { fields: Record<string, unknown> }
    expect(sent.fields.brand).toBe((full as { brand: string }).brand)
    expect(sent.fields.barcode).toBe('b0')
    // Applied: the next one counts from it again.
    await edit(id!, (sku) => {
      sku.productName = 'Renamed again'
    })
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 1, whole: 0 })
    calls.length = 0
    await updateAll(transport)
    expect(calls.map((call) => call.argument)).toEqual([
      { skuId: 'idb0', fields: { productName: 'Renamed again' } },
    ])
  })
})

describe('a creation a person marked', () => {
  it('records what was sent as what stands there, so later edits count as changed', async () => {
    const [id] = await seed(1)
    const transport: SyncTransport = {
      send: async () => outcome('unknown', { status: 504, processed: 'maybe' }),
    }
    await runs
      .enqueue('skus', { target })
      .then(({ run }) =>
        createSyncRun(
          { outbox: new DexieSyncOutbox(db, run), transport, clock },
          { runId: run.id, kind: 'skus', batchSize: 10, concurrency: 1 },
        ).start(),
      )
    const [run] = await db.syncRuns.toArray()
    const [request] = await runs.undecided(run!.id)
    await runs.resolve(request!.id, 'created')
    expect(await tagged(standingTag(DEST, 'changed'))).toEqual([])
    await edit(id!, (sku) => {
      sku.brand = 'Other brand'
    })
    expect(await tagged(standingTag(DEST, 'changed'))).toEqual([id])
    // No answer said its id: it waits for one.
    expect(await runs.updatesPreflight(DEST, gate)).toMatchObject({ ready: 0, noId: 1 })
  })
})
