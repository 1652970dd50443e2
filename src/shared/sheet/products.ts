import { APP_COLUMN_READING, isAppColumn } from './app-columns.ts'
import { wordsOf } from './header-words.ts'

/**
 * Products with variants, by each export format's own rule, turned into one source row per SKU:
 *
 * - **Shopify** (product CSV): a product is its first row (which is also its first variant);
 *   following rows with the same Handle and an empty Title continue it, each a variant carrying
 *   only its own columns, or only an image (Image Src and Image Position), which is no SKU. A
 *   variant's picture is its Variant Image, else the product's first image.
 * - **WooCommerce**: `variation` rows name their `Parent` (`id:123`, or the parent's SKU),
 *   anywhere in the file; a `variable` parent is a product, not a SKU, unless no variation names
 *   it. Finding parents takes a first pass over the file ({@link ParentIndex}).
 * - **Google Merchant Center**: every row is a complete item; rows sharing `item_group_id` are
 *   the variants of one product.
 *
 * A variant is given the product's cells where its own are empty, and its options (colour, size)
 * by name. Any other sheet is one SKU a row.
 */

export type ProductFormat = 'shopify' | 'woocommerce' | 'merchant-center' | 'plain'

export const FORMAT_NAMES: Record<ProductFormat, string> = {
  shopify: 'Shopify product export',
  woocommerce: 'WooCommerce product export',
  'merchant-center': 'Google Merchant Center feed',
  plain: 'sheet',
}

/** Where a format keeps what it reads itself, by column position. */
export interface ProductLayout {
  format: ProductFormat
  /** Columns the format reads itself, with what it does with them; the column matcher leaves them alone. */
  structural: Map<number, string>
  /** Shopify: Handle, Title, Image Src, Variant Image; the option pairs. */
  handle?: number
  title?: number
  imageSrc?: number
  variantImage?: number
  /** Option name and value columns: Shopify's OptionN, WooCommerce's Attribute N. */
  options: { name: number; value: number }[]
  /** Columns that are the variant's own (Shopify's "Variant …", the options): never inherited. */
  own: Set<number>
  /** Shopify's image columns: a row with nothing else adds an image to its product. */
  images?: Set<number>
  /** WooCommerce: ID, Type, SKU, Parent and Published. */
  id?: number
  published?: number
  type?: number
  sku?: number
  parent?: number
  /** Merchant Center: item_group_id, and the columns a variant differs by. */
  group?: number
  /** Merchant Center's variant attributes, named by their column: `color`, `size`. */
  attributes?: { name: string; column: number }[]
}

/** One SKU's row: its 1-based data row, its cells with the product's filled in, and its options. */
export interface SourceRow {
  row: number
  cells: string[]
  options?: Record<string, string>
}

export interface ProductCounts {
  format: ProductFormat
  /** Products: those with variants counted once, and every product without. */
  products: number
  /** SKUs that are variants of a product with more than one. */
  variants: number
  /** Rows that only add an image to a product (Shopify). */
  imageRows: number
  /** Variations whose parent is not in the file: each read as a product of its own. */
  orphans: number
}

export function productLayout(headers: readonly string[]): ProductLayout {
  const layout = formatLayout(headers)
  // Catalog Desk's own columns (the draft, its sync state, its problems) are never a field.
  headers.forEach((header, index) => {
    if (isAppColumn(header)) layout.structural.set(index, APP_COLUMN_READING)
  })
  return layout
}

