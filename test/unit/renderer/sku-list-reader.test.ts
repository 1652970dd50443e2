import 'fake-indexeddb/auto'
import { cmp, Dexie } from 'dexie'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { SORT_KEYS, type ListQuery, type SortKey } from '#renderer/db/sku-list-query.ts'
import { SkuListReader } from '#renderer/db/sku-list-reader.ts'
import { SkuListMatching } from '#renderer/db/sku-list-matching.ts'
import { MatchOrder } from '#renderer/db/sku-list-match-order.ts'
import { PAGE_SIZE, type ListView } from '#renderer/db/sku-list-pages.ts'
import { searchTerms } from '#shared/search-terms.ts'
import { stateAt, withStanding } from '#shared/sync/standing.ts'
import type { ItemState } from '#shared/sync/ports.ts'

// 263 drafts: five pages and a partial one, with many ties in brand, category and status.
const COUNT = 263
const BRANDS = ['Northwind Optics', 'Contoso', 'Lumen', 'Fabrikam']
const CATEGORIES = ['eyewear', 'makeup', 'jewellery']
/** Two destinations the drafts were sent to: the active profile's (`STAGING`), and another. */
const STAGING = 'https://staging.example.com'
const PRODUCTION = 'https://api.example.com'
/** Where some drafts stand, by their place in the table: [every nth, destination, state]. */
const STANDINGS: Array<[number, string, ItemState]> = [
  [3, STAGING, 'synced'],
  [7, STAGING, 'rejected'],
  [11, STAGING, 'queued'],
  [5, PRODUCTION, 'synced'],
  [13, PRODUCTION, 'failed'],
]
const name = `catalog-desk-list-${crypto.randomUUID()}`
let db: CatalogDatabase
let reader: SkuListReader
let matching: SkuListMatching
let all: SkuDraftRecord[]

beforeAll(async () => {
  db = new CatalogDatabase(name)
  const drafts = new SkuDraftRepository(db)
  for (let i = 0; i < COUNT; i++) {
    await drafts.create(
      {
        productName: `${['Aviator', 'Round', 'Cat Eye'][i % 3]} ${['Gold', 'Blue'][i % 2]} ${i}`,
        brand: BRANDS[i % 4],
        barcode: String(8_900_000_000_000 + ((i * 7919) % COUNT)),
        category: CATEGORIES[i % 3],
        subCategory: i % 5 === 0 ? 'sunglasses' : 'eyeglasses',
        status: i % 4 === 0 ? 'PUBLISHED' : 'DRAFT',
        // Every tenth draft has an error, so validity has three values.
        ...(i % 10 === 0 ? { isActive: 'yes' as unknown as boolean } : {}),
      },
      // Some drafts share a time: ties in the default order too.
      1_000_000 + Math.floor(i / 2) * 1000,
    )
  }
  // Standings as runs leave them: written without an edit (`updatedAt` unchanged).
  const created = await db.skuDrafts.toArray()
  for (const [i, draft] of created.entries()) {
    let sync = draft.sync
    for (const [every, destination, state] of STANDINGS) {
      if (i % every === 0)
        sync = withStanding({ sync, payload: draft.payload }, destination, {
          state,
          run: 'r',
          position: i,
          at: 0,
        }).sync
    }
    await db.skuDrafts.put({ ...draft, ...withStanding({ sync, payload: draft.payload }, '-', undefined) })
  }
  all = await db.skuDrafts.toArray()
  reader = new SkuListReader(db)
  matching = new SkuListMatching(db)
})

afterAll(async () => {
  db.close()
  await Dexie.delete(name)
})

/** The order an index gives: by the column, ties by id; descending is the exact reverse. */
function reference(query: Partial<ListQuery>, records = all): string[] {
  const { search = '', filters = {}, sort = 'updatedAt', direction = 'desc', destination = STAGING } = query
  const words = searchTerms(search)
  const passes = (r: SkuDraftRecord, key: string, value: unknown) => {
    // The state at the query's destination; "synced at" another one.
    if (key === 'syncState') return stateAt(r.sync, destination) === value
    if (key === 'syncedAt') return stateAt(r.sync, value as string) === 'synced'
    return r[key as keyof SkuDraftRecord] === value
  }
  const matches = records.filter(
    (r) =>
      // A word's start, or four digits or more anywhere in the barcode.
      words.every(
        (word) =>
          r.terms.some((term) => term.startsWith(word)) ||
          (/^[0-9]{4,}$/.test(word) && r.barcode.includes(word)),
      ) && Object.entries(filters).every(([key, value]) => passes(r, key, value)),
  )
  matches.sort((a, b) => cmp(a[sort], b[sort]) || cmp(a.id, b.id))
  if (direction === 'desc') matches.reverse()
  return matches.map((r) => r.id)
}

