import type { SyncState } from '#shared/sync-state.ts'
import type { Validity } from '#shared/validation/problem.ts'

/** Columns the list sorts by. Each is an index of `skuDrafts`, so a page is read in index order. */
export const SORT_KEYS = ['updatedAt', 'productName', 'brand', 'barcode', 'category', 'status'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type SortDirection = 'asc' | 'desc'

/** Columns the list filters on, each an index of `skuDrafts`; an absent filter lets everything through. */
export const FILTER_KEYS = ['category', 'subCategory', 'status', 'validity', 'syncState'] as const
export type FilterKey = (typeof FILTER_KEYS)[number]

export interface ListFilters {
  category?: string
  subCategory?: string
  status?: string
  validity?: Validity
  syncState?: SyncState
}

/** What the list shows: the drafts matching a search and filters, in one order. */
export interface ListQuery {
  /** Words that each start a word of the name, brand or barcode. */
  search: string
  filters: ListFilters
  sort: SortKey
  direction: SortDirection
}

export function defaultListQuery(): ListQuery {
  return { search: '', filters: {}, sort: 'updatedAt', direction: 'desc' }
}

/** Newest edits first; text columns A to Z. */
export function defaultDirection(sort: SortKey): SortDirection {
  return sort === 'updatedAt' ? 'desc' : 'asc'
}

/** The filters in use, as index name and value. */
export function activeFilters(filters: ListFilters): Array<[FilterKey, string]> {
  return FILTER_KEYS.flatMap((key) => {
    const value = filters[key]
    return value === undefined ? [] : [[key, value] as [FilterKey, string]]
  })
}

/** Whether the query shows a subset of the drafts (rather than all of them in some order). */
export function narrows(query: ListQuery): boolean {
  return query.search.trim() !== '' || activeFilters(query.filters).length > 0
}

/** Two queries that match the same drafts (their order may differ). */
export function sameMatches(a: ListQuery, b: ListQuery): boolean {
  if (a.search.trim() !== b.search.trim()) return false
  return FILTER_KEYS.every((key) => a.filters[key] === b.filters[key])
}