function formatLayout(headers: readonly string[]): ProductLayout {
  const words = headers.map((header) => wordsOf(header))
  const at = (...names: string[]) => {
    const index = words.findIndex((w) => names.includes(w))
    return index < 0 ? undefined : index
  }
  const plain: ProductLayout = { format: 'plain', structural: new Map(), options: [], own: new Set() }

  // Shopify's classic template ("Handle", "Variant SKU", "Image Src") and its newer export ("URL
  // handle", "SKU", "Product image URL", "Variant image URL").
  const handle = at('handle', 'url handle')
  const title = at('title')
  const shopifyVariant = at('variant sku', 'variant barcode', 'option1 value', 'variant price')
  if (handle !== undefined && title !== undefined && shopifyVariant !== undefined) {
    const options = [1, 2, 3].flatMap((n) => {
      const name = at(`option${n} name`)
      const value = at(`option${n} value`)
      return name === undefined || value === undefined ? [] : [{ name, value }]
    })
    const variantImage = at('variant image', 'variant image url')
    const imageSrc = at('image src', 'product image url')
    const own = new Set<number>()
    const images = new Set<number>()
    words.forEach((w, index) => {
      if (/^(image src|product image url|image position|image alt text)$/.test(w)) images.add(index)
      if (w.startsWith('variant ') || /^option\d (name|value|linked to)$/.test(w) || images.has(index))
        own.add(index)
    })
    // The newer export drops the "Variant" prefix from the variant's own columns.
    for (const name of [
      'sku',
      'barcode',
      'price',
      'compare at price',
      'grams',
      'weight',
      'weight unit',
      'inventory quantity',
    ]) {
      const index = at(name)
      if (index !== undefined) own.add(index)
    }
    const structural = new Map<number, string>()
    for (const option of options) {
      structural.set(option.name, 'Names a variant option')
      structural.set(option.value, 'The variant’s option value')
    }
    if (variantImage !== undefined && imageSrc !== undefined)
      structural.set(variantImage, 'The variant’s picture (else the product’s first image)')
    // Shopify's standard product taxonomy ("Apparel & Accessories > … > Sunglasses") is not the
    // platform's category; a fixed Category says it better.
    const taxonomy = at('product category')
    if (taxonomy !== undefined)
      structural.set(taxonomy, 'Shopify’s own taxonomy, not the platform’s category')
    // Shopify's active, draft or archived is the shop's listing, not the platform's DRAFT or PUBLISHED.
    const status = at('status')
    if (status !== undefined)
      structural.set(status, 'Shopify’s listing status (active, draft, archived), not the platform’s')
    return {
      ...plain,
      format: 'shopify',
      structural,
      handle,
      title,
      imageSrc,
      variantImage,
      options,
      own,
      images,
    }
  }

  const type = at('type')
  const parent = at('parent')
  const id = at('id')
  const sku = at('sku')
  if (type !== undefined && parent !== undefined && (id !== undefined || sku !== undefined)) {
    const options = words.flatMap((w, index) => {
      const numbered = /^attribute (\d+) name$/.exec(w)
      const value = numbered
        ? at(`attribute ${numbered[1]} value s`, `attribute ${numbered[1]} values`)
        : undefined
      return numbered && value !== undefined ? [{ name: index, value }] : []
    })
    const structural = new Map<number, string>([
      [type, 'Says which rows are variations and which their parents'],
      [parent, 'Names the variation’s parent product'],
    ])
    words.forEach((w, index) => {
      if (/^attribute \d+ (name|value s|values|visible|global|default)$/.test(w))
        structural.set(index, 'A variation’s attribute (its option)')
    })
    // The package's size and weight for shipping, not the product's.
    words.forEach((w, index) => {
      if (/^(weight|length|width|height)( (kg|g|lbs|oz|cm|mm|in|m))?$/.test(w))
        structural.set(index, 'The shipping package’s size or weight, not the product’s')
    })
    const published = at('published')
    const own = new Set(options.flatMap((option) => [option.name, option.value]))
    return { ...plain, format: 'woocommerce', structural, options, own, type, parent, id, sku, published }
  }

  const group = at('item group id')
  if (group !== undefined) {
    const attributes = ['color', 'size'].flatMap((name) => {
      const column = at(name)
      return column === undefined ? [] : [{ name, column }]
    })
    const structural = new Map<number, string>([[group, 'Groups the variants of one product']])
    for (const attribute of attributes) structural.set(attribute.column, 'A variant’s attribute (its option)')
    return { ...plain, format: 'merchant-center', structural, group, attributes }
  }
  return plain
}

