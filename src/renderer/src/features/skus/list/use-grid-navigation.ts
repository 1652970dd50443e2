import { nextTick, type Ref } from 'vue'
import { clampRow, headerKeyAction, rowKeyAction } from './grid-navigation.ts'
import type { ListSelection } from './use-list-selection.ts'

export interface GridNavigationOptions {
  /** The row the keyboard is on, the one tab stop among the rows (roving tabindex). */
  active: Ref<number>
  total: Readonly<Ref<number>>
  picker: Pick<ListSelection, 'toggle' | 'extendTo' | 'setAnchor'>
  pageRows(): number
  /** Scrolls the row into view, so that it is drawn before it takes focus. */
  reveal(position: number): void
  open(position: number): void
  /** Shows the row's problems (the popover of its Checks badge). */
  problems(position: number): void
}

/**
 * Moving through the grid from the keyboard: between the rows (each row is one element that
 * takes focus, found by its `aria-rowindex`), and along the column headers' controls, reached
 * with ArrowUp from the first row.
 */
export function useGridNavigation(
  grid: Readonly<Ref<HTMLElement | undefined>>,
  head: Readonly<Ref<HTMLElement | undefined>>,
  options: GridNavigationOptions,
) {
  const { active, total, picker } = options

  function rowElement(position: number): HTMLElement | null | undefined {
    return grid.value?.querySelector<HTMLElement>(`[role="row"][aria-rowindex="${position + 2}"]`)
  }

  async function focusRow(position: number) {
    await nextTick()
    rowElement(position)?.focus({ preventScroll: true })
  }

  async function moveTo(position: number, extend: boolean) {
    const target = clampRow(position, total.value)
    active.value = target
    options.reveal(target)
    await focusRow(target)
    if (extend) await picker.extendTo(target)
    else picker.setAnchor(target)
  }

  function onRowKeydown(event: KeyboardEvent) {
    const action = rowKeyAction(event, active.value, total.value, options.pageRows())
    if (!action) return
    event.preventDefault()
    if (action.kind === 'header') focusHeader()
    else if (action.kind === 'move') void moveTo(action.to, action.extend)
    else if (action.kind === 'toggle') picker.toggle(active.value)
    else if (action.kind === 'problems') options.problems(active.value)
    else options.open(active.value)
  }

  // The header row: ArrowLeft/Right between its controls, ArrowDown back to the rows.
  const headerControls = () => [...(head.value?.querySelectorAll<HTMLElement>('input, button') ?? [])]

  function focusHeader() {
    const controls = headerControls()
    const sorted = head.value?.querySelector<HTMLElement>('[aria-sort] button')
    ;(sorted ?? controls[0])?.focus()
  }

  function onHeaderKeydown(event: KeyboardEvent) {
    const controls = headerControls()
    const action = headerKeyAction(event.key, controls.indexOf(event.target as HTMLElement), controls.length)
    if (!action) return
    event.preventDefault()
    if (action.kind === 'rows') void moveTo(active.value, false)
    else controls[action.index]?.focus()
  }

  function onKeydown(event: KeyboardEvent) {
    const target = event.target as HTMLElement
    if (target.closest('[role="columnheader"]')) onHeaderKeydown(event)
    else if (target.getAttribute('role') === 'row') onRowKeydown(event)
  }

  /** Focus on the rows, at the row the keyboard was last on (scrolled into view). */
  const enterRows = () => moveTo(active.value, false)

  return { onKeydown, focusRow, enterRows }
}
