import type { SortKey } from '#renderer/db/sku-list-query.ts'

/** The SKU list's columns after the selection box and the photo, in their order. */
export const LIST_COLUMNS = [
  'name',
  'brand',
  'barcode',
  'category',
  'status',
  'checks',
  'sync',
  'edited',
] as const
export type ListColumn = (typeof LIST_COLUMNS)[number]

/** The columns a person may hide: all but the product, which names the row and opens it. */
export const OPTIONAL_COLUMNS = LIST_COLUMNS.filter((column) => column !== 'name')

export interface ColumnShape {
  /** The heading; the Sync column's names the active profile (see SkuGrid.vue). */
  label: string
  sort?: SortKey
  /**
   * Its CSS grid track: the fixed columns as narrow as their content (a barcode, a badge, a date),
   * the product (on two lines), brand and category sharing what is left, then cut with an
   * ellipsis (whole in the cell's tooltip) before the grid ever scrolls sideways. The product
   * takes two lines, so it gets little more than the others: at 1024 px with the default columns
   * that is about 155 px for it, 128 for the brand ("Northwind Optics" takes 120) and 166 for the
   * category ("accessories › watches" 150).
   */
  track: string
  /** The least the track takes: the sum is the row's least width, before it scrolls sideways. */
  min: number
}

export const COLUMN_SHAPES: Record<ListColumn, ColumnShape> = {
  name: { label: 'Product', sort: 'productName', track: 'minmax(88px, 1.2fr)', min: 88 },
  brand: { label: 'Brand', sort: 'brand', track: 'minmax(56px, 1fr)', min: 56 },
  barcode: { label: 'Barcode', sort: 'barcode', track: '102px', min: 102 },
  category: { label: 'Category', sort: 'category', track: 'minmax(64px, 1.3fr)', min: 64 },
  status: { label: 'Status', sort: 'status', track: '90px', min: 90 },
  checks: { label: 'Checks', track: '88px', min: 88 },
  sync: { label: 'Sync', track: '84px', min: 84 },
  edited: { label: 'Last edit', sort: 'updatedAt', track: '84px', min: 84 },
}

/** The selection box and the photo, before the columns. */
export const LEADING_TRACKS = { track: '32px 44px', min: 76 }

/**
 * Below this window width the list starts without Status and Last edit, unless the person chose
 * otherwise: at 1024 px all eight columns left Brand and Category about 60 px each, which cut
 * "Northwind Optics" and "eyewear › sunglasses" to a few letters. Status is also a filter, and the
 * list is sorted by last edit without showing it.
 */
export const NARROW_WINDOW = 1280
const HIDDEN_WHEN_NARROW: readonly ListColumn[] = ['status', 'edited']

/** The columns shown until the person chooses: all of them, or in a narrow window all but two. */
export function defaultColumns(windowWidth: number): ListColumn[] {
  return windowWidth < NARROW_WINDOW
    ? LIST_COLUMNS.filter((column) => !HIDDEN_WHEN_NARROW.includes(column))
    : [...LIST_COLUMNS]
}

/**
 * Where the person's choice is kept across restarts: the page's own storage, as the import's saved
 * mappings are (column names only, nothing secret). What is kept is the columns hidden, so a
 * column a later version adds shows until hidden.
 */
const KEY = 'catalog-desk.sku-list-columns'

/** The columns chosen before, or undefined when none were (or what was kept cannot be read). */
export function loadChosenColumns(): ListColumn[] | undefined {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null')
    if (typeof stored !== 'object' || stored === null || !('hidden' in stored)) return undefined
    const { hidden } = stored
    if (!Array.isArray(hidden)) return undefined
    return LIST_COLUMNS.filter((column) => column === 'name' || !hidden.includes(column))
  } catch {
    // A damaged entry is not worth an error: the list shows its default columns.
    return undefined
  }
}

export function saveChosenColumns(shown: readonly ListColumn[]): void {
  const hidden = OPTIONAL_COLUMNS.filter((column) => !shown.includes(column))
  localStorage.setItem(KEY, JSON.stringify({ hidden }))
}

/** Back to the default columns, which follow the window's width again. */
export function forgetChosenColumns(): void {
  localStorage.removeItem(KEY)
}

/** The grid's tracks and least width for these columns, in the list's order. */
export function columnLayout(shown: readonly ListColumn[]): { tracks: string; min: number } {
  const columns = LIST_COLUMNS.filter((column) => shown.includes(column))
  return {
    tracks: [LEADING_TRACKS.track, ...columns.map((column) => COLUMN_SHAPES[column].track)].join(' '),
    min: columns.reduce((sum, column) => sum + COLUMN_SHAPES[column].min, LEADING_TRACKS.min),
  }
}
