import { computed } from 'vue'
import type { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'
import {
  allMatching,
  including,
  isSelected,
  NOTHING,
  only,
  selectedCount,
  toggled,
} from '#renderer/stores/sku-drafts/selection.ts'
import type { SkuWindow } from './use-sku-window.ts'

/**
 * Selecting rows of the list by position: one, a toggle, a range from the last row chosen
 * (Shift), the rows on screen, or all matching. Ranges are read from the indexes as ids, so a
 * Shift+click across thousands of rows does not read the drafts.
 */
export function useListSelection(store: ReturnType<typeof useSkuDraftsStore>, list: SkuWindow) {
  let anchor = 0

  const count = computed(() => selectedCount(store.selection, list.total.value))
  const allSelected = computed(
    () => store.selection.kind === 'matching' && store.selection.except.size === 0 && list.total.value > 0,
  )

  const idAt = (position: number) => list.rowAt(position)?.id

  function selected(id: string): boolean {
    return isSelected(store.selection, id)
  }

  function choose(position: number) {
    const id = idAt(position)
    if (id) store.selection = only(id)
    anchor = position
  }

  function toggle(position: number) {
    const id = idAt(position)
    if (id) store.selection = toggled(store.selection, id)
    anchor = position
  }

  /** Adds the rows from the last one chosen to `position` (Shift+click, Shift+arrow). */
  async function extendTo(position: number) {
    const view = list.view.value
    if (!view) return
    const ids = await view.idsBetween(Math.min(anchor, position), Math.max(anchor, position))
    if (view === list.view.value) store.selection = including(store.selection, ids, true)
  }

  /** Where the next Shift range starts: the row the keyboard or the mouse is on. */
  function setAnchor(position: number) {
    anchor = position
  }

  function setMany(ids: string[], value: boolean) {
    store.selection = including(store.selection, ids, value)
  }

  function selectAllMatching() {
    store.selection = allMatching(store.plainQuery())
  }

  function clear() {
    store.selection = NOTHING
  }

  return {
    count,
    allSelected,
    selected,
    choose,
    toggle,
    extendTo,
    setAnchor,
    setMany,
    selectAllMatching,
    clear,
  }
}

export type ListSelection = ReturnType<typeof useListSelection>
