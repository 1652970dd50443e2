/**
 * What a key does in the SKU grid, decided from the key and where the keyboard is; no DOM.
 * `use-grid-navigation.ts` carries the decision out.
 */

/** The parts of a keyboard event that decide what a key does. */
export type KeyPress = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'>

export type RowKeyAction =
  /** ArrowUp from the first row: to the column headers. */
  | { kind: 'header' }
  /** To another row; with Shift, the selection grows to it. */
  | { kind: 'move'; to: number; extend: boolean }
  /** Space: select the active row, or not. */
  | { kind: 'toggle' }
  /** Enter: open the active row's draft. */
  | { kind: 'open' }
  /** I: show the active row's problems (which errors, which missing fields) beside its badge. */
  | { kind: 'problems' }

export type HeaderKeyAction =
  /** ArrowDown: back to the rows. */
  | { kind: 'rows' }
  /** Another of the header's controls, by its index. */
  | { kind: 'control'; index: number }

/** A position that is a row of the list: the first or the last for one beyond either end. */
export function clampRow(position: number, total: number): number {
  return Math.max(0, Math.min(total - 1, position))
}

/** A key pressed on a row: arrows, PageUp/PageDown, Home/End, Space, Enter and I. */
export function rowKeyAction(
  event: KeyPress,
  active: number,
  total: number,
  pageRows: number,
): RowKeyAction | undefined {
  const moves: Record<string, () => number> = {
    ArrowDown: () => active + 1,
    ArrowUp: () => active - 1,
    PageDown: () => active + pageRows,
    PageUp: () => active - pageRows,
    Home: () => 0,
    End: () => total - 1,
  }
  const move = Object.hasOwn(moves, event.key) ? moves[event.key] : undefined
  if (event.key === 'ArrowUp' && active === 0 && !event.shiftKey) return { kind: 'header' }
  if (move && !event.altKey) return { kind: 'move', to: clampRow(move(), total), extend: event.shiftKey }
  if (event.key === ' ' && !event.ctrlKey && !event.metaKey) return { kind: 'toggle' }
  if (event.key === 'Enter') return { kind: 'open' }
  if (event.key.toLowerCase() === 'i' && !event.ctrlKey && !event.metaKey && !event.altKey) {
    return { kind: 'problems' }
  }
  return undefined
}

/**
 * A key pressed on a column header's control (`at` among `count`, -1 if none): ArrowLeft/Right
 * between the controls, Home/End to the first and last, ArrowDown back to the rows.
 */
export function headerKeyAction(key: string, at: number, count: number): HeaderKeyAction | undefined {
  const next: Record<string, number> = {
    ArrowLeft: at - 1,
    ArrowRight: at + 1,
    Home: 0,
    End: count - 1,
  }
  if (key === 'ArrowDown') return { kind: 'rows' }
  if (!Object.hasOwn(next, key)) return undefined
  return { kind: 'control', index: Math.max(0, Math.min(count - 1, next[key]!)) }
}
