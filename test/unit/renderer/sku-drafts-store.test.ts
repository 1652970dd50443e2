import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '../../../src/renderer/src/db/index.ts'
import { useSkuDraftsStore } from '../../../src/renderer/src/stores/sku-drafts.ts'

beforeEach(async () => {
  setActivePinia(createPinia())
  await db.skuDrafts.clear()
})

describe('the SKU drafts store', () => {
  it('creates a new draft that warns about what is left to fill in, and lists it', async () => {
    const store = useSkuDraftsStore()
    const id = await store.create()
    expect(store.total).toBe(1)
    expect(store.rows.map((row) => row.id)).toEqual([id])
    const [row] = store.rows
    expect(row?.validity).toBe('warnings')
    expect(row?.errorCount).toBe(0)
    expect(row?.payload.arEffect?.effectAssets2D).toEqual([null, null, null, null, null, null, null])
  })

  it('narrows the rows to a search and counts every draft', async () => {
    const store = useSkuDraftsStore()
    const first = await store.create()
    await store.create()
    const record = await db.skuDrafts.get(first)
    await db.skuDrafts.put({ ...record!, productName: 'Round Blue', terms: ['round', 'blue'] })
    await store.search('blu')
    expect(store.rows.map((row) => row.id)).toEqual([first])
    expect(store.total).toBe(2)
    await store.remove(first)
    expect(store.rows).toEqual([])
    expect(store.total).toBe(1)
  })
})
