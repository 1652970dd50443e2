import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import {
  noRows,
  SkuImportWrites,
  type DuplicatePolicy,
  type RowFate,
} from '#renderer/db/sku-import-writes.ts'
import { SkuUndoLog } from '#renderer/db/sku-undo-log.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { DEST, setStanding } from './standings.ts'
import { standingTag } from '#shared/sync/standing.ts'

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let imports: SkuImportWrites
let undoLog: SkuUndoLog

beforeEach(() => {
  name = `catalog-desk-import-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  undoLog = new SkuUndoLog(db)
  imports = new SkuImportWrites(db, undoLog)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (barcode: string, productName: string): Sku =>
  ({ ...structuredClone(full), barcode, productName }) as Sku

const everything = () => db.skuDrafts.orderBy('id').toArray()
const names = async () => (await everything()).map((draft) => `${draft.barcode}:${draft.productName}`).sort()

/** Two editable drafts (barcodes 1 and 2) and one a sync run holds (barcode 3), created at time 1000. */
async function seed(): Promise<SkuDraftRecord[]> {
  await drafts.create(sku('1', 'Old one'), 1000)
  await drafts.create(sku('2', 'Old two'), 1000)
  const held = await drafts.create(sku('3', 'Old three'), 1000)
  await setStanding(db.skuDrafts, held.id, 'queued')
  return everything()
}

/**
 * Imports `rows` in chunks of `size` with one policy: each chunk once the one before it is written,
 * or (`together`) every chunk handed over at once, before any has committed, as the import worker
 * does with the next chunk while the database writes the last.
 */
async function importRows(rows: Sku[], duplicates: DuplicatePolicy, size = 2, together = false) {
  const existingByBarcode = await imports.findByBarcodes(rows.map((row) => String(row.barcode)))
  const batch = await imports.beginImport()
  const total = noRows()
  const fates: RowFate[] = []
  const writes: Array<ReturnType<SkuImportWrites['importChunk']>> = []
  for (let i = 0; i < rows.length; i += size) {
    const write = imports.importChunk(batch, rows.slice(i, i + size), {
      duplicates,
      existingByBarcode,
      now: 5000 + i,
    })
    writes.push(write)
    if (!together) await write
  }
  for (const result of await Promise.all(writes)) {
    for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += result[key]
    fates.push(...result.fates)
  }
  imports.finishImport(batch)
  return { batch, total, fates }
}

// Barcode 1 exists as a draft, 3 as a draft a run holds; 4 appears twice in the file; 5 is new.
const FILE = [
  sku('1', 'New one'),
  sku('4', 'Four A'),
  sku('3', 'New three'),
  sku('4', 'Four B'),
  sku('5', 'Five'),
]

describe('an import session', () => {
  it('writes chunk after chunk with derived columns, and undo of the batch removes them all', async () => {
    const before = await seed()
    const rows = Array.from({ length: 7 }, (_, i) => sku(`9${i}`, `Row ${i}`))
    const { batch, total } = await importRows(rows, 'skip', 3)
    expect(total).toEqual({
      created: 7,
      updated: 0,
      unchanged: 0,
      skippedDuplicates: 0,
      skippedDrafts: 0,
      skippedInRun: 0,
    })
    const row = (await everything()).find((draft) => draft.barcode === '93')!
    expect(row).toMatchObject({
      productName: 'Row 3',
      sync: {},
      standing: [],
      createdAt: 5003,
      updatedAt: 5003,
    })
    expect(row.terms).toContain('row')
    expect(['valid', 'warnings']).toContain(row.validity)

    expect(await undoLog.undo(batch)).toMatchObject({ removed: 7, restored: 0 })
    expect(await everything()).toEqual(before)
  })

  it('skip: leaves existing drafts and drops the later row of a barcode the file repeats', async () => {
    await seed()
    const { total } = await importRows(FILE, 'skip')
    expect(total).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      skippedDuplicates: 3,
      skippedDrafts: 0,
      skippedInRun: 0,
    })
    expect(await names()).toEqual(['1:Old one', '2:Old two', '3:Old three', '4:Four A', '5:Five'])
  })

  it('update: replaces editable drafts, leaves one a run holds, and the last row of a barcode wins', async () => {
    const before = await seed()
    const { batch, total } = await importRows(FILE, 'update')
    expect(total).toEqual({
      created: 2,
      updated: 2,
      unchanged: 0,
      skippedDuplicates: 0,
      skippedDrafts: 0,
      skippedInRun: 1,
    })
    expect(await names()).toEqual(['1:New one', '2:Old two', '3:Old three', '4:Four B', '5:Five'])
    const one = (await everything()).find((draft) => draft.barcode === '1')!
    expect(one.id).toBe(before.find((draft) => draft.barcode === '1')!.id)
    expect(one.createdAt).toBe(1000)

    // Undo puts the replaced draft back exactly, and removes what the import created.
    await undoLog.undo(batch)
    expect(await everything()).toEqual(before)
  })

  it('chunks handed over before the one before commits decide as if written one by one', async () => {
    const before = await seed()
    const skipped = await importRows(FILE, 'skip', 1, true)
    expect(skipped.total).toMatchObject({ created: 2, skippedDuplicates: 3 })
    expect(await names()).toEqual(['1:Old one', '2:Old two', '3:Old three', '4:Four A', '5:Five'])
    await undoLog.undo(skipped.batch)
    expect(await everything()).toEqual(before)

    // A draft the first chunk creates is updated by the second, and undo still removes it.
    const updated = await importRows(FILE, 'update', 1, true)
    expect(updated.total).toEqual({
      created: 2,
      updated: 2,
      unchanged: 0,
      skippedDuplicates: 0,
      skippedDrafts: 0,
      skippedInRun: 1,
    })
    expect(await names()).toEqual(['1:New one', '2:Old two', '3:Old three', '4:Four B', '5:Five'])
    await undoLog.undo(updated.batch)
    expect(await everything()).toEqual(before)
  })

  it('each row says what became of it and which draft it concerns', async () => {
    const before = await seed()
    const id = (barcode: string) => before.find((draft) => draft.barcode === barcode)!.id
    const skipped = await importRows(FILE, 'skip')
    const four = (await everything()).find((draft) => draft.barcode === '4')!.id
    expect(skipped.fates).toEqual([
      { kind: 'skippedDuplicates', draft: id('1') },
      { kind: 'created', draft: four },
      { kind: 'skippedDuplicates', draft: id('3') },
      { kind: 'skippedDuplicates', draft: four },
      { kind: 'created', draft: expect.any(String) as string },
    ])
    const updated = await importRows([sku('1', 'New one'), sku('3', 'New three')], 'update')
    expect(updated.fates).toEqual([
      { kind: 'updated', draft: id('1') },
      { kind: 'skippedInRun', draft: id('3') },
    ])
  })

  it('update: a row holding exactly its draft’s content writes nothing, held by a run or not, and is unchanged', async () => {
    const before = await seed()
    const same = before.map((draft) => structuredClone(draft.payload))
    // Key order does not make content differ.
    const reordered = Object.fromEntries(Object.entries(same[0]!).reverse()) as Sku
    const { batch, total, fates } = await importRows([reordered, same[1]!, same[2]!], 'update')
    expect(total).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      skippedDuplicates: 0,
      skippedDrafts: 0,
      skippedInRun: 0,
    })
    expect(fates.map((fate) => fate.draft)).toEqual(before.map((draft) => draft.id))
    expect(await everything()).toEqual(before)
    expect(await db.skuUndo.where('batch').equals(batch).count()).toBe(0)
  })

  it('update from a sheet: what no cell can tell apart (empty text or none) is no change', async () => {
    const before = await seed()
    const row = structuredClone(before.find((draft) => draft.barcode === '1')!.payload) as Record<
      string,
      unknown
    >
    // The draft has an empty organisation; its sheet row has none (an empty cell).
    expect(row.orgId).toBe('')
    delete row.orgId
    const exact = await importRows([row as Sku], 'update')
    expect(exact.total).toMatchObject({ updated: 1, unchanged: 0 })
    await undoLog.undo(exact.batch)

    const existingByBarcode = await imports.findByBarcodes(['1'])
    const batch = await imports.beginImport()
    const result = await imports.importChunk(batch, [row as Sku], {
      duplicates: 'update',
      existingByBarcode,
      reading: 'cells',
    })
    imports.finishImport(batch)
    expect(result).toMatchObject({ updated: 0, unchanged: 1 })
    expect(await everything()).toEqual(before)
  })

  it('a row of the app’s export updates the draft it names, even with a new barcode; one naming no draft is new', async () => {
    const before = await seed()
    const one = before.find((draft) => draft.barcode === '1')!
    const renamed = { ...structuredClone(one.payload), barcode: '11', productName: 'Renamed' } as Sku
    const rows = [renamed, sku('12', 'Gone draft')]
    const named = [one.id, 'a-draft-deleted-since']
    expect(
      (await imports.planUpdates([{ draft: one.id, fingerprint: 'x', valid: true }], 'cells')).map(
        (plan) => plan.unchanged,
      ),
    ).toEqual([false])
    const existingDrafts = await imports.existingDrafts(named)
    expect([...existingDrafts]).toEqual([one.id])
    const batch = await imports.beginImport()
    const result = await imports.importChunk(batch, rows, {
      duplicates: 'update',
      existingByBarcode: await imports.findByBarcodes(['11', '12']),
      named,
      existingDrafts,
    })
    imports.finishImport(batch)
    expect(result).toMatchObject({ created: 1, updated: 1 })
    expect(result.fates[0]).toEqual({ kind: 'updated', draft: one.id })
    expect(await names()).toEqual(['11:Renamed', '12:Gone draft', '2:Old two', '3:Old three'])
  })

  it('under “Skip them”, a row of the app’s export that names a draft you have is skipped as that, not as a barcode taken', async () => {
    // A tryout filled barcodes into its export and imported it with the preselected "Skip them":
    // told "the barcode is already taken" of barcodes no draft held.
    const before = await seed()
    const one = before.find((draft) => draft.barcode === '1')!
    const filled = { ...structuredClone(one.payload), barcode: '4006381333931' } as Sku
    const batch = await imports.beginImport()
    const result = await imports.importChunk(batch, [filled, sku('2', 'Old two again')], {
      duplicates: 'skip',
      existingByBarcode: await imports.findByBarcodes(['4006381333931', '2']),
      named: [one.id, undefined],
      existingDrafts: await imports.existingDrafts([one.id]),
    })
    imports.finishImport(batch)
    expect(result.fates).toEqual([
      { kind: 'skippedDrafts', draft: one.id },
      { kind: 'skippedDuplicates', draft: before.find((draft) => draft.barcode === '2')!.id },
    ])
    expect(await everything()).toEqual(before)
  })

  it('names a draft without a barcode has: rows of that name are added again, so the dry run says so', async () => {
    await seed()
    await drafts.create(sku('', 'Rouge Velours – Cerise'), 1000)
    const found = await imports.namesWithoutBarcode(['Rouge Velours – Cerise', 'Old one', 'Nowhere', ''])
    // "Old one" has a barcode: a row of that name without one is no copy of it that anyone can tell.
    expect([...found]).toEqual(['Rouge Velours – Cerise'])
  })

  it('planUpdates: unchanged by the draft a row names, else by its barcode', async () => {
    const before = await seed()
    const one = before.find((draft) => draft.barcode === '1')!
    const two = before.find((draft) => draft.barcode === '2')!
    const same = (payload: unknown) => payloadFingerprint(payload, 'cells')
    expect(
      await imports
        .planUpdates(
          [
            { draft: one.id, fingerprint: same(one.payload), valid: true },
            { barcode: '2', fingerprint: same(two.payload), valid: true },
            { barcode: '2', fingerprint: same({ ...two.payload, brand: 'Other' }), valid: true },
            { draft: 'no-such-draft', barcode: '2', fingerprint: same(two.payload), valid: false },
            { barcode: '99', fingerprint: same(two.payload), valid: true },
          ],
          'cells',
        )
        .then((plans) => plans.map((plan) => plan.unchanged)),
    ).toEqual([true, true, false, true, false])
  })

  it('update within one chunk: the later row takes the place of the earlier before anything is written', async () => {
    await seed()
    const { total } = await importRows([sku('7', 'First'), sku('7', 'Second')], 'update', 10)
    expect(total).toMatchObject({ created: 1, updated: 1 })
    expect(await names()).toEqual(['1:Old one', '2:Old two', '3:Old three', '7:Second'])
  })

  it('keep-both: adds every row as a new draft', async () => {
    await seed()
    const { total } = await importRows(FILE, 'keep-both')
    expect(total).toEqual({
      created: 5,
      updated: 0,
      unchanged: 0,
      skippedDuplicates: 0,
      skippedDrafts: 0,
      skippedInRun: 0,
    })
    expect(await db.skuDrafts.count()).toBe(8)
  })

  it('rows without a barcode are never duplicates', async () => {
    await seed()
    const { total } = await importRows([sku('', 'A'), sku('', 'B')], 'skip')
    expect(total.created).toBe(2)
  })

  it('abort restores drafts exactly, a draft updated twice included', async () => {
    const before = await seed()
    const existingByBarcode = await imports.findByBarcodes(['1'])
    const batch = await imports.beginImport()
    const options = { duplicates: 'update' as const, existingByBarcode }
    await imports.importChunk(batch, [sku('1', 'Update A'), sku('8', 'New')], { ...options, now: 2000 })
    await imports.importChunk(batch, [sku('1', 'Update B')], { ...options, now: 3000 })
    expect(await names()).toContain('1:Update B')

    expect(await imports.abortImport(batch)).toMatchObject({
      restored: 1,
      removed: 1,
      keptEdited: 0,
      keptSent: 0,
    })
    expect(await everything()).toEqual(before)
    expect(await db.skuUndo.count()).toBe(0)
    await expect(imports.importChunk(batch, [sku('9', 'Late')], options)).rejects.toThrow(/already ended/)
  })

  it('undo leaves drafts the person edited after the import, each counted once', async () => {
    await seed()
    // 4 is created by the first chunk and updated by the second; 5 only created.
    const { batch } = await importRows(FILE, 'update')
    const byBarcode = async (barcode: string) => (await everything()).find((d) => d.barcode === barcode)!
    await saveDraftPayload(db, 'skus', (await byBarcode('4')).id, sku('4', 'Edited by hand'), 9000)
    await saveDraftPayload(db, 'skus', (await byBarcode('5')).id, sku('5', 'Five, edited'), 9000)

    expect(await undoLog.undo(batch)).toEqual({ restored: 1, removed: 0, keptEdited: 2, keptSent: 0 })
    expect(await names()).toEqual([
      '1:Old one',
      '2:Old two',
      '3:Old three',
      '4:Edited by hand',
      '5:Five, edited',
    ])
    expect(await db.skuUndo.count()).toBe(0)
  })

  it('undo never reverts or removes a draft queued or sent since the import', async () => {
    await seed()
    const { batch } = await importRows(FILE, 'update')
    const byBarcode = async (barcode: string) => (await everything()).find((d) => d.barcode === barcode)!
    // Sync changes the state, not `updatedAt`: 1 (updated by the import) and 5 (created) were sent.
    await setStanding(db.skuDrafts, (await byBarcode('1')).id, 'synced')
    await setStanding(db.skuDrafts, (await byBarcode('5')).id, 'queued')

    expect(await undoLog.undo(batch)).toEqual({ restored: 0, removed: 1, keptEdited: 0, keptSent: 2 })
    expect(await names()).toEqual(['1:New one', '2:Old two', '3:Old three', '5:Five'])
  })

  it('keeps one undo entry a chunk for the drafts it created, however many', async () => {
    await seed()
    const rows = Array.from({ length: 9 }, (_, i) => sku(`6${i}`, `Row ${i}`))
    await importRows(rows, 'skip', 3)
    const entries = await db.skuUndo.toArray()
    expect(entries.map((entry) => entry.created?.length)).toEqual([3, 3, 3])
  })

  it('a failing chunk writes nothing of itself, and abort then rolls back the chunks before it', async () => {
    const before = await seed()
    const batch = await imports.beginImport()
    const options = { duplicates: 'update' as const, existingByBarcode: await imports.findByBarcodes(['2']) }
    await imports.importChunk(batch, [sku('2', 'Changed'), sku('10', 'Ten')], options)
    const spy = vi.spyOn(db.skuUndo, 'bulkPut').mockRejectedValueOnce(new Error('disk full'))
    await expect(imports.importChunk(batch, [sku('11', 'Eleven')], options)).rejects.toThrow('disk full')
    spy.mockRestore()
    expect(await names()).not.toContain('11:Eleven')

    await imports.abortImport(batch)
    expect(await everything()).toEqual(before)
  })

  it('finds drafts by barcode, preferring one no run holds, then one sent nowhere, then the latest', async () => {
    await seed()
    const heldThree = (await everything()).find((draft) => draft.barcode === '3')!
    const sentThree = await drafts.create(sku('3', 'Sent three'), 2000)
    await setStanding(db.skuDrafts, sentThree.id, 'synced')
    expect((await imports.findByBarcodes(['3'])).get('3')).toEqual({ id: sentThree.id })
    const editable = await drafts.create(sku('3', 'Editable three'), 500)
    const found = await imports.findByBarcodes(['1', '3', 'nope', ''])
    expect([...found.keys()].sort()).toEqual(['1', '3'])
    expect(found.get('3')).toEqual({ id: editable.id })

    // With only a draft a run holds, that one is found (and the import leaves it as it is).
    await db.skuDrafts.bulkDelete([editable.id, sentThree.id])
    expect((await imports.findByBarcodes(['3'])).get('3')).toEqual({ id: heldThree.id })
  })
})

describe('an import’s "update" of drafts sent before: the editor’s rule', () => {
  const OTHER = 'http://127.0.0.1:10'
  const changedTag = standingTag(DEST, 'changed')

  /** A draft created at `DEST`, what stands there recorded (its fingerprint), as a run leaves it. */
  async function createdThere(barcode: string, productName: string): Promise<SkuDraftRecord> {
    const record = await drafts.create(sku(barcode, productName), 1000)
    await setStanding(db.skuDrafts, record.id, 'synced', DEST, {
      sent: payloadFingerprint(record.payload),
      remoteId: `remote-${barcode}`,
    })
    return (await db.skuDrafts.get(record.id))!
  }

  /** A row as the dry run fingerprints it: read as a sheet, and exactly. */
  const rowOf = (payload: Sku) => ({
    barcode: String(payload.barcode),
    fingerprint: payloadFingerprint(payload, 'cells'),
    exact: payloadFingerprint(payload),
    valid: true,
  })

  it('updates a draft created somewhere: changed since sent there, as the dry run said; undo puts it back', async () => {
    const one = await createdThere('1', 'Sent one')
    expect(one.standing).not.toContain(changedTag)
    const before = await everything()
    const row = sku('1', 'Renamed in a sheet')

    expect(await imports.planUpdates([rowOf(row)], 'cells')).toEqual([
      { unchanged: false, inRun: false, draft: one.id, changedAt: [DEST] },
    ])
    const { batch, total, fates } = await importRows([row], 'update')
    expect(total).toMatchObject({ updated: 1, skippedInRun: 0 })
    expect(fates).toEqual([{ kind: 'updated', draft: one.id, changedAt: [DEST] }])
    const after = (await db.skuDrafts.get(one.id))!
    expect(after.productName).toBe('Renamed in a sheet')
    // Where it was created stays as it was; the index the Sync page counts updates on has it.
    expect(after.sync).toEqual(one.sync)
    expect(await db.skuDrafts.where('standing').equals(changedTag).primaryKeys()).toEqual([one.id])

    await undoLog.undo(batch)
    expect(await everything()).toEqual(before)
  })

  it('a row equal to the draft is unchanged; a row back to what was sent updates it, changed nowhere', async () => {
    const one = await createdThere('1', 'Sent one')
    await saveDraftPayload(db, 'skus', one.id, sku('1', 'Edited in the app'), 2000)
    expect((await db.skuDrafts.get(one.id))!.standing).toContain(changedTag)

    const same = sku('1', 'Edited in the app')
    expect(await imports.planUpdates([rowOf(same)], 'cells')).toEqual([
      { unchanged: true, inRun: false, draft: one.id, changedAt: [] },
    ])
    const unchanged = await importRows([same], 'update')
    expect(unchanged.total).toMatchObject({ updated: 0, unchanged: 1 })
    expect((await db.skuDrafts.get(one.id))!.updatedAt).toBe(2000)

    const asSent = sku('1', 'Sent one')
    expect((await imports.planUpdates([rowOf(asSent)], 'cells'))[0]!.changedAt).toEqual([])
    const back = await importRows([asSent], 'update')
    expect(back.fates).toEqual([{ kind: 'updated', draft: one.id }])
    const after = (await db.skuDrafts.get(one.id))!
    expect(after.productName).toBe('Sent one')
    expect(after.standing).not.toContain(changedTag)
  })

  it('forgets a refusal as an edit does, and leaves a draft a run holds as it is', async () => {
    const refused = await drafts.create(sku('1', 'Refused'), 1000)
    await setStanding(db.skuDrafts, refused.id, 'rejected', OTHER)
    const sending = await createdThere('2', 'Sent two')
    await setStanding(db.skuDrafts, sending.id, 'sending', OTHER)
    const held = (await db.skuDrafts.get(sending.id))!

    const plans = await imports.planUpdates([rowOf(sku('1', 'Fixed')), rowOf(sku('2', 'Changed'))], 'cells')
    expect(plans.map(({ inRun, changedAt }) => ({ inRun, changedAt }))).toEqual([
      { inRun: false, changedAt: [] },
      { inRun: true, changedAt: [] },
    ])
    const { total, fates } = await importRows([sku('1', 'Fixed'), sku('2', 'Changed')], 'update')
    expect(total).toMatchObject({ updated: 1, skippedInRun: 1 })
    expect(fates[1]).toEqual({ kind: 'skippedInRun', draft: sending.id })
    const fixed = (await db.skuDrafts.get(refused.id))!
    expect([fixed.productName, fixed.sync, fixed.standing]).toEqual(['Fixed', {}, []])
    expect(await db.skuDrafts.get(sending.id)).toEqual(held)
  })

  it('syncedKeys: the drafts created somewhere, by id and barcode, from the indexes', async () => {
    await seed()
    const one = await createdThere('7', 'Sent seven')
    const refused = await drafts.create(sku('8', 'Refused'), 1000)
    await setStanding(db.skuDrafts, refused.id, 'rejected')
    const keys = await imports.syncedKeys()
    expect([...keys.ids]).toEqual([one.id])
    expect([...keys.barcodes]).toEqual(['7'])
  })
})
