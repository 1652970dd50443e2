import { isRecord } from '../is-record.ts'
import { documentKind } from '../validation/document.ts'
import { skuKeys } from '../validation/validate.ts'
import { describeColumn, matchColumns, OPTION_COLUMN_PREFIX } from './columns.ts'
import { wordsOf } from './header-words.ts'
import type { ProductCounts, SourceRow } from './products.ts'
import type { ColumnMatch, FieldPath } from './types.ts'

/**
 * A JSON product list that is not SKUs (a shop's or an API's dump: `[{"name", "brand", "price",
 * "product_colors": [{"hex_value", "colour_name"}]}]`, or `{"products": […]}`) read as a table,
 * so it is mapped by the same mapping files, and converted by the same converter, as a sheet:
 *
 * - each column is headed by a JSON path of the products: `name`, `price.amount` for an object's
 *   field, `tag_list` for a list of plain values (its values in one cell, joined by ", ");
 * - a list of objects in each product (shades, variants) gives a column for each of its elements'
 *   fields, `product_colors[].colour_name`. The list whose columns the mapping makes variant options
 *   (`option:NAME`, columns.ts) spreads: one row per element, carrying the product's cells too,
 *   its SKU named by its product's name and its options (`nameFromProduct`). Every other list gives
 *   its first element's fields (`images[].src`: the product's first picture);
 * - a value that is none of these (a list of lists, a list mixing objects and plain values) is one
 *   cell of JSON.
 *
 * Rows are numbered from 1 as a sheet's data rows are, and each says where it is in the file
 * (`[2].product_colors[1]`), so a problem is named by its column's path and the item's position.
 */

/**
 * The largest JSON product list the CLI reads. A list is read whole, as its columns are every path
 * of every product, known only at the end (the app reads a JSON file whole too); a shop's or an
 * API's dump is far smaller. Measured: 30 MB of makeup-API-shaped products (19,500 of them, 97,500
 * shades) took `validate` to 492 MB and 6.8 s, as the workbook bound keeps a sheet within 500 MB.
 */
export const MAX_PRODUCT_LIST_BYTES = 32 * 1024 * 1024

/** Where a list of products sits in a JSON document: the root (`''`) or a member of the root object. */
export interface ProductList {
  at: string
  products: Record<string, unknown>[]
}

/** Items looked at to tell SKUs from a product list: enough to judge, few enough to be quick. */
const SAMPLE_ITEMS = 50

/**
 * Whether items are SKUs: at least half the keys of the first few are the contract's. An empty
 * object, or a file whose items have no keys at all, counts as SKUs (it is read as today, and
 * validation says what is missing).
 */
export function isSkuShaped(items: readonly unknown[]): boolean {
  let keys = 0
  let contract = 0
  for (const item of items.slice(0, SAMPLE_ITEMS)) {
    if (!isRecord(item)) return true
    for (const key of Object.keys(item)) {
      keys++
      // A file whose items mostly use the contract's top-level keys is SKUs.
      if (skuKeys().has(key)) contract++
    }
  }
  return contract * 2 >= keys
}

const isProductList = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) && value.length > 0 && value.every(isRecord)

/**
 * The product list of a JSON document that is not SKUs, or undefined for one that is (a SKU, a
 * list of SKUs, a bulk request, an app request: read as they always were). A product list is a list
 * of objects, or an object holding exactly one list of objects (`{"products": […], "total": 12}`),
 * whose items are not SKU-shaped.
 */
export function productListOf(document: unknown): ProductList | undefined {
  if (Array.isArray(document))
    return isProductList(document) && !isSkuShaped(document) ? { at: '', products: document } : undefined
  if (!isRecord(document) || documentKind(document) !== 'sku' || isSkuShaped([document])) return undefined
  const lists = Object.entries(document).filter(([, value]) => isProductList(value))
  if (lists.length !== 1) return undefined
  const [at, products] = lists[0]! as [string, Record<string, unknown>[]]
  return isSkuShaped(products) ? undefined : { at, products }
}

