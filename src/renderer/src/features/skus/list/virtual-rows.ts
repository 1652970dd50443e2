/**
 * The maths of a virtual list of fixed-height rows: which rows a scroll offset shows, which to
 * draw and read around them, and where to scroll to bring a row into view. Plain numbers in and
 * out; `use-virtual-rows.ts` binds them to the grid's element.
 */
export const ROW_HEIGHT = 48
/** Rows drawn beyond each edge of the screen, so a scroll does not uncover empty space. */
export const OVERSCAN = 8

/** Where the grid is scrolled and how tall it is; the sticky header covers the top `headHeight`. */
export interface Viewport {
  scrollTop: number
  height: number
  headHeight: number
}

/** Positions `first` to `last`, both included. */
export interface RowSpan {
  first: number
  last: number
}

/** The height of all the rows together, which is what gives the grid its scroll bar. */
export function rowsHeight(total: number): number {
  return total * ROW_HEIGHT
}

/** Rows wholly or partly on screen. */
export function rowsOnScreen(viewport: Viewport, total: number): RowSpan {
  const first = Math.floor(viewport.scrollTop / ROW_HEIGHT)
  const rowsTall = Math.max(ROW_HEIGHT, viewport.height - viewport.headHeight)
  const last = Math.min(total - 1, Math.floor((viewport.scrollTop + rowsTall - 1) / ROW_HEIGHT))
  return { first, last }
}

/**
 * The positions to put in the DOM: the rows on screen and a few either side (none without
 * `overscan`), plus the active row wherever it is, so keyboard focus is never lost to a row
 * scrolled away.
 */
export function rowsToDraw(onScreen: RowSpan, total: number, active: number, overscan = true): number[] {
  if (total === 0) return []
  const beyond = overscan ? OVERSCAN : 0
  const from = Math.max(0, onScreen.first - beyond)
  const to = Math.min(total - 1, onScreen.last + beyond)
  const positions: number[] = []
  for (let i = from; i <= to; i++) positions.push(i)
  const current = Math.min(active, total - 1)
  if (current < from || current > to) positions.push(current)
  return positions
}

/** Read a little further than is drawn, so a slow scroll finds its rows ready. */
export function rowsToRead(onScreen: RowSpan): RowSpan {
  return { first: Math.max(0, onScreen.first - 2 * OVERSCAN), last: onScreen.last + 2 * OVERSCAN }
}

/** How far PageUp and PageDown move: a screenful less one row, so the edge row stays in sight. */
export function rowsPerPage(viewport: Pick<Viewport, 'height' | 'headHeight'>): number {
  return Math.max(1, Math.floor((viewport.height - viewport.headHeight) / ROW_HEIGHT) - 1)
}

/** The scroll offset that shows the row whole below the sticky header, moving as little as it can. */
export function scrollToReveal(position: number, viewport: Viewport): number {
  const top = position * ROW_HEIGHT
  const bottom = top + ROW_HEIGHT + viewport.headHeight
  if (top < viewport.scrollTop) return top
  if (bottom > viewport.scrollTop + viewport.height) return bottom - viewport.height
  return viewport.scrollTop
}
