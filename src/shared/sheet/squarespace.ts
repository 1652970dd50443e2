import { categoryPaths } from './category-paths.ts'
import { wordsOf } from './header-words.ts'
import { cellAt } from './cell-at.ts'

/**
 * Squarespace's product CSV, as Commerce › Inventory › Export writes it: `Product ID [Non Editable],
 * Variant ID [Non Editable], Product Type [Non Editable], Product Page, Product URL, Title,
 * Description, SKU, Option Name 1, Option Value 1, …, Price, Sale Price, On Sale, Stock, Categories,
 * Tags, Weight, Length, Width, Height, Visible, Hosted Image URLs`.
 *
 * - A product is its row with a Product ID, which is also its first variant; the rows below it
 *   without a Product ID (nor a Title) are its other variants, each with only its own cells (its
 *   Variant ID, SKU, option values, price and stock). A variant takes the rest from its product and
 *   is named by the product's Title with its option values.
 * - `Product Type` is PHYSICAL, DIGITAL, SERVICE or GIFT_CARD: only a physical product is one to
 *   try on; the others are skipped, counted.
 * - `Product Page` is the shop page's path (`shop`) and `Product URL` the product's (`lily-b29gl`):
 *   neither is a web address (the shop's domain is not in the file), so neither is the action link.
 * - `Categories` lists the product's categories as paths (`/flower/ageratum/blue-horizon`), joined
 *   by commas: the first is read as a category path, "flower > ageratum > blue-horizon", which
 *   rows.ts splits into the category and sub-category as it splits any shop's.
 * - `Hosted Image URLs` joins the pictures' addresses with spaces (convert.ts takes the first);
 *   `Visible` (Yes or No) is Active; `SKU` is the shop's own code. The export has no barcode column.
 * - Weight and the three lengths are the shipping package's, not the product's.
 */

/** Where a Squarespace sheet keeps what the format reads itself, by column position. */
export interface SquarespaceColumns {
  productId: number
  title?: number
  type?: number
  categories?: number
  /** Option name and value columns, in the file's order. */
  options: { name: number; value: number }[]
  /** A variant's own columns, never taken from its product. */
  own: number[]
  structural: [column: number, reading: string][]
}

/** The cells a variant row fills for itself; the rest are its product's. */
const VARIANT_OWN =
  /^(variant id( non editable)?|sku|price|sale price|on sale|stock|option (name|value) \d+)$/

/** The layout of Squarespace's product export, or undefined for any other sheet. */
export function squarespaceColumns(headers: readonly string[]): SquarespaceColumns | undefined {
  const words = headers.map((header) => wordsOf(header))
  const at = (...names: string[]) => {
    const index = words.findIndex((w) => names.includes(w))
    return index < 0 ? undefined : index
  }
  const productId = at('product id non editable')
  const variantId = at('variant id non editable')
  if (productId === undefined || variantId === undefined) return undefined
  const type = at('product type non editable')
  const structural: [number, string][] = [
    [productId, 'Says which rows are products and which their variants'],
    [variantId, 'The variant’s own id in the shop'],
  ]
  if (type !== undefined)
    structural.push([type, 'Physical, digital, service or gift card: only a physical product is read'])
  const options = words.flatMap((w, index) => {
    const numbered = /^option name (\d+)$/.exec(w)
    const value = numbered ? at(`option value ${numbered[1]}`) : undefined
    return numbered && value !== undefined ? [{ name: index, value }] : []
  })
  const own: number[] = []
  words.forEach((w, index) => {
    if (VARIANT_OWN.test(w)) own.push(index)
    if (/^option name \d+$/.test(w)) structural.push([index, 'Names a variant option'])
    if (/^option value \d+$/.test(w)) structural.push([index, 'The variant’s option value'])
    if (w === 'product page' || w === 'product url')
      structural.push([index, 'A page’s path in the shop, without its address: not the action link'])
    if (/^(weight|length|width|height)$/.test(w))
      structural.push([index, 'The shipping package’s size or weight, not the product’s'])
  })
  const title = at('title')
  const categories = at('categories')
  return {
    productId,
    ...(title !== undefined && { title }),
    ...(type !== undefined && { type }),
    ...(categories !== undefined && { categories }),
    options,
    own,
    structural,
  }
}

/** Whether the row starts a product (it has a Product ID), rather than continuing the one above. */
export function startsProduct(columns: SquarespaceColumns, cells: readonly string[]): boolean {
  return cellAt(cells, columns.productId) !== '' || cellAt(cells, columns.title) !== ''
}

/** Whether the product is no physical one (digital, a service, a gift card). */
export function notPhysical(columns: SquarespaceColumns, cells: readonly string[]): boolean {
  const type = cellAt(cells, columns.type).toUpperCase()
  return type !== '' && type !== 'PHYSICAL'
}

/** A row's cells as the column matcher's fields read them: its first category as a path. */
export function readableCells(columns: SquarespaceColumns, cells: readonly string[]): string[] {
  if (columns.categories === undefined) return [...cells]
  const copy = [...cells]
  const [first] = categoryPaths(cellAt(cells, columns.categories), '/')
  if (first) copy[columns.categories] = first.join(' > ')
  return copy
}
