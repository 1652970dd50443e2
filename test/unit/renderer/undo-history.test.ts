import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { SkuBulkEdits } from '#renderer/db/sku-bulk-edits.ts'
import { newDraftRecord, SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { SkuImportWrites } from '#renderer/db/sku-import-writes.ts'
import { MAX_ACTIONS, SkuUndoLog, UndoRefusal, type UndoBudget } from '#renderer/db/sku-undo-log.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import type { Sku } from '#shared/schema/sku.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { setStanding } from './standings.ts'
import { actionLabel, namedActions } from '#renderer/words/undo.ts'

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let undoLog: SkuUndoLog
let bulk: SkuBulkEdits

/** A database with the undo log and bulk edits over it, within `budget` when given. */
function open(budget?: UndoBudget) {
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  undoLog = new SkuUndoLog(db, budget)
  bulk = new SkuBulkEdits(db, undoLog)
}

beforeEach(() => {
  name = `catalog-desk-undo-${crypto.randomUUID()}`
  open()
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (barcode: string, productName: string): Sku =>
  ({ ...structuredClone(full), barcode, productName }) as Sku

const everything = () => db.skuDrafts.orderBy('id').toArray()
/** The history as a person reads it, newest first: the words made from each action's key. */
const labels = async () => namedActions(await undoLog.history()).map((action) => action.label)

/** `n` drafts never sent, created at time 1000. */
async function seed(n: number): Promise<{ ids: string[]; before: SkuDraftRecord[] }> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push((await drafts.create(sku(`400${i}`, `Draft ${i}`), 1000)).id)
  return { ids, before: await everything() }
}

describe('the undo history', () => {
  it('lists several actions newest first and undoes them one by one, back to where they began', async () => {
    const { ids, before } = await seed(4)
    await bulk.setField(ids, 'category', 'makeup', { now: 2000 })
    await bulk.duplicate(ids.slice(0, 2), { now: 3000 })
    await bulk.delete(ids.slice(2))
    expect(await labels()).toEqual(['Deleted 2 drafts', 'Duplicated 2 drafts', 'Set Category on 4 drafts'])
    expect((await undoLog.history()).map(({ kind, count }) => [kind, count])).toEqual([
      ['delete', 2],
      ['duplicate', 2],
      ['set-field', 4],
    ])

    expect(await undoLog.undoLatest()).toEqual({
      actions: 1,
      result: { restored: 2, removed: 0, keptEdited: 0, keptSent: 0 },
      removedIds: [],
    })
    expect(await labels()).toEqual(['Duplicated 2 drafts', 'Set Category on 4 drafts'])
    expect(await db.skuDrafts.count()).toBe(6)
    expect((await undoLog.undoLatest())?.result).toMatchObject({ removed: 2 })
    expect((await undoLog.undoLatest())?.result).toMatchObject({ restored: 4 })
    expect(await everything()).toEqual(before)
    expect(await undoLog.history()).toEqual([])
    expect(await db.skuUndo.count()).toBe(0)
    expect(await undoLog.undoLatest()).toBeUndefined()
  })

  it('undoes a field set and then a delete of the same drafts newest first: the drafts are as before both', async () => {
    const { ids, before } = await seed(3)
    const setting = await bulk.setField(ids, 'brand', 'Contoso', { now: 2000 })
    const deleting = await bulk.delete(ids.slice(0, 2))
    expect(await db.skuDrafts.count()).toBe(1)

    // The delete first: the drafts come back as the field set left them…
    await undoLog.undoLatest()
    expect((await drafts.get(ids[0]!))?.brand).toBe('Contoso')
    expect(await undoLog.latestBatch()).toBe(setting.batch)
    // …then the field set: as they were before it.
    await undoLog.undoLatest()
    expect(await everything()).toEqual(before)

    // The same in one go from the older action: the newer one is undone first.
    const again = await bulk.setField(ids, 'brand', 'Contoso', { now: 4000 })
    await bulk.delete(ids.slice(0, 2))
    // Each draft counts once: three drafts came back, two of them through both undos.
    expect(await undoLog.undoThrough(again.batch)).toEqual({
      actions: 2,
      result: { restored: 3, removed: 0, keptEdited: 0, keptSent: 0 },
      removedIds: [],
    })
    expect(await everything()).toEqual(before)
    expect(deleting.batch).not.toBe(again.batch)
  })

  it('counts each draft once when the actions undone went through it more than once', async () => {
    const { ids, before } = await seed(3)
    const copying = await bulk.duplicate(ids, { now: 2000 })
    await bulk.setField(copying.ids, 'brand', 'Contoso', { now: 3000 })
    // The field set's undo puts the copies back as they were copied, then the duplicate's removes
    // them: three drafts, not "3 restored" and "3 removed".
    expect(await undoLog.undoThrough(copying.batch)).toEqual({
      actions: 2,
      result: { restored: 0, removed: 3, keptEdited: 0, keptSent: 0 },
      removedIds: expect.arrayContaining(copying.ids),
    })
    expect(await everything()).toEqual(before)
  })

  it('never puts back from an older action a draft a newer one deleted, nor undoes one without the other', async () => {
    const { ids } = await seed(2)
    const setting = await bulk.setField(ids, 'brand', 'Contoso', { now: 2000 })
    await bulk.delete([ids[0]!])
    // Going back to the older action undoes the newer first, in one transaction: all or nothing.
    db.skuDrafts.hook('creating', () => {
      throw new Error('the disk is full')
    })
    await expect(undoLog.undoThrough(setting.batch)).rejects.toThrow(/disk is full/)
    expect(await drafts.get(ids[0]!)).toBeUndefined()
    expect((await drafts.get(ids[1]!))?.brand).toBe('Contoso')
    expect(await labels()).toEqual(['Deleted 1 draft', 'Set Brand on 2 drafts'])
  })

  it('keeps drafts edited or queued since any of the actions undone, level after level', async () => {
    const { ids, before } = await seed(3)
    const [edited, queued, plain] = ids as [string, string, string]
    await bulk.setField(ids, 'brand', 'Contoso', { now: 2000 })
    await bulk.setField(ids, 'category', 'makeup', { now: 3000 })
    await saveDraftPayload(db, 'skus', edited, sku('4000', 'Typed by hand'), 4000)
    await setStanding(db.skuDrafts, queued, 'queued')

    expect((await undoLog.undoLatest())?.result).toEqual({
      restored: 1,
      removed: 0,
      keptEdited: 1,
      keptSent: 1,
    })
    // The older action does not take them back either: they are not as it left them.
    expect((await undoLog.undoLatest())?.result).toEqual({
      restored: 1,
      removed: 0,
      keptEdited: 1,
      keptSent: 1,
    })
    expect((await drafts.get(edited))?.productName).toBe('Typed by hand')
    expect(await drafts.get(queued)).toMatchObject({ brand: 'Contoso', category: 'makeup' })
    expect(await drafts.get(plain)).toEqual(before.find((draft) => draft.id === plain))
  })

  it('adds nothing for an action that changed nothing', async () => {
    const { ids } = await seed(1)
    await bulk.setField(ids, 'category', 'makeup')
    await bulk.setField(ids, 'category', 'makeup')
    await bulk.delete([crypto.randomUUID()])
    expect(await labels()).toEqual(['Set Category on 1 draft'])
  })

  it(`keeps at most ${MAX_ACTIONS} actions, dropping the oldest with their entries`, async () => {
    const { ids } = await seed(1)
    const first = await bulk.setField(ids, 'productName', 'Name 0')
    for (let i = 1; i <= MAX_ACTIONS; i++) await bulk.setField(ids, 'productName', `Name ${i}`)
    const history = await undoLog.history()
    expect(history).toHaveLength(MAX_ACTIONS)
    expect(actionLabel(history[0]!)).toBe('Set Product name on 1 draft')
    expect(history.some((action) => action.batch === first.batch)).toBe(false)
    expect(await db.skuUndo.where('batch').equals(first.batch).count()).toBe(0)
    expect(await db.skuUndo.count()).toBe(MAX_ACTIONS)
    await expect(undoLog.undoThrough(first.batch)).rejects.toThrow(UndoRefusal)
  })

  it('keeps at most the budget of whole drafts, the newest action whole whatever its size', async () => {
    db.close()
    open({ actions: MAX_ACTIONS, keptDrafts: 4 })
    const { ids } = await seed(6)
    await bulk.setField(ids.slice(0, 2), 'brand', 'One')
    await bulk.duplicate(ids) // copies keep only ids: nothing of the budget
    await bulk.setField(ids.slice(0, 2), 'brand', 'Two')
    expect(await labels()).toEqual(['Set Brand on 2 drafts', 'Duplicated 6 drafts', 'Set Brand on 2 drafts'])

    // Two more whole drafts: six kept, more than four, so the oldest field set goes.
    await bulk.delete(ids.slice(4))
    expect(await labels()).toEqual(['Deleted 2 drafts', 'Set Brand on 2 drafts', 'Duplicated 6 drafts'])

    // Alone beyond the budget, the newest is still kept whole; everything older goes.
    await bulk.setField(ids.slice(0, 4), 'category', 'makeup')
    await bulk.setField(ids.slice(0, 4), 'category', 'eyewear')
    expect(await labels()).toEqual(['Set Category on 4 drafts'])
    expect(await db.skuUndo.count()).toBe(4)
    expect((await undoLog.undoLatest())?.result).toMatchObject({ restored: 4 })
    expect((await drafts.get(ids[0]!))?.category).toBe('makeup')
  })

  it('survives closing and reopening the database (a restart)', async () => {
    const { ids, before } = await seed(2)
    await bulk.setField(ids, 'brand', 'Contoso')
    await bulk.delete(ids)
    db.close()
    open()
    expect(await labels()).toEqual(['Deleted 2 drafts', 'Set Brand on 2 drafts'])
    const [, oldest] = await undoLog.history()
    expect((await undoLog.undoThrough(oldest!.batch)).actions).toBe(2)
    expect(await everything()).toEqual(before)
  })
})

describe('an import in the undo history', () => {
  const importRows = async (imports: SkuImportWrites, rows: Sku[], fail = false) => {
    const batch = await imports.beginImport('shop.csv')
    await imports.importChunk(batch, rows.slice(0, 2), { duplicates: 'update', existingByBarcode: new Map() })
    // Until its last chunk, it is not in the history: nothing undoes it from under its own writes.
    expect((await undoLog.history()).filter((action) => action.kind === 'import')).toEqual([])
    if (fail) {
      await imports.abortImport(batch)
      return batch
    }
    await imports.importChunk(batch, rows.slice(2), {
      duplicates: 'update',
      existingByBarcode: new Map(),
      last: true,
    })
    imports.finishImport(batch)
    return batch
  }

  it('is listed by its file and rows once written, and undone like any action', async () => {
    const { before } = await seed(1)
    const imports = new SkuImportWrites(db, undoLog)
    await importRows(imports, [sku('1', 'A'), sku('2', 'B'), sku('3', 'C')])
    expect(await undoLog.history()).toMatchObject([
      { kind: 'import', name: { key: 'import', file: 'shop.csv' }, count: 3 },
    ])
    expect(await labels()).toEqual(['Imported 3 rows from shop.csv'])
    expect((await undoLog.undoLatest())?.result).toMatchObject({ removed: 3 })
    expect(await everything()).toEqual(before)
  })

  it('leaves no entry when rolled back by its own code (cancelled, failed), nor when it wrote nothing', async () => {
    const { ids } = await seed(1)
    await bulk.setField(ids, 'brand', 'Contoso')
    const imports = new SkuImportWrites(db, undoLog)
    await importRows(imports, [sku('1', 'A'), sku('2', 'B'), sku('3', 'C')], true)
    expect(await labels()).toEqual(['Set Brand on 1 draft'])

    const empty = await imports.beginImport('empty.csv')
    imports.finishImport(empty)
    expect(await labels()).toEqual(['Set Brand on 1 draft'])
  })

  it('refuses to undo past an import still writing', async () => {
    const { ids } = await seed(1)
    const setting = await bulk.setField(ids, 'brand', 'Contoso')
    const imports = new SkuImportWrites(db, undoLog)
    const batch = await imports.beginImport('shop.csv')
    await imports.importChunk(batch, [sku('1', 'A')], { duplicates: 'update', existingByBarcode: new Map() })
    await expect(undoLog.undoThrough(setting.batch)).rejects.toThrow(/still being written/)
    await expect(undoLog.undoLatest()).rejects.toThrow(/still being written/)
    await imports.abortImport(batch)
    expect((await undoLog.undoLatest())?.actions).toBe(1)
  })
})

describe('the upgrade to the undo history (schema version 8)', () => {
  /** A version 7 database, as the app left it before the history: the last action's entries only. */
  async function version7(entries: (draft: SkuDraftRecord) => object[]): Promise<SkuDraftRecord> {
    db.close()
    await Dexie.delete(name)
    const v7 = new Dexie(name)
    v7.version(7).stores({
      skuDrafts:
        'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms, *gaps',
      appDrafts: 'id, updatedAt, name, *standing',
      skuUndo: '[batch+id], batch',
      syncRuns: 'id, createdAt, state, destination',
      syncItems: '[run+position], [run+state+position], [run+key], key',
      syncRequests: 'id, [runId+startedAt]',
      assetChecks: 'id, status, checkedAt',
    })
    const draft = newDraftRecord(sku('1', 'Kept'), 1000)
    await v7.table('skuUndo').bulkAdd(entries(draft))
    v7.close()
    return draft
  }

  it('keeps the last delete undoable, named from its entries', async () => {
    const draft = await version7((deleted) => [{ batch: 'old', id: deleted.id, before: deleted }])
    open()
    expect(await undoLog.history()).toMatchObject([
      // Dated by the draft it deleted (edited at 1000): a delete wrote no time of its own.
      { batch: 'old', kind: 'delete', name: { key: 'delete' }, count: 1, kept: 1, at: 1000 },
    ])
    expect(await labels()).toEqual(['Deleted 1 draft'])
    expect((await undoLog.undoLatest())?.result).toMatchObject({ restored: 1 })
    expect(await drafts.get(draft.id)).toEqual({ ...draft, teamWaiting: 1 })
    expect(await undoLog.history()).toEqual([])
  })

  it('names a field set and an import by what their entries hold', async () => {
    await version7((draft) => [
      { batch: 'set', id: draft.id, before: draft, writtenAt: 2000 },
      { batch: 'import', id: '~created:x', created: ['a', 'b'], writtenAt: 3000 },
      { batch: 'copies', id: 'c' },
    ])
    open()
    const byBatch = Object.fromEntries(
      namedActions(await undoLog.history()).map((action) => [action.batch, action]),
    )
    expect(byBatch.set).toMatchObject({ kind: 'set-field', label: 'Changed a field on 1 draft', at: 2000 })
    expect(byBatch.import).toMatchObject({ kind: 'import', label: 'Imported 2 rows', count: 2, kept: 0 })
    expect(byBatch.copies).toMatchObject({ kind: 'duplicate', label: 'Duplicated 1 draft' })
  })
})

describe('the upgrade to named actions (schema version 12)', () => {
  /** A version 11 database whose undo history kept each action's words, as the app wrote them. */
  async function version11(actions: { batch: string; kind: string; label: string; count: number }[]) {
    db.close()
    await Dexie.delete(name)
    const v11 = new Dexie(name)
    v11.version(11).stores({
      skuDrafts:
        'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms, *gaps',
      appDrafts: 'id, updatedAt, name, *standing',
      skuUndo: '[batch+id], batch',
      skuActions: '++seq, &batch',
      syncRuns: 'id, createdAt, state, destination',
      syncItems: '[run+position], [run+state+position], [run+key], key',
      syncRequests: 'id, [runId+startedAt]',
      assetChecks: 'id, status, checkedAt',
    })
    await v11.table('skuActions').bulkAdd(actions.map((action, i) => ({ ...action, at: 1000 + i, kept: 0 })))
    v11.close()
    open()
  }

  const OLD_LABELS = [
    ['set-field', 'Set Brand on 3 drafts', 3],
    ['set-field', 'Removed Category from 1,200 drafts', 1200],
    [
      'set-field',
      'Replaced “https://old-cdn/” with “https://cdn.example.net/” at the start of Model address of 3D asset 1 on 2 drafts',
      2,
    ],
    ['set-field', 'Replaced “Contoso” with “Fabrikam” in Brand on 1 draft', 1],
    ['set-field', 'Changed a field on 4 drafts', 4],
    ['duplicate', 'Duplicated 1 draft', 1],
    ['delete', 'Deleted 2 drafts', 2],
    ['import', 'Imported 300 rows from shop.csv', 300],
    ['import', 'Imported 1 row', 1],
  ] as const

  it('turns each stored label into its key, and the history reads as before', async () => {
    await version11(OLD_LABELS.map(([kind, label, count], i) => ({ batch: `b${i}`, kind, label, count })))
    const history = (await undoLog.history()).reverse()
    expect(history.map((action) => action.name)).toEqual([
      { key: 'set-field', path: 'brand', removed: false },
      { key: 'set-field', path: 'category', removed: true },
      {
        key: 'replace',
        path: 'arEffect.effectAssets3D.0.url',
        find: 'https://old-cdn/',
        replace: 'https://cdn.example.net/',
        mode: 'start',
      },
      { key: 'replace', path: 'brand', find: 'Contoso', replace: 'Fabrikam', mode: 'text' },
      { key: 'changed-field' },
      { key: 'duplicate' },
      { key: 'delete' },
      { key: 'import', file: 'shop.csv' },
      { key: 'import' },
    ])
    expect(history.every((action) => !('label' in action))).toBe(true)
    expect(history.map((action) => actionLabel(action))).toEqual(OLD_LABELS.map(([, label]) => label))
  })

  it('keeps a label no key reads word for word, never losing it', async () => {
    const unread = [
      // No such field, a count that is not the action's, a find text holding the pattern's words.
      { batch: 'a', kind: 'set-field', label: 'Set Mood on 3 drafts', count: 3 },
      { batch: 'b', kind: 'delete', label: 'Deleted 2 drafts', count: 5 },
      {
        batch: 'c',
        kind: 'set-field',
        label: 'Replaced “a” with “b” in Brand” with “c” in Brand on 1 draft',
        count: 1,
      },
      { batch: 'd', kind: 'import', label: 'Something else entirely', count: 7 },
    ]
    await version11(unread)
    const history = (await undoLog.history()).reverse()
    expect(history.map((action) => action.name)).toEqual(
      unread.map(({ label }) => ({ key: 'other', text: label })),
    )
    expect(await labels()).toEqual(unread.map(({ label }) => label).reverse())
    // And each is still undone as the action it was.
    expect((await undoLog.undoLatest())?.actions).toBe(1)
  })
})
