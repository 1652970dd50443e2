import { wordsOf } from './header-words.ts'
import { cellAt } from './cell-at.ts'
import { isAsideCategory } from './category-lists.ts'

/**
 * Wix Stores' product CSV, as its dashboard exports it (Store Products › More Actions › Export; its
 * import template has the same columns), in both of Wix's catalogs:
 *
 * - **The classic catalog**: `handleId, fieldType, name, description, productImageUrl, collection,
 *   sku, ribbon, price, surcharge, visible, …, productOptionName1, productOptionType1,
 *   productOptionDescription1, …, brand` (48 to 53 columns by the export's age: read by name).
 *   A product is its `Product` row; the `Variant` rows with its `handleId`, written after it, are its
 *   variants, each with only its own cells (`sku`, `surcharge`, `visible`, `inventory`, `weight`, its
 *   choice of each option in `productOptionDescriptionN`). Its pictures are in `productImageUrl`,
 *   joined by `;`; its collections in `collection`, joined by `;`, in no order: the first that is
 *   not one to sell by ("Sale", "New Arrivals": category-lists.ts) is the category.
 * - **Catalog V3** (Wix's newer stores): `handle, fieldType, name, visible, plainDescription,
 *   categorySlugs, primaryCategorySlug, media, …, sku, barcode, …, productOptionName1,
 *   productOptionType1, productOptionChoices1, …`. `PRODUCT` rows, then the product's `VARIANT`
 *   rows (each with its own price, sku, barcode and choices), then a `MEDIA` row per picture (no
 *   SKU): the first is the product image. The category is `primaryCategorySlug`, else the first of
 *   `categorySlugs` that is not one to sell by.
 *
 * In both, a product with variant rows is no SKU itself; one without (no options, or options
 * chosen at checkout only) is one. A variant takes from its product what it leaves empty and is
 * named by the product's name and its choices; the option's name is the product's. A colour's
 * choice is written with its colour (`#B22222:Cerise`, `rgb(178,34,34):Cerise`) and named by its
 * name. A picture is the name of a file in the shop's Wix media (`a6901a_7b3e…~mv2.jpg`), which
 * Wix serves at `https://static.wixstatic.com/media/` and that name: read as that address (an
 * address stays as written; a media file that is no picture is left out). `visible` (the product's
 * or the variant's) is the SKU's Active, as any sheet's Visible is (field-words.ts). The classic
 * export has no barcode column; `sku` is the shop's own code, never taken for one unasked.
 */

/** Where Wix serves the files of a site's media: a media file's name after it is its address. */
export const WIX_MEDIA = 'https://static.wixstatic.com/media/'

/** Where a Wix sheet keeps what the format reads itself, by column position. */
export interface WixColumns {
  handle: number
  fieldType: number
  /** The picture column: the classic `productImageUrl` (a list), V3's `media` (one a row). */
  image?: number
  /** The column read as the category: `collection`, `primaryCategorySlug`, else `categorySlugs`. */
  category?: number
  /** A list of categories whose first stands in when `category` is empty (or is the list itself). */
  categories?: number
  /** Each option's name (on the product's row) and choice (the variant's). */
  options: { name: number; choice: number }[]
  /** A variant's own columns, never taken from its product. */
  own: number[]
  structural: [column: number, reading: string][]
  /** Columns read as a field under another word than their own, with why (collection as the category). */
  readAs: [column: number, header: string, why: string][]
}

/** The cells a variant row fills for itself; the rest are its product's. */
const VARIANT_OWN = new Set([
  'sku',
  'barcode',
  'price',
  'strikethrough price',
  'surcharge',
  'visible',
  'inventory',
  'weight',
  'cost',
])

