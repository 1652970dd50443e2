import { cmp } from 'dexie'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord } from './records.ts'
import { AssetChecks } from './asset-checks.ts'
import { activeFilters, ASSET_FILTER_STATUSES, narrows, sameView, type ListQuery } from './sku-list-query.ts'
import { walkIndex } from './index-walk.ts'
import {
  IndexView,
  MatchOrder,
  MatchView,
  PAGE_SIZE,
  sortsInMemory,
  type ListView,
} from './sku-list-views.ts'
import { searchPrefixes, searchTerms } from '#shared/search-terms.ts'
import type { HoldReason } from '#shared/sync/send-gates.ts'
import { SkuSendGates } from './sku-send-gates.ts'
import { destinationTags, standingTag } from '#shared/sync/standing.ts'

export interface FilterOptions {
  categories: string[]
  subCategories: string[]
  statuses: string[]
}

/**
 * What the SKU list reads: counts, the rows of a query a window at a time, and the values its
 * filters offer. Only index queries: opening the list reads a count and one page, whatever the
 * number of drafts; a search or filter reads the matching ids from the indexes, never the drafts.
 */
export class SkuListReader {
  private readonly db: CatalogDatabase
  private readonly checks: AssetChecks
  /** A first view read before the list asked for it (`readAhead`), until the list's first open. */
  private ahead?: { query: ListQuery; view: Promise<ListView> }

  constructor(db: CatalogDatabase) {
    this.db = db
    this.checks = new AssetChecks(db)
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
    const [match, indexSize] = await Promise.all([this.matching(query), this.db.skuDrafts.count()])
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

  /** Ids of the drafts matching the query's search words and filters, from the indexes alone. */
  async matching(query: ListQuery): Promise<Set<string>> {
    const table = this.db.skuDrafts
    const { syncState, syncedAt, heldBack, assets } = query.filters
    const tagged = (tags: string[]) => table.where('standing').anyOf(tags).primaryKeys()
    const lookups = [
      ...searchTerms(query.search).map((word) => this.withTermsStarting(searchPrefixes(word))),
      ...activeFilters(query.filters).map(([key, value]) => table.where(key).equals(value).primaryKeys()),
      ...(syncState && syncState !== 'draft' ? [tagged([standingTag(query.destination, syncState)])] : []),
      ...(syncedAt !== undefined ? [tagged([standingTag(syncedAt, 'synced')])] : []),
      ...(heldBack !== undefined ? [this.heldBack(query, heldBack)] : []),
      ...(assets && assets !== 'unchecked' ? [this.checks.idsWith(ASSET_FILTER_STATUSES[assets])] : []),
    ]
    // "Not sent" there and "not checked" have no index entry of their own: each is every draft
    // but those with one (sent there; checked).
    const excluded = [
      ...(syncState === 'draft' ? [tagged(destinationTags(query.destination))] : []),
      ...(assets === 'unchecked' ? [this.checks.checkedIds()] : []),
    ]
    if (excluded.length && lookups.length === 0) lookups.push(table.toCollection().primaryKeys())
    const [lists, without] = await Promise.all([Promise.all(lookups), Promise.all(excluded)])
    lists.sort((a, b) => a.length - b.length)
    const [smallest, ...others] = lists
    const leftOut = new Set(without.flat())
    let match = new Set(leftOut.size ? smallest!.filter((id) => !leftOut.has(id)) : smallest)
    for (const list of others) {
      const other = new Set(list)
      match = new Set([...match].filter((id) => other.has(id)))
    }
    return match
  }

  /**
   * Ids of the drafts with a search word starting with any of `prefixes`: one range of the index
   * each, read side by side (a barcode part is eleven, each a few entries).
   */
  private async withTermsStarting(prefixes: string[]): Promise<string[]> {
    const terms = this.db.skuDrafts.where('terms')
    if (prefixes.length === 1) return terms.startsWith(prefixes[0]!).primaryKeys()
    const lists = await Promise.all(prefixes.map((prefix) => terms.startsWith(prefix).primaryKeys()))
    return [...new Set(lists.flat())]
  }

  /** The drafts a run to the query's destination would hold back, for `reason` or any. */
  private async heldBack(query: ListQuery, reason: HoldReason | 'any'): Promise<string[]> {
    const { destination, required, holdBadCheckDigits } = query
    const held = await new SkuSendGates(this.db).heldBack({
      destination,
      required,
      holdBadCheckDigits,
      place: '',
    })
    return [...held.holds].flatMap(([id, hold]) => (reason === 'any' || hold.reason === reason ? [id] : []))
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
