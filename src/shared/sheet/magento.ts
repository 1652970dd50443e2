import { categoryPaths } from './category-paths.ts'
import { wordsOf } from './header-words.ts'
import { cellAt } from './cell-at.ts'

/**
 * Magento 2's product import/export CSV (System › Data Transfer), as its admin writes it and as its
 * own sample (`Magento/ImportExport/Files/Sample/catalog_product.csv`) is: snake_case headers,
 * `sku`, `store_view_code`, `attribute_set_code`, `product_type`, `categories`, …, one row a
 * product in one store view.
 *
 * - `product_type` is Magento's kind of product, not a category: `virtual` and `downloadable` are
 *   no physical product, `grouped` and `bundle` are sets of other products (each a row of its own):
 *   skipped, counted. `configurable` lists its children in `configurable_variations`
 *   (`sku=MH01-XS-Black,size=XS,color=Black|sku=…`), each a `simple` row of its own, which the
 *   export writes before or after it: each child is a variant of its configurable product, with
 *   the product's cells where its own are empty and its options from that list, named by
 *   `configurable_variation_labels` (`size=Size,color=Color`). A configurable product whose
 *   children are in the file is no SKU; one whose children are not is read as a product.
 * - A row with a `store_view_code` is its product translated for one store view, not another SKU:
 *   skipped, counted. A product the file has only in store views' rows (an export of one store
 *   view writes every row with its code) is read from its first such row.
 * - `categories` joins the paths of the product's categories with commas, each from the store's
 *   root category ("Default Category/Gear,Default Category/Gear/Fitness Equipment"): the most
 *   specific path (the deepest; the first of those as deep) is read without its root as a category
 *   path, "Gear > Fitness Equipment", which rows.ts splits into category and sub-category as it
 *   splits any shop's path. A path of the root alone is kept as written.
 * - `product_online` is 1 (enabled) or 2 (disabled, Magento's status value): 2 is read as no.
 * - `base_image` is the product image (field-words.ts). Magento writes it as a path in its media
 *   folder (`/m/b/mb01-blue-0.jpg`), which is not a web address: read with the address the person
 *   says the pictures are at (convert.ts), else the row says so; nothing is guessed. "no_selection"
 *   is Magento's word for no picture.
 */

/** Where a Magento sheet keeps what the format reads itself, by column position. */
export interface MagentoColumns {
  sku: number
  type: number
  name?: number
  storeView?: number
  categories?: number
  online?: number
  variations?: number
  labels?: number
  /** A child's own columns: its code and the parent's list of children, never taken from its parent. */
  own: number[]
  structural: [column: number, reading: string][]
}

/** Headers only Magento's export writes, of which a sheet with `sku` and `product_type` has one. */
const MAGENTO_ONLY = ['attribute set code', 'store view code', 'product websites', 'configurable variations']

/** Magento's other pictures of a product; its base image is the product image. */
const OTHER_IMAGES = /^(small|thumbnail|swatch) image$|^additional images$/

/** The layout of Magento's product export, or undefined for any other sheet. */
export function magentoColumns(headers: readonly string[]): MagentoColumns | undefined {
  const words = headers.map((header) => wordsOf(header))
  const at = (name: string) => {
    const index = words.indexOf(name)
    return index < 0 ? undefined : index
  }
  const sku = at('sku')
  const type = at('product type')
  if (sku === undefined || type === undefined || !MAGENTO_ONLY.some((name) => words.includes(name)))
    return undefined
  const storeView = at('store view code')
  const variations = at('configurable variations')
  const labels = at('configurable variation labels')
  const structural: [number, string][] = [
    [type, 'Magento’s product type (simple, configurable, grouped, bundle…), not a category'],
  ]
  if (storeView !== undefined)
    structural.push([
      storeView,
      'Says which rows are a store view’s: a product’s translation, skipped where the file has the product',
    ])
  if (variations !== undefined)
    structural.push([variations, 'Lists a configurable product’s children and their options'])
  if (labels !== undefined) structural.push([labels, 'Names a configurable product’s options'])
  words.forEach((w, index) => {
    if (OTHER_IMAGES.test(w))
      structural.push([index, 'Magento’s other pictures of the product; its base image is the product image'])
    // Magento's weight is what shipping is charged by, as WooCommerce's is: not a measure of the product.
    if (w === 'weight') structural.push([index, 'The weight shipping is charged by, not the product’s'])
    if (w === 'url key')
      structural.push([index, 'The product page’s path in the shop, not a web address: not the action link'])
  })
  const name = at('name')
  const categories = at('categories')
  const online = at('product online')
  return {
    sku,
    type,
    ...(name !== undefined && { name }),
    ...(storeView !== undefined && { storeView }),
    ...(categories !== undefined && { categories }),
    ...(online !== undefined && { online }),
    ...(variations !== undefined && { variations }),
    ...(labels !== undefined && { labels }),
    own: [sku, ...(variations === undefined ? [] : [variations])],
    structural,
  }
}

/** What one row of a Magento sheet is. */
export type MagentoRow =
  /** Skipped: a store view's translation, or a product type that is no physical product. */
  | { kind: 'skip'; reason: 'store-view' | 'not-physical' | 'grouped' | 'bundle' }
  /** A SKU of its own (a simple product, or a configurable one whose children are not in the file). */
  | { kind: 'product'; cells: string[] }
  /** A configurable product whose children are its SKUs. */
  | { kind: 'parent' }
  /** A configurable product's child, with its product's row, its options, and whether it has a name of its own. */
  | {
      kind: 'child'
      cells: string[]
      product: readonly string[]
      options?: Record<string, string>
      named: boolean
    }

