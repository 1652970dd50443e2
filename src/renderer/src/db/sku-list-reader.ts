import { cmp } from 'dexie'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord } from './records.ts'
import { narrows, sameView, type ListQuery } from './sku-list-query.ts'
import { walkIndex } from './index-walk.ts'
import { IndexView, MatchView, PAGE_SIZE, type ListView } from './sku-list-pages.ts'
import { MatchOrder, sortsInMemory } from './sku-list-match-order.ts'
import { SkuListMatching } from './sku-list-matching.ts'

export interface FilterOptions {
  categories: string[]
  subCategories: string[]
  statuses: string[]
}

/**
 * What the SKU list reads: counts, the rows of a query a window at a time, and the values its
 * filters offer. Only index queries: opening the list reads a count and one page, whatever the
 * number of drafts; a search or filter reads the matching ids from the indexes, never the drafts.
 *
 * The list's front door (`skuList`): it opens a query's view the cheapest way, with the matches
 * (`sku-list-matching.ts`), their order (`sku-list-match-order.ts`) and the view's pages
 * (`sku-list-pages.ts`) each in a module of its own.
 */
export class SkuListReader {
  private readonly db: CatalogDatabase
  private readonly matching: SkuListMatching
  /** A first view read before the list asked for it (`readAhead`), until the list's first open. */
  private ahead?: { query: ListQuery; view: Promise<ListView> }

  constructor(db: CatalogDatabase) {
    this.db = db
    this.matching = new SkuListMatching(db)
  }

  countAll(): Promise<number> {
    return this.db.skuDrafts.count()
  }

  /**
   * Starts reading the view the list opens on while the window's modules are still loading and
   * mounting (main.ts): the database works meanwhile, and the list's first open takes the read
   * instead of starting it (issue #37). Only the first open after it may take it, so a read never
   * outlives a write made after it.
   */
  readAhead(query: ListQuery): void {
    const view = this.read(query)
    // Whoever takes the read hears of its failure; left untaken, it is no unhandled rejection.
    view.catch(() => undefined)
    this.ahead = { query, view }
  }

  open(query: ListQuery): Promise<ListView> {
    const ahead = this.ahead
    this.ahead = undefined
    return ahead && sameView(ahead.query, query) ? ahead.view : this.read(query)
  }

  private async read(query: ListQuery): Promise<ListView> {
    await this.db.open()
    const direction = query.direction === 'desc' ? 'prev' : 'next'
    const source = () =>
      this.db.backendDB().transaction('skuDrafts', 'readonly').objectStore('skuDrafts').index(query.sort)
    if (!narrows(query)) {
      // The first page and the count side by side: Chromium counts by walking the store (~5 to
      // 40 ms at 100,000 drafts), which need not hold up the first rows.
      const [total, first] = await Promise.all([
        this.db.skuDrafts.count(),
        walkIndex(source(), { direction, skip: 0, take: PAGE_SIZE, values: true }),
      ])
      const view = new IndexView({
        source,
        total,
        sort: query.sort,
        direction,
        allIds: () => this.db.skuDrafts.toCollection().primaryKeys(),
      })
      view.prime(
        0,
        first.map((entry) => entry.value as SkuDraftRecord),
      )
      return view
    }
    const [match, indexSize] = await Promise.all([this.matching.ids(query), this.db.skuDrafts.count()])
    const getRecords = (ids: string[]) => this.db.skuDrafts.bulkGet(ids)
    if (sortsInMemory(match.size, indexSize)) {
      const records = (await getRecords([...match])).filter((r): r is SkuDraftRecord => r !== undefined)
      // The index's own order: by the column, ties by id; a descending index walk is its exact reverse.
      records.sort((a, b) => cmp(a[query.sort], b[query.sort]) || cmp(a.id, b.id))
      if (direction === 'prev') records.reverse()
      const known = records.map((record) => record.id)
      return new MatchView({
        order: new MatchOrder({ match: new Set(known), known }),
        getRecords,
        preloaded: new Map(records.map((record) => [record.id, record])),
      })
    }
    const ordered = this.db.skuDrafts.orderBy(query.sort)
    return new MatchView({
      order: new MatchOrder({
        match,
        source,
        direction,
        indexSize,
        orderedIds: () => (direction === 'prev' ? ordered.reverse() : ordered).primaryKeys(),
      }),
      getRecords,
    })
  }

  /** The values the data holds for the text filters, each once, in index order. */
  async filterOptions(): Promise<FilterOptions> {
    const table = this.db.skuDrafts
    const unique = async (index: 'category' | 'subCategory' | 'status') =>
      (await table.orderBy(index).uniqueKeys()).filter((key): key is string => typeof key === 'string')
    const [categories, subCategories, statuses] = await Promise.all([
      unique('category'),
      unique('subCategory'),
      unique('status'),
    ])
    return { categories, subCategories, statuses }
  }
}
