import type { AssetStatus } from '#shared/asset-checks/results.ts'
import { searchPrefixes, searchTerms } from '#shared/search-terms.ts'
import type { HoldReason } from '#shared/sync/send-gates.ts'
import { destinationTags, standingTag } from '#shared/sync/standing.ts'
import { AssetChecks } from './asset-checks.ts'
import type { CatalogDatabase } from './database.ts'
import { SkuSendGates } from './sku-send-gates.ts'
import type { AssetFilter, ListFilters, ListQuery } from './sku-list-query.ts'

// Which drafts a query of the SKU list matches, and which index answers each of its filters: the
// search words the `terms` index, a column filter its column's, the Sync filter the `standing`
// index, "Held back" the send gates, the asset filter the `assetChecks` table's `status` index.
// Ids only: no draft is read to find what matches.

/** The filters that are a column's value, each answered by the index of that column. */
const COLUMN_FILTER_KEYS = ['category', 'subCategory', 'status', 'validity'] as const
type ColumnFilterKey = (typeof COLUMN_FILTER_KEYS)[number]

/** The column filters in use, as index name and value. */
function activeFilters(filters: ListFilters): Array<[ColumnFilterKey, string]> {
  return COLUMN_FILTER_KEYS.flatMap((key) => {
    const value = filters[key]
    return value === undefined ? [] : [[key, value] as [ColumnFilterKey, string]]
  })
}

/** The check statuses each asset filter lets through ("unchecked" is every draft without a check). */
const ASSET_FILTER_STATUSES: Record<Exclude<AssetFilter, 'unchecked'>, readonly AssetStatus[]> = {
  problems: ['error', 'warning'],
  error: ['error'],
  ok: ['ok'],
}

export class SkuListMatching {
  private readonly db: CatalogDatabase
  private readonly checks: AssetChecks

  constructor(db: CatalogDatabase) {
    this.db = db
    this.checks = new AssetChecks(db)
  }

  /** Ids of the drafts matching the query's search words and filters, from the indexes alone. */
  async ids(query: ListQuery): Promise<Set<string>> {
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
}