/** The layout of Wix's product CSV, or undefined for any other sheet. */
export function wixColumns(headers: readonly string[]): WixColumns | undefined {
  const words = headers.map((header) => wordsOf(header))
  const at = (name: string) => {
    const index = words.indexOf(name)
    return index < 0 ? undefined : index
  }
  // The classic catalog's handleId; V3's handle, which Shopify's export has too, but not fieldType.
  const handle = at('handle id') ?? at('handle')
  const fieldType = at('field type')
  if (handle === undefined || fieldType === undefined) return undefined
  const structural: [number, string][] = [
    [handle, 'Ties a product’s variant rows to it'],
    [fieldType, 'Says which rows are products and which their variants'],
  ]
  const options: WixColumns['options'] = []
  const own: number[] = []
  words.forEach((w, index) => {
    const option = /^product option (name|type|description|choices)(\d+)$/.exec(w)
    if (option?.[1] === 'name') {
      const choice = at(`product option description${option[2]}`) ?? at(`product option choices${option[2]}`)
      if (choice !== undefined) options.push({ name: index, choice })
      structural.push([index, 'Names a product option'])
    }
    if (option?.[1] === 'type') structural.push([index, 'The option’s kind (a list or colours)'])
    if (option?.[1] === 'description' || option?.[1] === 'choices') {
      structural.push([index, 'A product’s choices, a variant’s own choice'])
      own.push(index)
    }
    if (VARIANT_OWN.has(w)) own.push(index)
    // Wix's weight is what shipping is charged by, as other shops' is: not a measure of the product.
    if (w === 'weight') structural.push([index, 'The weight shipping is charged by, not the product’s'])
  })
  const readAs: WixColumns['readAs'] = []
  const image = at('product image url') ?? at('media')
  if (image !== undefined && words[image] === 'media')
    readAs.push([image, 'Product image', 'Wix’s media: the product’s first picture is its image'])
  const { category, categories } = categoryColumns(at, structural, readAs)
  return {
    handle,
    fieldType,
    ...(image !== undefined && { image }),
    ...(category !== undefined && { category }),
    ...(categories !== undefined && { categories }),
    options,
    own,
    structural,
    readAs,
  }
}

/** The classic catalog's collections, or V3's primary category and its list of categories. */
function categoryColumns(
  at: (name: string) => number | undefined,
  structural: WixColumns['structural'],
  readAs: WixColumns['readAs'],
): Pick<WixColumns, 'category' | 'categories'> {
  const collection = at('collection')
  if (collection !== undefined) {
    readAs.push([
      collection,
      'Category',
      'Wix’s collections, in no order: the first that is not one to sell by (such as “Sale”) is the category',
    ])
    return { category: collection, categories: collection }
  }
  const primary = at('primary category slug')
  const slugs = at('category slugs')
  if (primary !== undefined) {
    readAs.push([primary, 'Category', 'Wix’s primary category (its slug), else its first category'])
    if (slugs !== undefined)
      structural.push([slugs, 'Wix’s categories: the first is the category when no primary one is set'])
    return { category: primary, ...(slugs !== undefined && { categories: slugs }) }
  }
  if (slugs === undefined) return {}
  readAs.push([
    slugs,
    'Category',
    'Wix’s categories (their slugs): the first that is not one to sell by is the category',
  ])
  return { category: slugs, categories: slugs }
}

/** What one row of a Wix sheet is. */
export type WixRow =
  /** A SKU of its own: a product without variant rows, or a variant whose product is not above it. */
  | { kind: 'product'; cells: string[]; orphan?: true }
  /** A product whose variant rows are its SKUs. */
  | { kind: 'parent' }
  /** A picture of a product (V3's MEDIA row): no SKU. */
  | { kind: 'media' }
  /** A product's variant: its cells, its product's, and its choices by option name. */
  | { kind: 'variant'; cells: string[]; product: readonly string[]; options?: Record<string, string> }

/**
 * A Wix sheet's products with variant rows and V3's first picture of each, found in a first pass
 * (a product row comes before its variants and its pictures, so it cannot tell by itself whether
 * it is a SKU, nor what its picture is), then each row told apart.
 */
export class WixProducts {
  private readonly withVariants = new Set<string>()
  private readonly firstMedia = new Map<string, string>()
  /** The product being read, whose variant rows follow it. */
  private product: { handle: string; cells: string[] } | undefined
  readonly columns: WixColumns

  constructor(columns: WixColumns) {
    this.columns = columns
  }