/** Marks a list of objects in a header: `product_colors[].colour_name`. */
const EACH = '[]'

/** The paths of a product's fields, as column headers, in the order they first appear. */
export function jsonHeaders(products: readonly Record<string, unknown>[]): string[] {
  const headers = new Set<string>()
  const visit = (value: Record<string, unknown>, prefix: string, inList: boolean) => {
    for (const [key, child] of Object.entries(value)) {
      const path = `${prefix}${key}`
      // An empty list or object has nothing to map: its path comes from the products that fill it.
      if (isRecord(child)) visit(child, `${path}.`, inList)
      else if (Array.isArray(child) && child.length === 0) continue
      else if (!inList && isProductList(child)) for (const item of child) visit(item, `${path}${EACH}.`, true)
      else headers.add(path)
    }
  }
  for (const product of products) visit(product, '', false)
  return [...headers]
}

/** The list a header belongs to (`product_colors` of `product_colors[].colour_name`), if any. */
export function listOfHeader(header: string): string | undefined {
  const at = header.indexOf(`${EACH}.`)
  return at < 0 ? undefined : header.slice(0, at)
}

/** A value as one cell: text as it is, numbers and yes/no as JSON writes them, plain lists joined. */
function cellOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'))
    return value
      .map(cellOf)
      .filter((text) => text !== '')
      .join(', ')
  if (isRecord(value) && Object.keys(value).length === 0) return ''
  return JSON.stringify(value)
}

/** The value at a header's path inside one object (a product, or one element of its list). */
function valueAt(value: unknown, path: string): unknown {
  let at: unknown = value
  for (const key of path.split('.')) {
    if (!isRecord(at)) return undefined
    at = at[key]
  }
  return at
}

/**
 * The list that spreads into one row per element: the list of the columns the mapping makes
 * variant options (`option:NAME`). Undefined when no column is an option; an error when options
 * come from two lists (a product's shades and its sizes would multiply, which no file means).
 */
export function spreadListOf(
  headers: readonly string[],
  columns: readonly (FieldPath | null)[],
): { list?: string } | { error: string } {
  const lists = new Set<string>()
  const plain: string[] = []
  columns.forEach((path, index) => {
    if (!path?.startsWith(OPTION_COLUMN_PREFIX)) return
    const list = listOfHeader(headers[index] ?? '')
    if (list === undefined) plain.push(headers[index] ?? '')
    else lists.add(list)
  })
  if (lists.size > 1)
    return {
      error: `variant options come from two lists (${[...lists].map((list) => `"${list}"`).join(' and ')}): only one list of a product spreads into one SKU per element`,
    }
  return lists.size === 1 ? { list: [...lists][0] } : {}
}

/** Usual keys of a variant's option in a product's list (`colour_name`, `shade`, `size`). */
const OPTION_WORDS = new Set([
  'colour name',
  'color name',
  'colour',
  'color',
  'shade',
  'shade name',
  'size',
  'option1',
  'option 1',
])

/**
 * What a list's columns are guessed to fill, as a mapping file's columns, beyond what their whole
 * path matches (`product_colors[].colour_name` matches nothing as it is written):
 * - each field a variant's option is usually called (`colour_name`, `shade`, `size`, Shopify's
 *   `option1`) an option, when all such fields are in one list;
 * - a field matched by its own key (`variants[].barcode`: Barcode), when no other column fills it
 *   (`variants[].title` is not the product's name when `title` is).
 * A mapping file's own columns come before these; the app shows them on its mapping screen.
 */
