import { computed, ref, toRaw, watch, type Ref } from 'vue'
import type { HoldReason } from '#shared/sync/send-gates.ts'
import {
  defaultDirection,
  defaultListQuery,
  filters,
  narrows,
  sameView,
  type FilterKey,
  type ListFilters,
  type ListQuery,
  type SortKey,
} from '../../db/sku-list-query.ts'
import { useProfilesStore } from '../profiles.ts'

// The SKU drafts store's query: what the list shows (search, filters, order) and the ways a page
// changes it. A part of its own because it follows the active profile and nothing else does.

/** The query as a plain object, out of Vue's reactivity: what a selection of all matching keeps. */
export function plainQuery(query: ListQuery): ListQuery {
  const raw = toRaw(query)
  return { ...raw, filters: { ...toRaw(raw.filters) } }
}

/**
 * The Sync and Held back filters read where the active profile leads and what it requires: the
 * query follows the profile.
 */
function followActiveProfile(query: Ref<ListQuery>) {
  const profiles = useProfilesStore()
  watch(
    () => profiles.active,
    (active) => {
      if (!active) return
      const { destination, requiredFields: required, holdBadCheckDigits } = active
      const current = query.value
      if (
        destination !== current.destination ||
        required.join() !== current.required.join() ||
        holdBadCheckDigits !== current.holdBadCheckDigits
      )
        query.value = { ...current, destination, required, holdBadCheckDigits }
    },
    { immediate: true },
  )
  void profiles.load().catch(() => {})
}

/** The list's query, what follows from it, and the ways the list and other pages change it. */
export function useListQuery() {
  const query = ref<ListQuery>(defaultListQuery())
  followActiveProfile(query)

  /**
   * The query as the list's rows follow it: a new object only when what the list shows changes,
   * not when the active profile arriving at the start changes a destination no filter reads (the
   * list read its first rows twice, issue #37).
   */
  const shownQuery = computed<ListQuery>((previous) =>
    previous && sameView(previous, query.value) ? previous : query.value,
  )

  // `narrows` stays in db/sku-list-query.ts beside the indexes it names; the list asks this getter.
  /** Whether the list shows some of the drafts (a search or a filter), rather than all of them. */
  const narrowed = computed(() => narrows(query.value))
  /** Whether a filter narrows it, besides the search: an empty list then says both. */
  const filtered = computed(() => filters(query.value))

  /** Starts from the query as it is, with `change` made to it. */
  function change(change: Partial<ListQuery>) {
    query.value = { ...query.value, ...change }
  }

  return {
    query,
    shownQuery,
    narrowed,
    filtered,
    plainQuery: () => plainQuery(query.value),
    search(text: string) {
      change({ search: text })
    },
    filter(key: FilterKey, value: string | undefined) {
      const filters: ListFilters = { ...query.value.filters, [key]: value }
      if (value === undefined) delete filters[key]
      change({ filters })
    },
    clearFilters() {
      change({ search: '', filters: {} })
    },
    /** Shows the drafts synced on `from` and never sent to the active profile's destination (a promotion). */
    showPromotable(from: string) {
      change({ search: '', filters: { syncState: 'draft', syncedAt: from } })
    },
    /** Shows the drafts a run to the active profile's destination would hold back, for `reason` or any. */
    showHeldBack(reason: HoldReason | 'any') {
      change({ search: '', filters: { heldBack: reason } })
    },
    /** Shows the drafts whose last asset check found errors (from the Sync page's warning). */
    showAssetErrors() {
      change({ search: '', filters: { assets: 'error' } })
    },
    /** Sorts by a column; the column already sorted by turns around. */
    sortBy(sort: SortKey) {
      const current = query.value
      const direction =
        current.sort === sort ? (current.direction === 'asc' ? 'desc' : 'asc') : defaultDirection(sort)
      change({ sort, direction })
    },
  }
}
