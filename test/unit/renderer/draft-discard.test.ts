import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppDraftRepository } from '#renderer/db/app-drafts.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/draft-kinds.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { setStanding } from './standings.ts'

// A "New SKU" (or new app) left without typing anything is discarded as the editor is left; one
// typed into, even cleared again, is a draft the person worked on, and stays.

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

    expect(await skus.discardUntouched(untouched.id)).toBe(true)
    expect(await skus.discardUntouched(typed.id)).toBe(false)
    expect(await skus.discardUntouched(sent.id)).toBe(false)
    expect(await skus.discardUntouched('gone')).toBe(false)
    expect((await db.skuDrafts.toArray()).map((draft) => draft.id).sort()).toEqual([typed.id, sent.id].sort())
  })

  it('deletes an app draft never saved since it was made, and keeps one typed into', async () => {
    const apps = new AppDraftRepository(db)
    const untouched = await apps.create(undefined, 1000)
    const typed = await apps.create(undefined, 1000)
    await saveDraftPayload(db, 'apps', typed.id, { ...typed.payload, name: 'Glow' }, 2000)

    expect(await apps.discardUntouched(untouched.id)).toBe(true)
    expect(await apps.discardUntouched(typed.id)).toBe(false)
    expect((await apps.all()).map((draft) => draft.id)).toEqual([typed.id])
  })
})