const cell = (cells: readonly string[], index: number | undefined) =>
  index === undefined ? '' : (cells[index] ?? '').trim()

/** WooCommerce's parents, found in a first pass: variations may come before them. */
export class ParentIndex {
  private readonly byKey = new Map<string, string[]>()
  /** Keys that a variation names, so a parent nobody names is read as a product of its own. */
  private readonly named = new Set<string>()

  readonly layout: ProductLayout

  constructor(layout: ProductLayout) {
    this.layout = layout
  }

  get needed(): boolean {
    return this.layout.format === 'woocommerce'
  }

  add(cells: readonly string[]) {
    const { layout } = this
    const type = cell(cells, layout.type).toLowerCase()
    if (type.includes('variation')) {
      const parent = cell(cells, layout.parent)
      if (parent) this.named.add(parentKey(parent))
    } else if (type.includes('variable')) {
      const id = cell(cells, layout.id)
      const sku = cell(cells, layout.sku)
      if (id) this.byKey.set(`id:${id}`, [...cells])
      if (sku) this.byKey.set(`sku:${sku}`, [...cells])
    }
  }

  parentOf(reference: string): string[] | undefined {
    return this.byKey.get(parentKey(reference))
  }

  isNamed(cells: readonly string[]): boolean {
    const id = cell(cells, this.layout.id)
    const sku = cell(cells, this.layout.sku)
    return (id !== '' && this.named.has(`id:${id}`)) || (sku !== '' && this.named.has(`sku:${sku}`))
  }
}

/** `id:123` names a parent by ID; anything else by its SKU. */
function parentKey(reference: string): string {
  const trimmed = reference.trim()
  return /^id:\s*\d+$/i.test(trimmed) ? `id:${trimmed.replace(/^id:\s*/i, '')}` : `sku:${trimmed}`
}

/**
 * Reads rows in file order and gives each SKU's source row (or none, for a row that is an image or
 * a parent). Keeps only the product being read (Shopify) or the parents' index (WooCommerce).
 */
export class ProductReader {
  private readonly layout: ProductLayout
  private readonly parents: ParentIndex | undefined
  private shopifyProduct: { handle: string; cells: string[]; skus: number } | undefined
  private readonly groups = new Map<string, number>()
  private readonly counts: ProductCounts

  /** Columns a variant never takes from its product: its own, and whichever the barcode is read from. */
  private readonly own: ReadonlySet<number>

  /** `ownColumns`: columns beyond the format's own that identify the variant (the barcode's). */
  constructor(layout: ProductLayout, parents?: ParentIndex, ownColumns: Iterable<number> = []) {
    this.layout = layout
    this.parents = parents
    this.own = new Set([...layout.own, ...ownColumns])
    this.counts = { format: layout.format, products: 0, variants: 0, imageRows: 0, orphans: 0 }
  }

  /** Counts so far; final once every row has been read. */
  get summary(): ProductCounts {
    return { ...this.counts }
  }

  read(row: number, cells: string[]): SourceRow | undefined {
    switch (this.layout.format) {
      case 'shopify':
        return this.shopify(row, cells)
      case 'woocommerce':
        return this.woocommerce(row, cells)
      case 'merchant-center':
        return this.merchantCenter(row, cells)
      default:
        this.counts.products++
        return { row, cells }
    }
  }

  private shopify(row: number, cells: string[]): SourceRow | undefined {
    const { layout } = this
    const handle = cell(cells, layout.handle)
    // Shopify writes the handle on every row; files made by other tools often leave it on the
    // product's first row only, so a row without handle or title continues the product above.
    const continues =
      this.shopifyProduct !== undefined &&
      (handle === this.shopifyProduct.handle || handle === '') &&
      cell(cells, layout.title) === ''
    if (!continues) {
      this.shopifyProduct = { handle, cells: [...cells], skus: 1 }
      this.counts.products++
      return this.withImage({ row, cells, ...optionsOf(layout, cells, cells) }, cells)
    }
    const product = this.shopifyProduct!
    const variantCells = [...layout.own].filter((index) => !layout.images?.has(index))
    if (!variantCells.some((index) => cell(cells, index) !== '')) {
      this.counts.imageRows++
      return undefined
    }
    // The product's first row was its first variant; it counts as one now that there are two.
    if (product.skus === 1) this.counts.variants++
    product.skus++
    this.counts.variants++
    const merged = inherit(cells, product.cells, this.own)
    return this.withImage({ row, cells: merged, ...optionsOf(layout, cells, product.cells) }, product.cells)
  }

