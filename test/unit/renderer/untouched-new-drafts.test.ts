import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppDraftRepository } from '#renderer/db/app-drafts.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { newDraftRecord, SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { isUntouchedNew } from '#renderer/db/untouched-new.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { EMPTY_GAP } from '#shared/sync/send-gates.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { validityOfCounts } from '#shared/validation/problem.ts'
import { setStanding } from './standings.ts'

// A "New SKU" or "New app" is marked as it is made; while it is never saved and sent nowhere,
// leaving its editor discards it, and so does the startup sweep (a window closed or crashed on
// it), unless an editor holds it open. One typed into, even cleared again, stays.

let name = ''
let db: CatalogDatabase

beforeEach(() => {
  name = `catalog-desk-test-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

/** Lets every draft go, as when no editor holds one open. */
const free = (_id: string, work: () => Promise<boolean>) => work()

describe('untouched new drafts', () => {
  it('a new SKU is marked, and is on the gaps index as empty (where the sweep finds it)', async () => {
    const skus = new SkuDraftRepository(db)
    const made = await skus.create(newSkuPayload(), 1000)
    const stored = await db.skuDrafts.get(made.id)
    expect(stored).toMatchObject({ untouchedNew: true })
    expect(isUntouchedNew(stored!)).toBe(true)
    expect(await db.skuDrafts.where('gaps').equals(EMPTY_GAP).primaryKeys()).toEqual([made.id])
  })

  it('the sweep deletes new SKUs left untouched, and keeps typed, sent, imported, open and kept ones', async () => {
    const skus = new SkuDraftRepository(db)
    const untouched = await skus.create(newSkuPayload(), 1000)
    const typed = await skus.create(newSkuPayload(), 1000)
    const sent = await skus.create(newSkuPayload(), 1000)
    const open = await skus.create(newSkuPayload(), 1000)
    const kept = await skus.create(newSkuPayload(), 1000)
    // Typed into and cleared again: saved, so never taken for untouched.
    await saveDraftPayload(db, 'skus', typed.id, { ...newSkuPayload(), productName: 'x' }, 2000)
    await saveDraftPayload(db, 'skus', typed.id, newSkuPayload(), 3000)
    await setStanding(db.skuDrafts, sent.id, 'synced')
    // An import's empty row is a draft like a new one, but not marked: never swept.
    const imported = newDraftRecord(newSkuPayload(), 1000, draftColumns(newSkuPayload()))
    await db.skuDrafts.add(imported)
    await db.assetChecks.put({ id: untouched.id, checkedAt: 1, status: 'ok', assets: [] })

    const asked: string[] = []
    const deleted = await skus.sweepUntouchedNew(async (id, work) => {
      asked.push(id)
      return id === open.id ? false : work()
    }, kept.id)

    expect(deleted).toBe(1)
    expect(asked.sort()).toEqual([untouched.id, open.id].sort())
    expect((await db.skuDrafts.toArray()).map((draft) => draft.id).sort()).toEqual(
      [typed.id, sent.id, open.id, kept.id, imported.id].sort(),
    )
    expect(await db.assetChecks.get(untouched.id)).toBeUndefined()
  })

  it('discarding by the mark leaves any draft saved since alone', async () => {
    const skus = new SkuDraftRepository(db)
    const untouched = await skus.create(newSkuPayload(), 1000)
    const typed = await skus.create(newSkuPayload(), 1000)
    await saveDraftPayload(db, 'skus', typed.id, { ...newSkuPayload(), brand: 'Northwind' }, 2000)
    expect(await skus.discardUntouchedNew(typed.id)).toBe(false)
    expect(await skus.discardUntouchedNew(untouched.id)).toBe(true)
    expect(await skus.discardUntouchedNew('gone')).toBe(false)
  })

  it('the sweep deletes new apps left untouched; a duplicate and its original are kept', async () => {
    const apps = new AppDraftRepository(db)
    const untouched = await apps.create(undefined, 1000)
    const typed = await apps.create(undefined, 1000)
    const original = await apps.create(undefined, 1000)
    await saveDraftPayload(db, 'apps', typed.id, { ...typed.payload, name: 'Glow' }, 2000)
    const copy = await apps.duplicate(original.id, 1500)

    expect(await apps.sweepUntouchedNew(free)).toBe(1)
    expect((await apps.all()).map((draft) => draft.id).sort()).toEqual(
      [typed.id, original.id, copy.id].sort(),
    )
    expect(await apps.discardUntouchedNew(original.id)).toBe(false)
    expect(untouched.id).not.toBe(copy.id)
  })

  it('the app being opened (a reload of its editor) is kept by the sweep, and discarded by the mark on leaving', async () => {
    const apps = new AppDraftRepository(db)
    const opened = await apps.create(undefined, 1000)
    expect(await apps.sweepUntouchedNew(free, opened.id)).toBe(0)
    expect(await apps.discardUntouchedNew(opened.id)).toBe(true)
  })
})

describe('validityOfCounts', () => {
  it('names counts of problems as the list does: errors first, then missing fields', () => {
    expect(validityOfCounts({ errors: 1, warnings: 3 })).toBe('invalid')
    expect(validityOfCounts({ errors: 0, warnings: 3 })).toBe('warnings')
    expect(validityOfCounts({ errors: 0, warnings: 0 })).toBe('valid')
  })
})

describe('discarding an untouched new draft', () => {
  it('deletes a SKU draft never saved since it was made, and nothing else', async () => {
    const skus = new SkuDraftRepository(db)
    const untouched = await skus.create(newSkuPayload(), 1000)
    const typed = await skus.create(newSkuPayload(), 1000)
    const sent = await skus.create(newSkuPayload(), 1000)
    // Typed into and cleared again: saved twice, back to what it was.
    await saveDraftPayload(db, 'skus', typed.id, { ...newSkuPayload(), productName: 'x' }, 2000)
    await saveDraftPayload(db, 'skus', typed.id, newSkuPayload(), 3000)
    await setStanding(db.skuDrafts, sent.id, 'synced')

    expect(await skus.discardUntouchedNew(untouched.id)).toBe(true)
    expect(await skus.discardUntouchedNew(typed.id)).toBe(false)
    expect(await skus.discardUntouchedNew(sent.id)).toBe(false)
    expect(await skus.discardUntouchedNew('gone')).toBe(false)
    expect((await db.skuDrafts.toArray()).map((draft) => draft.id).sort()).toEqual([typed.id, sent.id].sort())
  })

  it('deletes an app draft never saved since it was made, and keeps one typed into', async () => {
    const apps = new AppDraftRepository(db)
    const untouched = await apps.create(undefined, 1000)
    const typed = await apps.create(undefined, 1000)
    await saveDraftPayload(db, 'apps', typed.id, { ...typed.payload, name: 'Glow' }, 2000)

    expect(await apps.discardUntouchedNew(untouched.id)).toBe(true)
    expect(await apps.discardUntouchedNew(typed.id)).toBe(false)
    expect((await apps.all()).map((draft) => draft.id)).toEqual([typed.id])
  })
})
