import { computed, ref, watch, type Ref } from 'vue'
import type { SkuWindow } from './use-sku-window.ts'

export interface RowProblemsOptions {
  list: Pick<SkuWindow, 'rowAt'>
  /** The row the keyboard is on: the one whose problems open becomes it. */
  active: Ref<number>
  /** Scrolls the row into view, so that its badge is on screen to hang the popover from. */
  reveal(position: number): void
  focusRow(position: number): void
}

/**
 * The popover of a row's problems (RowProblems.vue), one row at a time: which row it is open on,
 * by position and by draft (a row that becomes another draft, by a reload or another order, closes
 * it), and where it hangs in the grid: under the row's Checks badge, within the rows' area.
 */
export function useRowProblems(
  grid: Readonly<Ref<HTMLElement | undefined>>,
  head: Readonly<Ref<HTMLElement | undefined>>,
  options: RowProblemsOptions,
) {
  const { list, active } = options
  const openAt = ref<number>()
  let openOf = ''
  const row = computed(() => (openAt.value === undefined ? undefined : list.rowAt(openAt.value)))
  watch(row, (shown) => {
    if (openAt.value !== undefined && shown?.id !== openOf) close(false)
  })

  function show(position: number) {
    const shown = list.rowAt(position)
    if (!shown) return
    active.value = position
    options.reveal(position)
    openOf = shown.id
    openAt.value = position
  }

  function toggle(position: number) {
    if (openAt.value === position) close(true)
    else show(position)
  }

  function close(refocus: boolean) {
    openAt.value = undefined
    if (refocus) options.focusRow(active.value)
  }

  /** The badge of the row the popover is open on, which it hangs from. */
  function badge(): Element | null | undefined {
    if (openAt.value === undefined) return undefined
    return grid.value?.querySelector(
      `[role="row"][aria-rowindex="${openAt.value + 2}"] .sku-cell--checks > *`,
    )
  }

  /** The part of the grid where rows are seen: below the sticky header, above the scroll bar. */
  function rowsArea(): DOMRect | undefined {
    const el = grid.value
    if (!el) return undefined
    const box = el.getBoundingClientRect()
    const top = box.top + el.clientTop + (head.value?.offsetHeight ?? 0)
    return new DOMRect(box.left, top, box.width, box.top + el.clientTop + el.clientHeight - top)
  }

  return { openAt, row, show, toggle, close, badge, rowsArea }
}