const query = (q: Partial<ListQuery>): ListQuery => ({
  search: '',
  filters: {},
  sort: 'updatedAt',
  direction: 'desc',
  required: [],
  holdBadCheckDigits: false,
  destination: STAGING,
  ...q,
})

/** Every row of a view, its pages read in the given order of page numbers. */
async function rowsOf(view: ListView, pageOrder: number[]): Promise<string[]> {
  for (const page of pageOrder) await view.load(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE - 1)
  return Array.from({ length: view.total }, (_, i) => view.cached(i)?.id ?? `missing ${i}`)
}

const pages = (total: number) => Array.from({ length: Math.ceil(total / PAGE_SIZE) }, (_, i) => i)

describe('the SKU list reader', () => {
  it('pages through every draft in the order of each sort column, in both directions', async () => {
    for (const sort of SORT_KEYS satisfies readonly SortKey[]) {
      for (const direction of ['asc', 'desc'] as const) {
        const q = query({ sort, direction })
        const view = await reader.open(q)
        expect(view.total).toBe(COUNT)
        // The last page first (from the far end), then the one before it (backwards from the
        // last's first row), then page 2 (backwards from page 4, skipping a page), then from the
        // start and forwards from pages already read: every way a page can be reached.
        expect(pages(COUNT)).toEqual([0, 1, 2, 3, 4, 5])
        const shuffled = [5, 4, 2, 0, 3, 1]
        expect(await rowsOf(view, shuffled), `${sort} ${direction}`).toEqual(reference(q))
      }
    }
  })

  it('reads a page alone, without the pages before it', async () => {
    const q = query({ sort: 'brand', direction: 'asc' })
    const view = await reader.open(q)
    await view.load(150, 199)
    expect(view.cached(149)).toBeUndefined()
    expect(view.cached(150)?.id).toBe(reference(q)[150])
    expect(view.cached(199)?.id).toBe(reference(q)[199])
  })

  it('gives the ids of any range of positions, for shift-click selection', async () => {
    const q = query({ sort: 'category', direction: 'desc' })
    const view = await reader.open(q)
    const expected = reference(q)
    expect(await view.idsBetween(0, 4)).toEqual(expected.slice(0, 5))
    expect(await view.idsBetween(97, 181)).toEqual(expected.slice(97, 182))
    expect(await view.idsBetween(250, 400)).toEqual(expected.slice(250))
    await view.load(100, 149)
    // From a page already read, too.
    expect(await view.idsBetween(155, 160)).toEqual(expected.slice(155, 161))
    expect((await view.allIds()).sort()).toEqual(all.map((r) => r.id).sort())
  })

  it('finds drafts by the start of every word of the search, or a barcode by a part, in the chosen order', async () => {
    for (const q of [
      query({ search: 'avi' }),
      query({ search: 'north', sort: 'productName', direction: 'asc' }),
      query({ search: 'round BLUE', sort: 'barcode', direction: 'desc' }),
      query({ search: '8900000000001' }),
      query({ search: '0012', sort: 'barcode', direction: 'asc' }),
      query({ search: 'gold 0001' }),
      query({ search: 'nothing-like-this' }),
    ]) {
      const view = await reader.open(q)
      const expected = reference(q)
      expect(view.total, q.search).toBe(expected.length)
      expect(await rowsOf(view, pages(view.total).reverse()), q.search).toEqual(expected)
    }
  })

  it('filters by category, sub-category, status, validity and sync state, with search', async () => {
    for (const q of [
      query({ filters: { category: 'makeup' } }),
      query({ filters: { category: 'eyewear', subCategory: 'sunglasses' }, sort: 'brand', direction: 'asc' }),
      query({ filters: { status: 'PUBLISHED', validity: 'invalid' } }),
      query({ filters: { syncState: 'draft' }, search: 'gold' }),
      query({ filters: { syncState: 'draft' } }),
      query({ filters: { syncState: 'synced' } }),
      query({ filters: { syncState: 'synced' }, destination: PRODUCTION }),
      query({ filters: { syncState: 'rejected', category: 'makeup' }, sort: 'brand', direction: 'asc' }),
      query({ filters: { syncState: 'failed' }, destination: PRODUCTION }),
      query({ filters: { syncState: 'queued' } }),
      query({ filters: { syncState: 'draft', syncedAt: PRODUCTION } }),
      query({ filters: { syncedAt: STAGING }, search: 'blue' }),
      query({ filters: { syncState: 'synced' }, destination: 'https://never.example.com' }),
    ]) {
      const label = `${JSON.stringify(q.filters)} at ${q.destination}`
      const view = await reader.open(q)
      expect(await rowsOf(view, pages(view.total)), label).toEqual(reference(q))
      expect((await view.allIds()).sort(), label).toEqual(reference(q).sort())
      expect([...(await matching.ids(q))].sort(), label).toEqual(reference(q).sort())
    }
    expect(reference(query({ filters: { validity: 'invalid' } }))).toHaveLength(27)
    // The state is read at the query's destination: synced on one is not synced on the other.
    const syncedOnStaging = reference(query({ filters: { syncState: 'synced' } }))
    const syncedOnProduction = reference(query({ filters: { syncState: 'synced' }, destination: PRODUCTION }))
    expect(syncedOnStaging.length).toBeGreaterThan(0)
    expect(syncedOnProduction.length).toBeGreaterThan(0)
    expect(syncedOnStaging.filter((id) => syncedOnProduction.includes(id)).length).toBeLessThan(
      syncedOnStaging.length,
    )
    // "Not sent" there: every draft but those with a standing there.
    expect(reference(query({ filters: { syncState: 'draft' } }))).toHaveLength(
      all.filter((r) => r.sync[STAGING] === undefined).length,
    )
    expect(
      reference(query({ filters: { syncState: 'synced' }, destination: 'https://never.example.com' })),
    ).toEqual([])
  })

  it('filters by what the last asset check found, from the checks table, with search and other filters', async () => {
    // A quarter of the drafts each: never checked, errors, warnings, all ok.
    const statusOf = (i: number) => ([undefined, 'error', 'warning', 'ok'] as const)[i % 4]
    const checked = all.flatMap((draft, i) => {
      const status = statusOf(i)
      return status ? [{ id: draft.id, checkedAt: 1, status, assets: [] }] : []
    })
    await db.assetChecks.bulkPut(checked)
    const lastCheck = new Map(checked.map((check) => [check.id, check.status]))
    const passes: Record<string, (id: string) => boolean> = {
      problems: (id) => ['error', 'warning'].includes(lastCheck.get(id) ?? ''),
      error: (id) => lastCheck.get(id) === 'error',
      ok: (id) => lastCheck.get(id) === 'ok',
      unchecked: (id) => !lastCheck.has(id),
    }
    for (const q of [
      query({ filters: { assets: 'problems' } }),
      query({ filters: { assets: 'error' }, search: 'gold' }),
      query({ filters: { assets: 'ok', category: 'makeup' }, sort: 'brand', direction: 'asc' }),
      query({ filters: { assets: 'unchecked' } }),
      query({ filters: { assets: 'unchecked', syncState: 'draft' } }),
    ]) {
      const { assets, ...others } = q.filters
      const expected = reference({ ...q, filters: others }).filter(passes[assets!]!)
      const label = JSON.stringify(q.filters)
      const view = await reader.open(q)
      expect(await rowsOf(view, pages(view.total)), label).toEqual(expected)
      expect(expected.length, label).toBeGreaterThan(0)
    }
    expect((await matching.ids(query({ filters: { assets: 'problems' } }))).size).toBe(
      all.filter((_, i) => i % 4 === 1 || i % 4 === 2).length,
    )
    await db.assetChecks.clear()
  })

  it('gives the list its first view read ahead at the start, once, and only for the same view', async () => {
    const ahead = new SkuListReader(db)
    const first = query({ destination: '' })
    ahead.readAhead(first)
    // The active profile arrived meanwhile: its destination changes nothing the view shows.
    const taken = await ahead.open(query({ destination: STAGING }))
    expect(await rowsOf(taken, [0])).toEqual(
      reference(first)
        .slice(0, PAGE_SIZE)
        .concat(Array.from({ length: COUNT - PAGE_SIZE }, (_, i) => `missing ${PAGE_SIZE + i}`)),
    )
    // A draft written after the read: only a view opened after it shows it (the read is gone).
    const { id: written } = await new SkuDraftRepository(db).create(
      { productName: 'Written after the read' },
      9_000_000,
    )
    try {
      const again = await ahead.open(first)
      expect(again).not.toBe(taken)
      expect(again.cached(0)?.id).toBe(written)
      // Read ahead for one order, opened in another: the other order is read.
      ahead.readAhead(first)
      const byBrand = await ahead.open(query({ sort: 'brand', direction: 'asc' }))
      expect(byBrand.cached(0)?.id).toBe(
        reference(query({ sort: 'brand', direction: 'asc' }), await db.skuDrafts.toArray())[0],
      )
    } finally {
      await db.skuDrafts.delete(written)
    }
  })

  it('offers the categories, sub-categories and statuses the drafts hold', async () => {
    expect(await reader.filterOptions()).toEqual({
      categories: ['eyewear', 'jewellery', 'makeup'],
      subCategories: ['eyeglasses', 'sunglasses'],
      statuses: ['DRAFT', 'PUBLISHED'],
    })
    expect(await reader.countAll()).toBe(COUNT)
  })
})

