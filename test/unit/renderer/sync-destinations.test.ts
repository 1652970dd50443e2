import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { defaultListQuery, type ListFilters } from '#renderer/db/sku-list-query.ts'
import { SkuListMatching } from '#renderer/db/sku-list-matching.ts'
import { DexieSyncOutbox } from '#renderer/db/sync-outbox.ts'
import { SyncRunRepository, type RunTarget } from '#renderer/db/sync-runs.ts'
import { SyncSelectionReader } from '#renderer/db/sync-selection.ts'
import type { SyncRunRecord } from '#renderer/db/sync-records.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { ItemUpdate } from '#shared/sync/ports.ts'
import { stateAt } from '#shared/sync/standing.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { setStanding } from './standings.ts'

// Sync state per destination: what was sent where, what may be sent where next, and how drafts
// compare with what a destination received.

/** Staging (A) and Production (B): two services, two destinations. */
const A = 'https://staging.example.com'
const B = 'https://api.example.com'

const target = (destination: string, id: string): RunTarget => ({
  id,
  name: id,
  url: `${destination}/`,
  destination,
  batchSize: 2,
  concurrency: 1,
})
const TO_A = target(A, 'staging')
const TO_B = target(B, 'production')

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let runs: SyncRunRepository
let selection: SyncSelectionReader
let list: SkuListMatching

