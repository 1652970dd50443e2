import type { SyncState } from '#shared/sync/standing.ts'
import type { HoldReason } from '#shared/sync/send-gates.ts'
import type { Validity } from '#shared/validation/problem.ts'

// What a query of the SKU list is: its search, filters and order, and when two queries show the
// same drafts. Plain values; which index answers each filter is `sku-list-matching.ts`.

/** What the list's Sync filter chooses: a state at the destination, or changed since created there. */
export type SyncFilterState = SyncState | 'changed'

/** Columns the list sorts by. Each is an index of `skuDrafts`, so a page is read in index order. */
export const SORT_KEYS = ['updatedAt', 'productName', 'brand', 'barcode', 'category', 'status'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type SortDirection = 'asc' | 'desc'

/**
 * What the list filters on; an absent filter lets everything through. The first four are columns
 * of `skuDrafts` (an index each); the next two read the `standing` index: the state at the
 * query's destination, and "synced on" another destination; the last, the drafts a run to the
 * query's destination would hold back (src/renderer/src/db/sku-send-gates.ts); and what the last
 * "Check assets" found (the `assetChecks` table's `status` index).
 */
export const FILTER_KEYS = [
  'category',
  'subCategory',
  'status',
  'validity',
  'syncState',
  'syncedAt',
  'heldBack',
  'assets',
] as const
export type FilterKey = (typeof FILTER_KEYS)[number]

export interface ListFilters {
  category?: string
  subCategory?: string
  status?: string
  validity?: Validity
  /**
   * The state at the query's destination (`draft`: never sent there), or `changed`: created there
   * and edited since (what "Update" sends, and those waiting for a platform id).
   */
  syncState?: SyncFilterState
  /** Created on this destination (with `syncState: 'draft'`, what a promotion to the active one takes). */
  syncedAt?: string
  /** Held back by the gates before sending there, for this reason or (`any`) for any. */
  heldBack?: HoldReason | 'any'
  /** What the draft's last asset check found (`ASSET_FILTER_STATUSES` in sku-list-matching.ts). */
  assets?: AssetFilter
}

/** The asset filter's choices: the last check's worst status, or never checked. */
export type AssetFilter = 'problems' | 'error' | 'ok' | 'unchecked'

/** What the list shows: the drafts matching a search and filters, in one order. */
export interface ListQuery {
  /** Words that each start a word of the name, brand or barcode. */
  search: string
  filters: ListFilters
  sort: SortKey
  direction: SortDirection
  /** The active profile's destination: where the Sync filter's state is read. */
  destination: string
  /** The active profile's required fields: what the "Held back" filter judges by. */
  required: readonly string[]
  /** Whether the active profile holds back wrong check digits: the "Held back" filter judges by it too. */
  holdBadCheckDigits: boolean
}

export function defaultListQuery(): ListQuery {
  return {
    search: '',
    filters: {},
    sort: 'updatedAt',
    direction: 'desc',
    destination: '',
    required: [],
    holdBadCheckDigits: false,
  }
}

/** Newest edits first; text columns A to Z. */
export function defaultDirection(sort: SortKey): SortDirection {
  return sort === 'updatedAt' ? 'desc' : 'asc'
}

/** Whether the query shows a subset of the drafts (rather than all of them in some order). */
export function narrows(query: ListQuery): boolean {
  return query.search.trim() !== '' || filters(query)
}

/** Whether a filter (not the search) narrows the query. */
export function filters(query: ListQuery): boolean {
  return FILTER_KEYS.some((key) => query.filters[key] !== undefined)
}

/** Two queries that match the same drafts (their order may differ). */
export function sameMatches(a: ListQuery, b: ListQuery): boolean {
  if (a.search.trim() !== b.search.trim()) return false
  const atDestination = a.filters.syncState !== undefined || a.filters.heldBack !== undefined
  if (atDestination && a.destination !== b.destination) return false
  const sameRules = a.required.join() === b.required.join() && a.holdBadCheckDigits === b.holdBadCheckDigits
  if (a.filters.heldBack !== undefined && !sameRules) return false
  return FILTER_KEYS.every((key) => a.filters[key] === b.filters[key])
}

/**
 * Two queries that show the same rows in the same order: the active profile arriving at the start
 * (its destination and rules) changes a query without a Sync or Held back filter in nothing shown.
 */
export function sameView(a: ListQuery, b: ListQuery): boolean {
  return sameMatches(a, b) && a.sort === b.sort && a.direction === b.direction
}