describe('the order of a large match set', () => {
  const sortIndex = (sort: SortKey) => () =>
    db.backendDB().transaction('skuDrafts', 'readonly').objectStore('skuDrafts').index(sort)

  it('walks the index from either end for the first and last screens, and reads the whole order only for the middle', async () => {
    for (const [sort, direction] of [
      ['updatedAt', 'desc'],
      ['brand', 'asc'],
      ['category', 'desc'],
    ] as const) {
      const q = query({ search: 'gold', sort, direction })
      const expected = reference(q)
      const orderedIds = vi.fn(async () => reference(query({ sort, direction })))
      const order = new MatchOrder({
        match: new Set(expected),
        source: sortIndex(sort),
        direction: direction === 'desc' ? 'prev' : 'next',
        indexSize: COUNT,
        orderedIds,
      })
      expect(order.total).toBe(expected.length)
      expect(await order.between(0, 9)).toEqual(expected.slice(0, 10))
      expect(await order.between(10, 19)).toEqual(expected.slice(10, 20))
      expect(await order.between(expected.length - 10, expected.length - 1)).toEqual(expected.slice(-10))
      expect(orderedIds).not.toHaveBeenCalled()
      // Concurrent requests are served one after the other, each correct.
      const [a, b] = await Promise.all([order.between(60, 69), order.between(120, 131)])
      expect(a).toEqual(expected.slice(60, 70))
      expect(b).toEqual(expected.slice(120, 132))
    }
  })

  it('knows the whole order once the two walks meet', async () => {
    const q = query({ filters: { category: 'makeup' }, sort: 'productName', direction: 'asc' })
    const expected = reference(q)
    const orderedIds = vi.fn(async () => [])
    const order = new MatchOrder({
      match: new Set(expected),
      source: sortIndex('productName'),
      direction: 'next',
      indexSize: COUNT,
      orderedIds,
    })
    expect(await order.between(0, 19)).toEqual(expected.slice(0, 20))
    expect(await order.between(expected.length - 30, expected.length - 1)).toEqual(expected.slice(-30))
    expect(await order.between(0, expected.length - 1)).toEqual(expected)
    expect(orderedIds).not.toHaveBeenCalled()
  })

  it('reads the whole order once, when a walk to the middle would cost more', async () => {
    const q = query({ search: 'blue', sort: 'barcode', direction: 'desc' })
    const expected = reference(q)
    const orderedIds = vi.fn(async () => reference(query({ sort: 'barcode', direction: 'desc' })))
    const order = new MatchOrder({
      match: new Set(expected),
      source: sortIndex('barcode'),
      direction: 'prev',
      indexSize: COUNT,
      orderedIds,
    })
    const middle = Math.floor(expected.length / 2)
    expect(await order.between(middle, middle + 9)).toEqual(expected.slice(middle, middle + 10))
    expect(await order.between(0, 4)).toEqual(expected.slice(0, 5))
    expect(orderedIds).toHaveBeenCalledTimes(1)
  })
})