beforeEach(() => {
  name = `catalog-desk-destinations-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  runs = new SyncRunRepository(db)
  selection = new SyncSelectionReader(db)
  list = new SkuListMatching(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (barcode: string, extra: Record<string, unknown> = {}): Sku =>
  ({ ...structuredClone(full), barcode, productName: `Frame ${barcode}`, ...extra }) as Sku

/** Sends every item a run holds, one request a batch, each draft's outcome as `outcome` says. */
async function sendRun(run: SyncRunRecord, outcome: (key: string) => ItemUpdate['state'] = () => 'synced') {
  const outbox = new DexieSyncOutbox(db, run)
  for (let page = await outbox.queuedAfter(-Infinity, 2); page.length > 0;) {
    const keys = page.map((item) => item.key)
    const request = {
      id: `${run.id}/${keys.join(',')}`,
      runId: run.id,
      kind: 'skus' as const,
      keys,
      bytes: 1,
    }
    await outbox.beginRequest({ ...request, startedAt: 10 })
    await outbox.endRequest(
      { ...request, startedAt: 10, endedAt: 20 },
      keys.map((key) => ({ key, state: outcome(key) })),
    )
    page = await outbox.queuedAfter(page.at(-1)!.position, 2)
  }
  await runs.setState(run.id, 'finished')
}

const stateOf = async (id: string, destination: string) => stateAt((await drafts.get(id))!.sync, destination)
const sorted = (ids: Iterable<string>) => [...ids].sort()

/**
 * d0…d4 sent to A (d0–d2 created there, d3 refused, d4 failed); d5 never sent; d6 synced on A by a
 * version that kept no record of what it sent; d7 has errors. Returns the ids by name.
 */
async function seed() {
  const ids: Record<string, string> = {}
  for (let i = 0; i < 7; i++) ids[`d${i}`] = (await drafts.create(sku(`b${i}`), 1_000 - i)).id
  ids.d7 = (await drafts.create(sku('b7', { isActive: 'yes' }), 10)).id
  const outcomes: Record<string, ItemUpdate['state']> = { [ids.d3!]: 'rejected', [ids.d4!]: 'failed' }
  const first = await runs.enqueue('skus', {
    target: TO_A,
    ids: ['d0', 'd1', 'd2', 'd3', 'd4'].map((d) => ids[d]!),
  })
  expect(first.queued).toBe(5)
  await sendRun(first.run, (key) => outcomes[key] ?? 'synced')
  await setStanding(db.skuDrafts, ids.d6!, 'synced', A)
  return { ids, first: first.run }
}

describe('sync state per destination', () => {
  it('a draft synced on A is queued by a run to B, and not by a second run to A', async () => {
    const { ids } = await seed()
    expect(await stateOf(ids.d0!, A)).toBe('synced')
    expect(await stateOf(ids.d0!, B)).toBe('draft')

    // A second run to A takes only what was never sent there (d5); not the refused or failed ones
    // unless asked, nor the invalid one.
    const again = await runs.enqueue('skus', { target: TO_A })
    const queuedAgain = await db.syncItems.where('run').equals(again.run.id).toArray()
    expect(again.queued).toBe(1)
    expect(queuedAgain.map((item) => item.key)).toEqual([ids.d5])
    await sendRun(again.run)

    // Every draft d0 was synced on A: a run to B takes it.
    const toB = await runs.enqueue('skus', { target: TO_B, ids: [ids.d0!] })
    expect(toB).toMatchObject({ queued: 1, run: { destination: B } })
    expect(await stateOf(ids.d0!, B)).toBe('queued')
    // Its standing on A is untouched by the run to B.
    expect(await stateOf(ids.d0!, A)).toBe('synced')
    // Held by the run to B, it is offered nowhere else meanwhile.
    expect(
      (await runs.enqueue('skus', { target: target('https://third.example.com', 'third'), ids: [ids.d0!] }))
        .queued,
    ).toBe(0)
    await sendRun(toB.run)
    expect(await stateOf(ids.d0!, B)).toBe('synced')
    // And A still does not take it: it was created there.
    expect((await runs.enqueue('skus', { target: TO_A, ids: [ids.d0!] })).queued).toBe(0)
    // Each run wrote only its own destination's standing.
    const d0 = (await drafts.get(ids.d0!))!
    expect(Object.keys(d0.sync).sort()).toEqual([A, B].sort())
    expect(d0.sync[B]).toMatchObject({ run: toB.run.id, position: 0 })
  })

  it('records on each item exactly what was sent, which later edits do not change', async () => {
    const { ids, first } = await seed()
    const sentPayload = (await drafts.get(ids.d1!))!.payload
    const item = await selection.itemAt((await drafts.get(ids.d1!))!, A)
    expect(item).toMatchObject({ run: first.id, key: ids.d1, state: 'synced' })
    expect(item!.sent).toEqual(sentPayload)
    // Refused and failed items keep what was sent too.
    const refused = await selection.itemAt((await drafts.get(ids.d3!))!, A)
    expect(refused).toMatchObject({ state: 'rejected' })
    expect(refused!.sent).toEqual((await drafts.get(ids.d3!))!.payload)

    // A synced draft is edited afterwards: the item still holds what A received.
    await saveDraftPayload(db, 'skus', ids.d1!, sku('b1', { brand: 'Contoso' }))
    expect((await selection.itemAt((await drafts.get(ids.d1!))!, A))!.sent).toEqual(sentPayload)
    // Not sent there: no item.
    expect(await selection.itemAt((await drafts.get(ids.d5!))!, A)).toBeUndefined()
  })

  it('promotes what is synced on A and not sent to B, and compares it with what A received', async () => {
    const { ids } = await seed()
    expect(sorted(await selection.promotable('skus', A, B))).toEqual(
      sorted([ids.d0!, ids.d1!, ids.d2!, ids.d6!]),
    )
    // The other way: nothing is synced on B yet.
    expect(await selection.promotable('skus', B, A)).toEqual([])

    // d0 goes to B and is created there; d2 is taken by a run to B that has not sent it yet.
    const toB = await runs.enqueue('skus', { target: TO_B, ids: [ids.d0!] })
    await sendRun(toB.run)
    const holding = await runs.enqueue('skus', { target: TO_B, ids: [ids.d2!] })
    expect(holding.queued).toBe(1)
    expect(sorted(await selection.promotable('skus', A, B))).toEqual(sorted([ids.d1!, ids.d6!]))

    // d1 is edited after it was sent to A: a change, a removal, an addition, each at its path.
    const edited = sku('b1', { brand: 'Contoso' }) as Record<string, unknown>
    delete edited.productImage
    ;(edited.arEffect as { envSettings: Record<string, unknown> }).envSettings.intensity = 2.5
    ;(edited.meta as Record<string, unknown>).campaign = 'spring'
    await saveDraftPayload(db, 'skus', ids.d1!, edited as Sku)
    const comparison = await selection.compareWithSent('skus', A, [ids.d0!, ids.d1!, ids.d5!, ids.d6!])
    expect(comparison.changed.map((draft) => [draft.id, draft.label])).toEqual([[ids.d1, 'b1']])
    const changes = comparison.changed[0]!.changes
    expect(changes.map((change) => [change.path, change.kind]).sort()).toEqual(
      [
        ['brand', 'changed'],
        ['productImage', 'removed'],
        ['arEffect.envSettings.intensity', 'changed'],
        ['meta.campaign', 'added'],
      ].sort(),
    )
    expect(changes.find((change) => change.path === 'brand')).toMatchObject({
      before: 'Northwind Optics',
      after: 'Contoso',
    })
    expect(changes.find((change) => change.path === 'arEffect.envSettings.intensity')).toMatchObject({
      before: 1.2,
      after: 2.5,
    })
    // d0 is unchanged since (no difference); d5 was never sent to A (not compared); d6's sending
    // kept no payload: nothing to compare with, and said so.
    expect(comparison.unrecorded).toBe(1)
    // Unchanged on B too.
    expect(await selection.compareWithSent('skus', B, [ids.d0!])).toEqual({ changed: [], unrecorded: 0 })
  })

  it('the pre-flight of a selection counts each draft once, by its state at the destination', async () => {
    const { ids } = await seed()
    const holding = await runs.enqueue('skus', { target: TO_B, ids: [ids.d2!] })
    expect(holding.queued).toBe(1)
    const everyDraft = Object.values(ids)
    expect(await selection.preflightOf('skus', A, [...everyDraft, 'gone', ids.d0!])).toEqual({
      ready: 1, // d5
      invalid: 1, // d7
      synced: 3, // d0, d1, d6
      unknown: 0,
      failed: 1, // d4
      rejected: 1, // d3
      inRun: 1, // d2, held by the run to B
    })
    expect(await selection.preflightOf('skus', B, everyDraft)).toEqual({
      ready: 6,
      invalid: 1,
      synced: 0,
      unknown: 0,
      failed: 0,
      rejected: 0,
      inRun: 1,
    })
    // The pre-flight of every draft says the same: a draft synced on A and held by a run to B is
    // not also subtracted as "held elsewhere" from what A would take.
    expect(await runs.preflight('skus', A)).toEqual({
      ready: 1,
      invalid: 1,
      synced: 4, // d2 too: it stands synced on A while B's run holds it
      unknown: 0,
      failed: 1,
      rejected: 1,
      inRun: 1,
    })
    expect(await runs.preflight('skus', B)).toEqual({
      ready: 6,
      invalid: 1,
      synced: 0,
      unknown: 0,
      failed: 0,
      rejected: 0,
      inRun: 1,
    })
  })

  it('the list finds what a promotion takes, and reads the sync state at its destination', async () => {
    const { ids } = await seed()
    const toB = await runs.enqueue('skus', { target: TO_B, ids: [ids.d0!] })
    await sendRun(toB.run, () => 'rejected')
    await runs.enqueue('skus', { target: TO_B, ids: [ids.d2!] })
    const matching = async (filters: ListFilters, destination: string) =>
      sorted(await list.ids({ ...defaultListQuery(), filters, destination }))

    // Synced on A, not sent to B: exactly the promotion.
    const promotion = sorted(await selection.promotable('skus', A, B))
    expect(promotion).toEqual(sorted([ids.d1!, ids.d6!]))
    expect(await matching({ syncState: 'draft', syncedAt: A }, B)).toEqual(promotion)

    // Synced at A is not synced at B.
    expect(await matching({ syncState: 'synced' }, A)).toEqual(sorted([ids.d0!, ids.d1!, ids.d2!, ids.d6!]))
    expect(await matching({ syncState: 'synced' }, B)).toEqual([])
    expect(await matching({ syncState: 'rejected' }, B)).toEqual([ids.d0])
    expect(await matching({ syncState: 'rejected' }, A)).toEqual([ids.d3])
    expect(await matching({ syncState: 'queued' }, B)).toEqual([ids.d2])
    // Not sent to A: the one never sent anywhere, and the one with errors.
    expect(await matching({ syncState: 'draft' }, A)).toEqual(sorted([ids.d5!, ids.d7!]))
    // The filters narrow with the others: search and columns.
    expect(await matching({ syncState: 'draft', syncedAt: A, validity: 'valid' }, B)).toEqual(promotion)
    const { d6 } = ids
    expect(
      sorted(
        await list.ids({
          ...defaultListQuery(),
          search: 'b6',
          filters: { syncState: 'draft', syncedAt: A },
          destination: B,
        }),
      ),
    ).toEqual([d6])
  })
})