  add(cells: readonly string[]) {
    const handle = cellAt(cells, this.columns.handle)
    const kind = rowKind(this.columns, cells)
    if (kind === 'variant') this.withVariants.add(handle)
    const media = cellAt(cells, this.columns.image)
    if (kind === 'media' && media && !this.firstMedia.has(handle)) this.firstMedia.set(handle, media)
  }

  read(given: readonly string[]): WixRow {
    const { columns } = this
    const handle = cellAt(given, columns.handle)
    const kind = rowKind(columns, given)
    if (kind === 'media') return { kind: 'media' }
    const cells = readable(columns, given, this.firstMedia.get(handle))
    if (kind === 'product') {
      if (!this.withVariants.has(handle)) return { kind: 'product', cells }
      this.product = { handle, cells }
      return { kind: 'parent' }
    }
    const { product } = this
    if (product?.handle !== handle) return { kind: 'product', cells, orphan: true }
    const options: Record<string, string> = {}
    for (const option of columns.options) {
      const name = cellAt(product.cells, option.name) || cellAt(cells, option.name)
      const choice = choiceName(cellAt(cells, option.choice))
      if (name && choice) options[name] = choice
    }
    return {
      kind: 'variant',
      cells,
      product: product.cells,
      ...(Object.keys(options).length && { options }),
    }
  }
}

/** Product, Variant (classic) or PRODUCT, VARIANT, MEDIA (V3); anything else is read as a product. */
function rowKind(columns: WixColumns, cells: readonly string[]): 'product' | 'variant' | 'media' {
  const kind = cellAt(cells, columns.fieldType).toLowerCase()
  return kind === 'variant' || kind === 'media' ? kind : 'product'
}

/** A colour's choice, `#000000:Black` or `rgb(0, 0, 0):Black`, is named by its name; any other as written. */
function choiceName(choice: string): string {
  const colour = /^(?:#[0-9a-f]{3,8}|rgba?\([\d\s,.%]+\)):(.+)$/i.exec(choice)
  return colour ? colour[1]!.trim() : choice
}

/**
 * A row's cells as the column matcher's fields read them: its pictures as addresses (V3's product
 * its first MEDIA row's), its category alone: the primary one, else the first of its list that is
 * not a collection to sell by, else the first.
 */
function readable(columns: WixColumns, cells: readonly string[], firstMedia: string | undefined): string[] {
  const copy = [...cells]
  if (columns.image !== undefined)
    copy[columns.image] = mediaAddresses(cellAt(cells, columns.image) || (firstMedia ?? ''))
  if (columns.category !== undefined) {
    const own = columns.category === columns.categories ? '' : cellAt(cells, columns.category)
    const names = cellAt(cells, columns.categories)
      .split(';')
      .map((name) => name.trim())
      .filter(Boolean)
    copy[columns.category] = own || (names.find((name) => !isAsideCategory(name)) ?? names[0] ?? '')
  }
  return copy
}

/** A picture in a shop's Wix media as Wix names it: no path, no scheme, no space, a picture's extension. */
const MEDIA_PICTURE = /^[\w~.-]+\.(?:jpe?g|png|gif|webp|avif|bmp|tiff?)$/i

/** A file of a shop's Wix media that is no picture: a video's, an id without an extension. */
const MEDIA_OTHER = /^[\w~.-]+$/

/**
 * "a6901a_7b3e…~mv2.jpg;a6901a_a8fe…~mv2.png" → the pictures' addresses, joined as a cell of several
 * images is read ("https://…, https://…"). An address stays as written; a media file that is no
 * picture is left out, and a cell of those alone is no picture (empty). Anything else (a path, a
 * file name with spaces) stays as written, for the field's own check to judge.
 */
export function mediaAddresses(text: string): string {
  const entries = text
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const addresses = entries.flatMap((entry) =>
    /^https?:\/\//i.test(entry) ? [entry] : MEDIA_PICTURE.test(entry) ? [`${WIX_MEDIA}${entry}`] : [],
  )
  if (addresses.length) return addresses.join(', ')
  return entries.length && entries.every((entry) => MEDIA_OTHER.test(entry)) ? '' : text
}
