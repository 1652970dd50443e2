import { defineStore } from 'pinia'
import { markRaw, ref, shallowRef } from 'vue'
import type { Sku } from '#shared/schema/sku.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { db, skuBulkEdits, skuDrafts, skuList } from '../db/index.ts'
import { saveDraftPayload } from '../db/stored-kinds.ts'
import type { EditBase } from '#shared/team/draft-exchange.ts'
import type { SkuDraftRecord } from '../db/records.ts'
import type { FilterOptions } from '../db/sku-list-reader.ts'
import type { ListView } from '../db/sku-list-pages.ts'
import { narrows, type ListQuery } from '../db/sku-list-query.ts'
import { useNotice } from './notice.ts'
import { useSkuBulkActions } from './sku-drafts/bulk-actions.ts'
import type { Progress } from './sku-drafts/bulk-progress.ts'
import { plainQuery, useListQuery } from './sku-drafts/list-query.ts'
import { useSkuSelection } from './sku-drafts/selection.ts'
import { useSkuUndo } from './sku-drafts/undo.ts'

// Where the list's bulk bar and the asset checks name a progress bar's type from.
export type { Progress }

/**
 * The SKU list's state: what it shows (search, filters, order), what is selected, and the bulk
 * actions on the selection. Rows are not kept here: the list reads them a window at a time.
 *
 * Made of parts, each in its own module of `sku-drafts/`: the query (`list-query.ts`), the
 * selection (`selection.ts`), the bulk actions (`bulk-actions.ts`, with `bulk-progress.ts`) and the
 * undo (`undo.ts`). What stays here is what the list reads, and the drafts one at a time (the
 * editor's).
 */
export const useSkuDraftsStore = defineStore('skuDrafts', () => {
  const listQuery = useListQuery()
  const { query } = listQuery
  /** Bumped after every write, so the list reads again what it shows. */
  const revision = ref(0)
  const selectionState = useSkuSelection(query)
  const notices = useNotice()
  const progress = shallowRef<Progress>()
  /**
   * Where the list was (active row and scroll), so coming back from the editor lands there. Not
   * reactive: it is written on every scroll frame and read once, when the list opens.
   */
  const place = markRaw({
    active: 0,
    scrollTop: 0,
    /** Set when the editor goes back to the list: the list gives the active row focus again. */
    refocus: false,
  })

  function changed() {
    revision.value++
  }

  const needs = { ...selectionState, ...notices, progress, changed }

  /**
   * Opens a view of the drafts a query matches, with the count of all drafts when the query
   * narrows them (otherwise the view's own count is that).
   */
  async function openView(wanted: ListQuery): Promise<{ view: ListView; all: number | undefined }> {
    const [view, all] = await Promise.all([
      skuList.open(wanted),
      narrows(wanted) ? skuList.countAll() : undefined,
    ])
    return { view, all }
  }

  /** Every draft the search and filters match, in the list's order (a sync of the filter). */
  async function matchingIds(): Promise<string[]> {
    const view = await skuList.open(plainQuery(query.value))
    return view.idsBetween(0, view.total - 1)
  }

  async function create(): Promise<string> {
    const record = await skuDrafts.create(newSkuPayload(), systemClock.now())
    changed()
    return record.id
  }

  return {
    ...listQuery,
    ...selectionState,
    ...notices,
    ...useSkuBulkActions(needs),
    ...useSkuUndo(needs),
    revision,
    progress,
    place,
    openView,
    matchingIds,
    create,
    /** Makes the list read again what it shows: after a write of another store (asset checks). */
    changed,
    /** What the list's filters offer: the values the drafts hold. */
    filterOptions(): Promise<FilterOptions> {
      return skuList.filterOptions()
    },
    /** One draft as stored. With `savePayload`, what the editor reads and autosaves through. */
    get(id: string): Promise<SkuDraftRecord | undefined> {
      return skuDrafts.get(id)
    },
    savePayload(id: string, payload: Sku, based?: EditBase): Promise<SkuDraftRecord> {
      return saveDraftPayload(db, 'skus', id, payload, undefined, based)
    },
    /**
     * Called as the editor is left: a draft made by `create` that was never changed (not even
     * typed into and cleared, which is a save) is deleted, with nothing to undo; any other is kept.
     * Known by its mark (`isUntouchedNew`), so one made before a reload of its editor is too.
     */
    async discardIfUntouched(id: string): Promise<void> {
      if (await skuDrafts.discardUntouchedNew(id).catch(() => false)) changed()
    },
    /**
     * Copies one draft as a new draft, for the banner of a sent one: the copy's id. Unlike
     * `duplicate`, no notice and no selection; a failure is the caller's to show.
     */
    async duplicateAsDraft(id: string): Promise<string | undefined> {
      const { ids } = await skuBulkEdits.duplicate([id])
      return ids[0]
    },
  }
})
