import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuBulkEdits } from '#renderer/db/sku-bulk-edits.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { defaultListQuery } from '#renderer/db/sku-list-query.ts'
import { SkuListReader } from '#renderer/db/sku-list-reader.ts'
import { SkuUndoLog } from '#renderer/db/sku-undo-log.ts'
import type { Sku } from '#shared/schema/sku.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import partial from '../../fixtures/sku-partial-meta.json'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { standingTag, stateAt } from '#shared/sync/standing.ts'
import { DEST, setStanding } from './standings.ts'

const copy = <T>(value: T): T => structuredClone(value)
let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository

beforeEach(() => {
  name = `catalog-desk-test-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

describe('SKU drafts in IndexedDB', () => {
  it('keeps the payload exactly as written, unknown fields included', async () => {
    const payload: Sku = {
      ...copy(full),
      collectionIds: ['summer'],
      arEffect: {
        ...copy(full.arEffect),
        envSettings: { ...copy(full.arEffect.envSettings), SSAOSettings: { on: 1 } },
      },
    }
    const created = await drafts.create(copy(payload))
    const stored = await drafts.get(created.id)
    expect(stored?.payload).toEqual(payload)
    expect(stored).toMatchObject({
      productName: 'Aviator Classic Gold 58',
      brand: 'Northwind Optics',
      barcode: '8901234567890',
      category: 'eyewear',
      subCategory: 'sunglasses',
      status: 'DRAFT',
      validity: 'valid',
      sync: {},
      standing: [],
    })
  })

  it('recomputes validity and the index columns on every save', async () => {
    const created = await drafts.create(copy(partial), 1000)
    // What a user may have typed: a wrong type and a missing field are still saved, and counted.
    const broken: Record<string, unknown> = { ...copy(partial), brand: 'Contoso', isActive: 'yes' }
    delete broken.productName
    const saved = await saveDraftPayload(db, 'skus', created.id, broken as Sku, 2000)
    expect(saved).toMatchObject({
      validity: 'invalid',
      errorCount: 1,
      warningCount: 1,
      brand: 'Contoso',
      updatedAt: 2000,
    })
    expect((await drafts.get(created.id))?.payload).toEqual(broken)
  })

  it('finds drafts by the start of any word of name, brand or barcode', async () => {
    await drafts.create(copy(full))
    await drafts.create(copy(partial))
    await drafts.create({ productName: 'Pearl Necklace', brand: 'Lumen', barcode: '400' })
    const names = async (query: string) => (await drafts.search(query)).map((d) => d.productName).sort()
    expect(await names('avi')).toEqual(['Aviator Classic Gold 58'])
    expect(await names('NORTHWIND')).toEqual(['Aviator Classic Gold 58', 'Kids Round Blue'])
    expect(await names('northwind round')).toEqual(['Kids Round Blue'])
    expect(await names('890123456790')).toEqual(['Kids Round Blue'])
    expect(await names('lumen')).toEqual(['Pearl Necklace'])
    expect(await names('zzz')).toEqual([])
    expect(await names('')).toHaveLength(3)
  })

  it('refuses to edit a draft a run holds; edits a synced one, clearing only its refusals', async () => {
    const created = await drafts.create(copy(full))
    for (const state of ['queued', 'sending'] as const) {
      await setStanding(db.skuDrafts, created.id, state)
      await expect(saveDraftPayload(db, 'skus', created.id, copy(partial))).rejects.toThrow(
        'This draft is being sent; edit it once its run has ended.',
      )
      expect((await drafts.get(created.id))?.payload).toEqual(full)
    }

    // Synced: editable now (what was sent there is kept with its run), and still synced there.
    await setStanding(db.skuDrafts, created.id, 'synced')
    await setStanding(db.skuDrafts, created.id, 'rejected', 'https://api.example.com')
    await setStanding(db.skuDrafts, created.id, 'failed', 'https://staging.example.com')
    const saved = await saveDraftPayload(db, 'skus', created.id, copy(partial), 3000)
    expect(saved.payload).toEqual(partial)
    expect(stateAt(saved.sync, DEST)).toBe('synced')
    expect(stateAt(saved.sync, 'https://staging.example.com')).toBe('failed')
    // The refusal at that destination is cleared by the edit: the draft may be sent there again.
    expect(stateAt(saved.sync, 'https://api.example.com')).toBe('draft')
    expect((await drafts.get(created.id))?.standing.sort()).toEqual(
      [standingTag(DEST, 'synced'), standingTag('https://staging.example.com', 'failed')].sort(),
    )
  })

  it('upgrades a version 1 database without losing drafts, and makes them searchable', async () => {
    db.close()
    await Dexie.delete(name)
    const v1 = new Dexie(name)
    v1.version(1).stores({
      skuDrafts: 'id, updatedAt, productName, brand, barcode, category, status, validity, syncState',
      appDrafts: 'id, updatedAt, name, syncState',
    })
    await v1.table('skuDrafts').add({
      id: 'old-1',
      payload: copy(partial),
      createdAt: 1,
      updatedAt: 1,
      validity: 'valid',
      errorCount: 0,
      warningCount: 0,
      syncState: 'draft',
      productName: 'Kids Round Blue',
      brand: 'Northwind Optics',
      barcode: '8901234567906',
      category: 'eyewear',
      status: 'DRAFT',
    })
    v1.close()

    db = new CatalogDatabase(name)
    drafts = new SkuDraftRepository(db)
    const [found] = await drafts.search('kids')
    expect(found?.id).toBe('old-1')
    expect(found?.subCategory).toBe('eyeglasses')
    expect(found?.payload).toEqual(partial)
    expect(found).toMatchObject({ sync: {}, standing: [] })
    expect(found).not.toHaveProperty('syncState')
    // And by a part of its barcode (v11).
    expect((await drafts.search('4567906')).map((draft) => draft.id)).toEqual(['old-1'])
    expect(db.verno).toBe(14)
  })

  it('upgrades a version 2 database to version 3: drafts kept, listed, and bulk actions undoable', async () => {
    db.close()
    await Dexie.delete(name)
    const v2 = new Dexie(name)
    v2.version(1).stores({
      skuDrafts: 'id, updatedAt, productName, brand, barcode, category, status, validity, syncState',
      appDrafts: 'id, updatedAt, name, syncState',
    })
    v2.version(2).stores({
      skuDrafts:
        'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, syncState, *terms',
    })
    const old = {
      id: 'old-2',
      payload: copy(full),
      createdAt: 5,
      updatedAt: 6,
      validity: 'valid',
      errorCount: 0,
      warningCount: 0,
      syncState: 'draft',
      productName: 'Aviator Classic Gold 58',
      brand: 'Northwind Optics',
      barcode: '8901234567890',
      category: 'eyewear',
      subCategory: 'sunglasses',
      status: 'DRAFT',
      terms: ['aviator', 'classic', 'gold', '58', 'northwind', 'optics', '8901234567890'],
    }
    await v2.table('skuDrafts').add(old)
    v2.close()

    db = new CatalogDatabase(name)
    drafts = new SkuDraftRepository(db)
    // Carried up to today's version: a draft never sent stands nowhere, and the full SKU lacks nothing.
    const { syncState: _state, ...kept } = old
    // Its search words gain its barcode's parts (v11).
    const terms = [...old.terms, '#8901234567890', '#01234567890', '#234567890', '#4567890', '#67890']
    // Marked as waiting to be shared, should a team workspace be joined (db/team-waiting.ts).
    const upgraded = { ...kept, sync: {}, standing: [], gaps: [], terms, teamWaiting: 1 }
    const view = await new SkuListReader(db).open({ ...defaultListQuery(), search: 'north' })
    await view.load(0, 10)
    expect(view.cached(0)).toEqual(upgraded)
    expect(db.verno).toBe(14)
    expect(await db.skuUndo.count()).toBe(0)

    const undoLog = new SkuUndoLog(db)
    const deleted = await new SkuBulkEdits(db, undoLog).delete(['old-2'])
    expect(await drafts.count()).toBe(0)
    await undoLog.undo(deleted.batch)
    expect(await drafts.get('old-2')).toEqual(upgraded)
  })
})