/**
 * A Magento sheet's configurable products, found in a first pass (a child may come before its
 * product), then each row told apart.
 */
export class MagentoProducts {
  /** Each child's SKU → its configurable product's row and its options. */
  private readonly children = new Map<string, { product: string[]; options?: Record<string, string> }>()
  /** Each configurable product's SKU → its children's SKUs. */
  private readonly listed = new Map<string, string[]>()
  /** The SKUs the file has a product's row for. */
  private readonly skus = new Set<string>()
  /** SKUs with a row for the default store view (no `store_view_code`). */
  private readonly global = new Set<string>()
  /** Each SKU's first store view's row, until the first pass ends; then those of SKUs with no default row. */
  private readonly viewOnly = new Map<string, string[]>()
  /** The SKUs of `viewOnly` whose row has been read: their other store views' rows are translations. */
  private readonly viewsRead = new Set<string>()
  private settled = false
  readonly columns: MagentoColumns

  constructor(columns: MagentoColumns) {
    this.columns = columns
  }

  /** Whether rows need a first pass: when configurable products can list their children, or rows can be a store view's. */
  get needed(): boolean {
    return this.columns.variations !== undefined || this.columns.storeView !== undefined
  }

  add(cells: readonly string[]) {
    const sku = cellAt(cells, this.columns.sku)
    if (cellAt(cells, this.columns.storeView) !== '') {
      if (sku && !this.viewOnly.has(sku)) this.viewOnly.set(sku, [...cells])
      return
    }
    if (sku) this.global.add(sku)
    this.index(cells)
  }

  /** After the first pass: a product the file has in store views' rows alone is read from its first. */
  private settle() {
    if (this.settled) return
    this.settled = true
    for (const [sku, cells] of this.viewOnly) {
      if (this.global.has(sku)) this.viewOnly.delete(sku)
      else this.index(cells)
    }
  }

  /** A product's row: its SKU, and a configurable product's children with their options. */
  private index(cells: readonly string[]) {
    const { columns } = this
    const sku = cellAt(cells, columns.sku)
    if (sku) this.skus.add(sku)
    if (cellAt(cells, columns.type).toLowerCase() !== 'configurable') return
    const labels = pairs(cellAt(cells, columns.labels))
    const children: string[] = []
    for (const variation of cellAt(cells, columns.variations).split('|')) {
      const { sku: child, ...attributes } = pairs(variation)
      if (!child) continue
      const options: Record<string, string> = {}
      for (const [code, value] of Object.entries(attributes)) if (value) options[labels[code] || code] = value
      this.children.set(child, { product: [...cells], ...(Object.keys(options).length && { options }) })
      children.push(child)
    }
    if (sku) this.listed.set(sku, children)
  }

  read(given: readonly string[]): MagentoRow {
    const { columns } = this
    this.settle()
    if (cellAt(given, columns.storeView) !== '') {
      const sku = cellAt(given, columns.sku)
      if (!this.viewOnly.has(sku) || this.viewsRead.has(sku)) return { kind: 'skip', reason: 'store-view' }
      this.viewsRead.add(sku)
    }
    const type = cellAt(given, columns.type).toLowerCase()
    if (type === 'virtual' || type === 'downloadable') return { kind: 'skip', reason: 'not-physical' }
    if (type === 'grouped' || type === 'bundle') return { kind: 'skip', reason: type }
    const cells = readable(columns, given)
    if (type === 'configurable') {
      const children = this.listed.get(cellAt(cells, columns.sku)) ?? []
      return children.some((child) => this.skus.has(child)) ? { kind: 'parent' } : { kind: 'product', cells }
    }
    const child = this.children.get(cellAt(cells, columns.sku))
    if (!child) return { kind: 'product', cells }
    return {
      kind: 'child',
      cells,
      product: readable(columns, child.product),
      ...(child.options && { options: child.options }),
      named: cellAt(cells, columns.name) !== '',
    }
  }
}

/** `size=XS,color=Black` (Magento's `k=v` list) as an object; a value keeps any `=` of its own. */
function pairs(text: string): Record<string, string> {
  const read: Record<string, string> = {}
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=')
    if (at > 0) read[pair.slice(0, at).trim()] = pair.slice(at + 1).trim()
  }
  return read
}

/**
 * A row's cells as the column matcher's fields read them: its categories as a path, its status as
 * yes/no, and Magento's "no_selection" (an image column's word for none) as empty.
 */
function readable(columns: MagentoColumns, cells: readonly string[]): string[] {
  const copy = cells.map((cell) => (cell === 'no_selection' ? '' : cell))
  if (columns.categories !== undefined)
    copy[columns.categories] = categoryPath(cells[columns.categories] ?? '')
  // Magento's status: 1 enabled, 2 disabled.
  if (columns.online !== undefined && cellAt(cells, columns.online) === '2') copy[columns.online] = '0'
  return copy
}

/**
 * "Default Category/Gear,Default Category/Gear/Fitness Equipment" → "Gear > Fitness Equipment":
 * the deepest path (the first of those as deep) without the store's root category, its first step.
 */
export function categoryPath(text: string): string {
  const paths = categoryPaths(text, '/')
  const deepest = paths.reduce<string[] | undefined>(
    (best, steps) => (best === undefined || steps.length > best.length ? steps : best),
    undefined,
  )
  if (deepest === undefined || deepest.length < 2) return text
  return deepest.slice(1).join(' > ')
}