  /** A variant's picture is its own Variant Image, else the product's first image (Shopify). */
  private withImage(source: SourceRow, product: string[]): SourceRow {
    const { imageSrc, variantImage } = this.layout
    if (imageSrc !== undefined && variantImage !== undefined) {
      const own = cell(source.cells, variantImage)
      source.cells = [...source.cells]
      source.cells[imageSrc] = own || cell(product, imageSrc)
    }
    return source
  }

  private woocommerce(row: number, given: string[]): SourceRow | undefined {
    const { layout } = this
    const cells = wooPublished(layout, given)
    const type = cell(cells, layout.type).toLowerCase()
    if (type.includes('variable') && this.parents?.isNamed(cells)) {
      this.counts.products++
      return undefined
    }
    if (!type.includes('variation')) {
      this.counts.products++
      return { row, cells }
    }
    const reference = cell(cells, layout.parent)
    const parent = reference ? this.parents?.parentOf(reference) : undefined
    if (!parent) {
      this.counts.orphans++
      this.counts.products++
      return { row, cells, ...optionsOf(layout, cells, cells) }
    }
    this.counts.variants++
    return {
      row,
      cells: inherit(cells, parent, this.own),
      ...optionsOf(layout, cells, cells),
    }
  }

  private merchantCenter(row: number, cells: string[]): SourceRow {
    const { layout } = this
    const group = cell(cells, layout.group)
    if (!group) {
      this.counts.products++
      return { row, cells }
    }
    const seen = this.groups.get(group) ?? 0
    this.groups.set(group, seen + 1)
    if (seen === 0) this.counts.products++
    // A group's first item counts as a variant once a second one shows it has several.
    if (seen === 1) this.counts.variants++
    if (seen >= 1) this.counts.variants++
    const options: Record<string, string> = {}
    for (const attribute of layout.attributes ?? []) {
      const value = cell(cells, attribute.column)
      if (value) options[attribute.name] = value
    }
    return { row, cells, ...(Object.keys(options).length && { options }) }
  }
}

/**
 * WooCommerce writes Published as 1 (published), 0 (private; a disabled variation), -1 (draft) or 2
 * (pending review): only 1 is live.
 */
function wooPublished(layout: ProductLayout, cells: string[]): string[] {
  const at = layout.published
  if (at === undefined || !/^(-1|2)$/.test(cell(cells, at))) return cells
  const copy = [...cells]
  copy[at] = '0'
  return copy
}

/** The variant's cells, the product's where the variant's are empty, its own columns never. */
function inherit(cells: readonly string[], product: readonly string[], own: ReadonlySet<number>): string[] {
  const length = Math.max(cells.length, product.length)
  return Array.from({ length }, (_, index) => {
    const mine = cells[index] ?? ''
    return mine.trim() !== '' || own.has(index) ? mine : (product[index] ?? '')
  })
}

/**
 * Option names come from the product's row (Shopify writes them once) or the variant's own
 * (WooCommerce), values from the variant's. Shopify's single-variant "Title: Default Title" is no option.
 */
function optionsOf(
  layout: ProductLayout,
  cells: readonly string[],
  names: readonly string[],
): { options?: Record<string, string> } {
  const options: Record<string, string> = {}
  for (const option of layout.options) {
    const name = cell(names, option.name) || cell(cells, option.name)
    const value = cell(cells, option.value)
    if (!name || !value) continue
    if (name === 'Title' && value === 'Default Title') continue
    options[name] = value
  }
  return Object.keys(options).length ? { options } : {}
}