export function guessedColumns(headers: readonly string[]): Record<string, FieldPath> {
  const keys = headers.map((header) => header.slice(header.lastIndexOf('.') + 1))
  const found = headers.flatMap((header, at) => {
    const list = listOfHeader(header)
    return list !== undefined && OPTION_WORDS.has(wordsOf(keys[at]!))
      ? [{ header, list, key: keys[at]! }]
      : []
  })
  const guessed: Record<string, FieldPath> =
    new Set(found.map((option) => option.list)).size === 1
      ? Object.fromEntries(found.map(({ header, key }) => [header, `${OPTION_COLUMN_PREFIX}${key}`]))
      : {}
  const filled = new Set(matchColumns(headers).flatMap((match) => (match.path === null ? [] : [match.path])))
  matchColumns(keys).forEach((match, at) => {
    const header = headers[at]!
    if (match.path === null || listOfHeader(header) === undefined || Object.hasOwn(guessed, header)) return
    if (filled.has(match.path)) return
    filled.add(match.path)
    guessed[header] = match.path
  })
  return guessed
}

/**
 * A mapping's columns by header with the guesses (`guessedColumns`) for the headers it does not
 * name; guessed options only when it names none itself, so two lists never both spread.
 */
export function withGuessedColumns(
  headers: readonly string[],
  columns: Readonly<Record<string, FieldPath | null>> = {},
): Record<string, FieldPath | null> {
  const ownOptions = Object.values(columns).some((path) => path?.startsWith(OPTION_COLUMN_PREFIX))
  const guessed = Object.entries(guessedColumns(headers)).filter(
    ([, path]) => !(ownOptions && path.startsWith(OPTION_COLUMN_PREFIX)),
  )
  return { ...Object.fromEntries(guessed), ...columns }
}

/**
 * Matches made from the guesses (`withGuessedColumns`) and not from the person's own `saved`
 * choices, said as guesses: the mapping screen says why, never "your saved mapping".
 */
export function saidAsGuesses(
  matches: readonly ColumnMatch[],
  saved: Readonly<Record<string, FieldPath | null>> = {},
): ColumnMatch[] {
  const guessed = guessedColumns(matches.map((match) => match.header))
  return matches.map((match) => {
    const path = guessed[match.header]
    if (match.by !== 'saved' || Object.hasOwn(saved, match.header) || path !== match.path) return match
    const key = match.header.slice(match.header.lastIndexOf('.') + 1)
    const list = listOfHeader(match.header)
    const why = path.startsWith(OPTION_COLUMN_PREFIX)
      ? `“${key}”, a usual name of a variant’s option: each element of “${list}” is a SKU of its own`
      : `its key, “${key}”, names ${describeColumn(path)}`
    return { ...match, by: 'synonym', why }
  })
}

/** A product list as rows of cells under `headers`, its `spread` list one row per element. */
export interface JsonTable {
  sources: SourceRow[]
  /** Where each row is in the file, by row (`[2]`, `products[2].product_colors[1]`), from row 1. */
  places: string[]
  counts: ProductCounts
}

export function jsonTable(
  list: ProductList,
  headers: readonly string[],
  spread: string | undefined,
): JsonTable {
  const sources: SourceRow[] = []
  const places: string[] = []
  const counts: ProductCounts = { format: 'json', products: 0, variants: 0, imageRows: 0, orphans: 0 }
  const split = headers.map((header) => {
    const list = listOfHeader(header)
    return list === undefined ? { path: header } : { path: header.slice(list.length + EACH.length + 1), list }
  })
  list.products.forEach((product, index) => {
    counts.products++
    const cells = split.map(({ path, list }) => {
      if (list === undefined || list === spread)
        return list === undefined ? cellOf(valueAt(product, path)) : ''
      const items = valueAt(product, list)
      return Array.isArray(items) ? cellOf(valueAt(items[0], path)) : ''
    })
    const place = `${list.at}[${index}]`
    const elements = spread === undefined ? undefined : valueAt(product, spread)
    if (!Array.isArray(elements) || elements.length === 0) {
      sources.push({ row: sources.length + 1, cells })
      places.push(place)
      return
    }
    if (elements.length > 1) counts.variants += elements.length
    elements.forEach((element, at) => {
      const own = split.map(({ path, list }, column) =>
        list === spread ? cellOf(valueAt(element, path)) : cells[column]!,
      )
      sources.push({ row: sources.length + 1, cells: own, nameFromProduct: true })
      places.push(`${place}.${spread}[${at}]`)
    })
  })
  return { sources, places, counts }
}
