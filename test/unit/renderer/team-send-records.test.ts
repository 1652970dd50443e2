import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { SyncRunRepository, type RunTarget } from '#renderer/db/sync-runs.ts'
import { applySendRecordsNow, decidedRecords, keepingOut } from '#renderer/db/team-send-records.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { stateAt } from '#shared/sync/standing.ts'
import type { SendRecord } from '#shared/team/send-records.ts'
import full from '../../fixtures/sku-eyewear-full.json'

// Another desk's send records (issue #42), applied on this desk: the drafts stand where that desk's
// run left them, named as its run in the history, and are never offered for creation there again.

const PRODUCTION = 'https://api.example.test'
const target: RunTarget = {
  id: 'production',
  name: 'Production',
  url: PRODUCTION,
  destination: PRODUCTION,
  batchSize: 50,
  concurrency: 1,
}

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let runs: SyncRunRepository

beforeEach(() => {
  name = `catalog-desk-send-records-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  runs = new SyncRunRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (barcode: string): Sku =>
  ({ ...structuredClone(full), barcode, productName: `Frame ${barcode}` }) as Sku

async function seed(n: number) {
  const made = []
  for (let i = 0; i < n; i++) made.push(await drafts.create(sku(`400638133393${i}`), 1_000 + i))
  return made
}

function record(
  draft: { id: string; payload: unknown },
  position: number,
  more: Partial<SendRecord> = {},
): SendRecord {
  return {
    destination: PRODUCTION,
    kind: 'sku',
    draft: draft.id,
    desk: 'ana',
    run: 'ana-run-1',
    position,
    label: `label ${position}`,
    state: 'synced',
    at: 5_000 + position,
    sent: draft.payload,
    ...more,
  }
}

const statesAt = async (ids: readonly string[]) =>
  (await db.skuDrafts.bulkGet([...ids])).map((draft) => draft && stateAt(draft.sync, PRODUCTION))

describe('another desk’s send records, on this desk', () => {
  it('a draft another desk created stands synced there, named as that desk’s run, and no run takes it', async () => {
    const [a, b, c] = await seed(3)
    const changed = await applySendRecordsNow(db, [
      record(a!, 0, { remoteId: 'plat-0' }),
      record(b!, 1, { state: 'rejected', message: 'barcode: not a GTIN' }),
    ])
    expect(changed).toEqual({ skus: 2, apps: 0 })
    expect(await statesAt([a!.id, b!.id, c!.id])).toEqual(['synced', 'rejected', 'draft'])
    const stored = await db.skuDrafts.get(a!.id)
    // What stands there is what Ana's run sent: the draft as it is now, so not "changed since".
    expect(stored!.sync[PRODUCTION]).toMatchObject({
      run: 'ana-run-1',
      remoteId: 'plat-0',
      sent: payloadFingerprint(a!.payload),
    })
    const [history] = await runs.history(a!.id)
    expect(history!.run).toMatchObject({ sentBy: 'ana', fromWorkspace: true, state: 'finished', total: 2 })
    expect(history!.item).toMatchObject({ state: 'synced', remoteId: 'plat-0' })
    // Never offered for creation there again: a run to Production takes only the third.
    expect(await runs.preflight('skus', PRODUCTION)).toMatchObject({ ready: 1, synced: 1, rejected: 1 })
    const { run } = await runs.enqueue('skus', { target })
    expect((await runs.queued(run.id)).map((item) => item.key)).toEqual([c!.id])
    // Nothing of Ana's run is offered to resume here.
    expect((await runs.open()).map((open) => open.id)).toEqual([run.id])
  })

  it('a record of this desk’s own run, or one older than the draft’s standing, changes nothing', async () => {
    const [a, b] = await seed(2)
    const { run } = await runs.enqueue('skus', { target })
    expect(await applySendRecordsNow(db, [record(a!, 0, { run: run.id, state: 'unknown' })])).toEqual({
      skus: 0,
      apps: 0,
    })
    // Held by this desk's run (queued): its own outcome comes next; even another desk's word on
    // this very run's item waits for the run's claims to read it.
    expect(await applySendRecordsNow(db, [record(b!, 1)])).toEqual({ skus: 0, apps: 0 })
    const position = (await runs.queued(run.id)).find((item) => item.key === a!.id)!.position
    await applySendRecordsNow(db, [
      record(a!, position, { run: run.id, state: 'unknown', recordedBy: 'ben' }),
    ])
    expect(await statesAt([a!.id, b!.id])).toEqual(['queued', 'queued'])
    expect((await runs.queued(run.id)).map((item) => item.key).sort()).toEqual([a!.id, b!.id].sort())
    await runs.releaseQueued(run.id)
    await applySendRecordsNow(db, [record(b!, 1, { at: 9_000 })])
    await applySendRecordsNow(db, [
      record(b!, 4, { run: 'ben-run', desk: 'ben', state: 'unknown', at: 8_000 }),
    ])
    expect(await statesAt([a!.id, b!.id])).toEqual(['draft', 'synced'])
  })

  it('a run leaves out what another desk created or left unknown, and what it refused as the draft is now', async () => {
    const [a, b, c, d] = await seed(4)
    const edited = { ...d!.payload, productName: 'Frame, renamed' }
    const records = [
      record(a!, 0),
      record(b!, 1, { state: 'unknown' }),
      record(c!, 2, { state: 'rejected' }),
      // Refused as it was; edited since, so it goes.
      record(d!, 3, { state: 'rejected' }),
    ]
    await saveDraftPayload(db, 'skus', d!.id, edited as Sku, 6_000)
    expect((await keepingOut(db, 'skus', records)).map((kept) => kept.draft)).toEqual([a!.id, b!.id, c!.id])
  })

  // A tryout corrected a SKU on one desk: the other still offered it for update, as changed since
  // its creation, for no desk shared what an update made stand there.
  it('another desk’s applied update stands there: nothing left to update, the next counts its changes from it', async () => {
    const [a, b] = await seed(2)
    await applySendRecordsNow(db, [record(a!, 0, { remoteId: 'plat-0' })])
    const corrected = { ...a!.payload, brand: 'Northwind Optics Revised' } as Sku
    await saveDraftPayload(db, 'skus', a!.id, corrected, 6_000)
    const gate = { required: [], requiredBy: 'Production' }
    expect((await runs.updatesPreflight(PRODUCTION, gate)).ready).toBe(1)

    const update = record({ id: a!.id, payload: corrected }, 0, {
      run: 'ana-update-1',
      action: 'update',
      remoteId: 'plat-0',
      at: 7_000,
    })
    expect(await applySendRecordsNow(db, [update])).toEqual({ skus: 1, apps: 0 })
    expect((await runs.updatesPreflight(PRODUCTION, gate)).ready).toBe(0)
    expect((await db.skuDrafts.get(a!.id))!.sync[PRODUCTION]).toMatchObject({
      state: 'synced',
      run: 'ana-run-1',
      remoteId: 'plat-0',
      sent: payloadFingerprint(corrected),
      base: { run: 'ana-update-1', position: 0 },
      update: { run: 'ana-update-1', state: 'synced' },
    })
    const [latest] = await runs.history(a!.id)
    expect(latest!.run).toMatchObject({ action: 'update', sentBy: 'ana', fromWorkspace: true })
    // The same update again, or an older one, changes nothing.
    expect(await applySendRecordsNow(db, [update])).toEqual({ skus: 0, apps: 0 })
    await applySendRecordsNow(db, [{ ...update, run: 'ana-update-0', at: 6_500 }])
    expect((await db.skuDrafts.get(a!.id))!.sync[PRODUCTION]!.update!.run).toBe('ana-update-1')

    // Edited again here: the update counts from the corrected SKU, the brand no more.
    await saveDraftPayload(db, 'skus', a!.id, { ...corrected, productName: 'Frame, renamed' } as Sku, 8_000)
    const [preview] = await runs.updatePreviews(PRODUCTION, gate)
    expect(preview!.plan.fields).toEqual({ productName: 'Frame, renamed' })

    // An update of an earlier creation, arriving after the SKU was created again, changes nothing.
    await applySendRecordsNow(db, [record(b!, 2, { run: 'ana-run-2', remoteId: 'plat-1b', at: 9_000 })])
    expect(
      await applySendRecordsNow(db, [
        record(b!, 1, { run: 'ana-update-0', action: 'update', remoteId: 'plat-1' }),
      ]),
    ).toEqual({ skus: 0, apps: 0 })
    expect((await db.skuDrafts.get(b!.id))!.sync[PRODUCTION]).toMatchObject({
      run: 'ana-run-2',
      remoteId: 'plat-1b',
    })
    await db.skuDrafts.update(b!.id, { sync: {}, standing: [] })

    // A draft this desk never knew as created stands created, with what the update left there.
    await applySendRecordsNow(db, [
      record(b!, 1, { run: 'ana-update-1', action: 'update', remoteId: 'plat-1' }),
    ])
    expect((await db.skuDrafts.get(b!.id))!.sync[PRODUCTION]).toMatchObject({
      state: 'synced',
      remoteId: 'plat-1',
      sent: payloadFingerprint(b!.payload),
    })
    expect(await runs.preflight('skus', PRODUCTION)).toMatchObject({ ready: 0, synced: 2 })
  })

  it('a decision about another desk’s unknown drafts: marked created stands synced, named by who decided; sent again frees them', async () => {
    const [a, b, c] = await seed(3)
    await applySendRecordsNow(db, [
      record(a!, 0, { state: 'unknown' }),
      record(b!, 1, { state: 'unknown' }),
      record(c!, 2, { state: 'synced' }),
    ])
    const created = await decidedRecords(db, 'ana-run-1', 'created', 'ben', 9_000)
    expect(
      created.map(({ draft, state, recordedBy, decision }) => ({ draft, state, recordedBy, decision })),
    ).toEqual([
      { draft: a!.id, state: 'synced', recordedBy: 'ben', decision: 'created' },
      { draft: b!.id, state: 'synced', recordedBy: 'ben', decision: 'created' },
    ])
    // Ben decides for the first only (his list names it); the second is sent again.
    await applySendRecordsNow(db, [created[0]!])
    await applySendRecordsNow(db, await decidedRecords(db, 'ana-run-1', 'resend', 'ben', 9_500, [b!.id]))
    expect(await statesAt([a!.id, b!.id, c!.id])).toEqual(['synced', 'draft', 'synced'])
    const [history] = await runs.history(a!.id)
    expect(history!.item).toMatchObject({ state: 'synced', message: 'Marked as created by ben' })
    expect(await runs.get('ana-run-1')).toMatchObject({ total: 3, returned: 1 })
    expect(await runs.preflight('skus', PRODUCTION)).toMatchObject({ ready: 1, synced: 2, unknown: 0 })
    // Nothing is left to decide: no record says so again.
    expect(await decidedRecords(db, 'ana-run-1', 'created', 'ben', 10_000)).toEqual([])
  })
})
