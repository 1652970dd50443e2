import { computed, ref, shallowRef } from 'vue'
import { useEventListener } from '#renderer/composables/use-event-listener.ts'
import {
  defaultColumns,
  forgetChosenColumns,
  LIST_COLUMNS,
  loadChosenColumns,
  saveChosenColumns,
  type ListColumn,
} from './list-columns.ts'

/**
 * The columns the list shows: those the person chose (kept across restarts), or until they
 * choose, the default for the window's width as it is now.
 */
export function useListColumns() {
  const chosen = shallowRef<ListColumn[] | undefined>(loadChosenColumns())
  const width = ref(window.innerWidth)
  useEventListener(window, 'resize', () => (width.value = window.innerWidth))
  const shown = computed(() => chosen.value ?? defaultColumns(width.value))

  /** Shows or hides one column; the others stay as they show now. */
  function setShown(column: ListColumn, on: boolean) {
    const next = LIST_COLUMNS.filter((each) => (each === column ? on : shown.value.includes(each)))
    chosen.value = next
    saveChosenColumns(next)
  }

  function reset() {
    chosen.value = undefined
    forgetChosenColumns()
  }

  return { shown, setShown, reset }
}
