import { APP_COLUMN_READING, isAppColumn } from './app-columns.ts'
import { namesWords, wordsOf } from './header-words.ts'
import type { FieldPath } from './types.ts'
import { wooCommerceInEnglish } from './woocommerce-language.ts'
import { PrestashopProducts, prestashopColumns, type PrestashopColumns } from './prestashop.ts'
import { MagentoProducts, magentoColumns, type MagentoColumns } from './magento.ts'
import { WixProducts, wixColumns, type WixColumns } from './wix.ts'
import { AkeneoProducts, akeneoColumns, type AkeneoColumns } from './akeneo.ts'
import { odooColumns, odooRow, type OdooColumns } from './odoo.ts'
import {
  notPhysical,
  readableCells,
  squarespaceColumns,
  startsProduct,
  type SquarespaceColumns,
} from './squarespace.ts'
import { cellAt } from './cell-at.ts'
import { refuseShopifyInventory } from './shopify-inventory.ts'
import { unescapeFormula } from './formula.ts'

/**
 * Products with variants, by each export format's own rule, turned into one source row per SKU:
 *
 * - **Shopify** (product CSV): a product is its first row (which is also its first variant);
 *   following rows with the same Handle and an empty Title continue it, each a variant carrying
 *   only its own columns, or only an image (Image Src and Image Position), which is no SKU. A
 *   variant's picture is its Variant Image, else the product's first image.
 * - **WooCommerce**: `variation` rows name their `Parent` (`id:123`, or the parent's SKU),
 *   anywhere in the file; a `variable` parent is a product, not a SKU, unless no variation names
 *   it. Finding parents takes a first pass over the file ({@link ParentIndex}). Its headers may be
 *   in the shop's language ("Nome", "Ascendente"): read as the English ones (woocommerce-language.ts).
 *   Downloadable, virtual, grouped and external products are no physical product: skipped, counted.
 * - **Google Merchant Center** (its tab-separated feed, or its XML feed read by xml-feed.ts):
 *   every row is a complete item; rows sharing `item_group_id` are the variants of one product.
 * - **PrestaShop** (prestashop.ts): its products file; read with its combinations file
 *   (prestashop-pair.ts), each combination is a variant of the product its `Product ID` names.
 * - **Magento 2** (magento.ts): a configurable product's children, simple rows of their own, are its
 *   variants; store views' rows (translations) and products that are no physical one are skipped.
 * - **Squarespace** (squarespace.ts): a product's row (with its Product ID) is its first variant;
 *   the rows below it without one are its other variants, as Shopify's continue its handle.
 * - **Wix** (wix.ts): a product's variant rows, after its product's row, are its variants; in its
 *   newer catalog a MEDIA row adds a picture to its product.
 * - **Akeneo** (akeneo.ts): the products that name one product model (`parent`), or one variant
 *   group, are its variants, each a complete row; those sharing a name are named with their axes.
 * - **Odoo** (odoo.ts): a product a row; the rows that only carry more of its lists are none, and
 *   a service is skipped.
 *
 * A variant is given the product's cells where its own are empty, and its options (colour, size)
 * by name. Any other sheet is one SKU a row.
 */

export type ProductFormat =
  | 'shopify'
  | 'woocommerce'
  | 'merchant-center'
  | 'prestashop'
  | 'magento'
  | 'wix'
  | 'squarespace'
  | 'akeneo'
  | 'odoo'
  | 'json'
  | 'plain'

export const FORMAT_NAMES: Record<ProductFormat, string> = {
  shopify: 'Shopify product export',
  woocommerce: 'WooCommerce product export',
  'merchant-center': 'Google Merchant Center feed',
  prestashop: 'PrestaShop product import',
  magento: 'Magento product export',
  wix: 'Wix product export',
  squarespace: 'Squarespace product export',
  akeneo: 'Akeneo product export',
  odoo: 'Odoo product export',
  // Read by json-table.ts, whose rows are made whole (never by a sheet's headers).
  json: 'JSON product list',
  plain: 'sheet',
}

/** Where a format keeps what it reads itself, by column position. */
export interface ProductLayout {
  format: ProductFormat
  /**
   * A WooCommerce export written in the shop's language: the language ("Portuguese"), and each
   * column's header as the English one it translates (else as written), which the format and the
   * column matcher read; the person keeps seeing the header as written. Wix's export reads some of
   * its columns as another field's header too (`readAsWhy` says why).
   */
  language?: string
  readAs?: string[]
  /** Why a column is read as another header, when not for its language (Wix's collection as Category). */
  readAsWhy?: Map<number, string>
  /** Columns the format reads itself, with what it does with them; the column matcher leaves them alone. */
  structural: Map<number, string>
  /** Of those, the ones that may fill a field no other column fills, at the person's word. */
  offers?: Map<number, FieldPath>
  /** Shopify: Handle, Title, Image Src, Variant Image; the option pairs. A Merchant Center feed: its title. */
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
  /** Shopify's Gift Card (true on a gift card's first row): no product to try on. */
  giftCard?: number
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
  /** PrestaShop (prestashop.ts): its products file, read with its combinations or alone. */
  prestashop?: PrestashopColumns
  /** Magento 2 (magento.ts): its product export. */
  magento?: MagentoColumns
  /** Wix (wix.ts): its product export. */
  wix?: WixColumns
  /** Squarespace (squarespace.ts): its product export. */
  squarespace?: SquarespaceColumns
  /** Akeneo (akeneo.ts): its product export. */
  akeneo?: AkeneoColumns
  /** Odoo (odoo.ts): its product export. */
  odoo?: OdooColumns
}

/** One SKU's row: its 1-based data row, its cells with the product's filled in, and its options. */
export interface SourceRow {
  row: number
  cells: string[]
  options?: Record<string, string>
  /**
   * The row's name is its product's, not a name of the variant's own (Shopify's variants, a
   * PrestaShop combination, a shade in a JSON product's list): the SKU is named by the product's
   * name with the variant's options ("Classic Tee – Red / M").
   */
  nameFromProduct?: true
}

export interface ProductCounts {
  format: ProductFormat
  /** Products: those with variants counted once, and every product without. */
  products: number
  /** SKUs that are variants of a product with more than one. */
  variants: number
  /** Rows that only add an image to a product (Shopify; Wix’s MEDIA rows). */
  imageRows: number
  /** Variations whose parent is not in the file: each read as a product of its own. */
  orphans: number
  /** The first of those (data rows), for a person to find them: their parent's reference is mistyped, say. */
  orphanRows?: number[]
  /** The language of the headers, when not English (a WooCommerce export in the shop's language). */
  language?: string
  /** Rows that only carry more of the product above's lists (Odoo's export); none: absent. */
  listRows?: number
  /** Products that are no physical product, and Magento's store views' rows, skipped (no SKU), by why; none: absent. */
  skipped?: Partial<Record<SkipReason, number>>
}

/** The orphans' rows named: a few, as a list of places says ("lines 23, 30, 96 and 15 more"). */
const ORPHAN_ROWS_KEPT = 5

/**
 * Why a product is skipped: downloadable or virtual, a service, or a gift card (nothing to try on), grouped (a set of other
 * products, each in the file), a bundle (Magento's: other products sold together, each in the
 * file), external (sold on another site); a store view's row (Magento's translation of a product).
 */
export type SkipReason =
  'not-physical' | 'service' | 'gift-card' | 'grouped' | 'bundle' | 'external' | 'store-view'

export function productLayout(headers: readonly string[]): ProductLayout {
  // A WooCommerce export in the shop's language, read in English; some of its headers may be the
  // same words in both ("Type" and "Parent" in French).
  const english = wooCommerceInEnglish(headers)
  const translated = english && formatLayout(english.headers, true)
  const layout =
    translated?.format === 'woocommerce'
      ? { ...translated, language: english!.language, readAs: english!.headers }
      : formatLayout(headers)
  // Catalog Desk's own columns (the draft, its sync state, its problems) are never a field.
  headers.forEach((header, index) => {
    if (isAppColumn(header)) layout.structural.set(index, APP_COLUMN_READING)
  })
  return layout
}

/** What the column matcher takes from a layout: the columns the format reads itself, the headers as it reads them. */
export function matchOptionsOf(layout: ProductLayout): {
  structural: ReadonlyMap<number, string>
  offers?: ReadonlyMap<number, FieldPath>
  readAs?: readonly string[]
  readAsWhy?: ReadonlyMap<number, string>
} {
  return {
    structural: layout.structural,
    ...(layout.offers && { offers: layout.offers }),
    ...(layout.readAs && { readAs: layout.readAs }),
    ...(layout.readAsWhy && { readAsWhy: layout.readAsWhy }),
  }
}

/** A Shopify product export's layout, told by its Handle, Title and a variant's column. */
function shopifyLayout(
  words: readonly string[],
  at: (...names: string[]) => number | undefined,
): ProductLayout | undefined {
  // Shopify's classic template ("Handle", "Variant SKU", "Image Src") and its newer export ("URL
  // handle", "SKU", "Product image URL", "Variant image URL").
  const handle = at('handle', 'url handle')
  const title = at('title')
  const shopifyVariant = at('variant sku', 'variant barcode', 'option1 value', 'variant price')
  if (handle === undefined || title === undefined || shopifyVariant === undefined) return undefined
  refuseShopifyInventory(words)
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
  // platform's category; a fixed Category says it better. A shop with no column of its own for it
  // (Type is the sub-category) may still want those paths: offered, never taken unasked.
  const taxonomy = at('product category')
  const offers = new Map<number, FieldPath>()
  if (taxonomy !== undefined) {
    structural.set(taxonomy, 'Shopify’s own taxonomy, not the platform’s category')
    offers.set(taxonomy, 'category')
  }
  // Shopify's active, draft or archived is the shop's listing, not the platform's DRAFT or PUBLISHED.
  const status = at('status')
  if (status !== undefined)
    structural.set(status, 'Shopify’s listing status (active, draft, archived), not the platform’s')
  const giftCard = at('gift card')
  if (giftCard !== undefined) structural.set(giftCard, 'A gift card is no product: its rows are skipped')
  return {
    format: 'shopify',
    structural,
    offers,
    handle,
    title,
    ...(giftCard !== undefined && { giftCard }),
    imageSrc,
    variantImage,
    options,
    own,
    images,
  }
}

/**
 * A Google Merchant Center feed's layout, told by its item_group_id or google_product_category,
 * or by image_link beside availability or condition: the names of Google's product data
 * specification, which no shop's own export uses (a feed laid out as Google's own example has
 * neither of the first two: a tryout's 2,200 shoes lost their sizes, read as a plain sheet).
 */
function merchantCenterLayout(
  at: (...names: string[]) => number | undefined,
): Pick<ProductLayout, 'format' | 'structural' | 'offers' | 'group' | 'title' | 'attributes'> | undefined {
  // A feed without variants has no item_group_id, but google_product_category is Google's alone.
  const group = at('item group id')
  const googleCategory = at('google product category')
  const googleNames = at('image link') !== undefined && at('availability', 'condition') !== undefined
  if (group === undefined && googleCategory === undefined && !googleNames) return undefined
  const attributes = ['color', 'size'].flatMap((name) => {
    const column = at(name)
    return column === undefined ? [] : [{ name, column }]
  })
  const structural = new Map<number, string>()
  if (group !== undefined) structural.set(group, 'Groups the variants of one product')
  for (const attribute of attributes) structural.set(attribute.column, 'A variant’s attribute (its option)')
  // Google's product taxonomy (178, or "Apparel & Accessories > … > Sunglasses") is not the
  // platform's category; the shop's own product_type is. A feed without one may still want
  // Google's paths as its categories: offered, never taken unasked.
  const offers = new Map<number, FieldPath>()
  if (googleCategory !== undefined) {
    structural.set(googleCategory, 'The taxonomy of Google Shopping, not the platform’s category')
    offers.set(googleCategory, 'category')
  }
  const title = at('title')
  return {
    format: 'merchant-center',
    structural,
    offers,
    ...(group !== undefined && { group }),
    ...(title !== undefined && { title }),
    attributes,
  }
}

/**
 * `wooCommerceHeaders`: the headers are WooCommerce's exporter's in the shop's language, which says
 * the format on its own: its Parent column may be left out (a shop exporting only some columns of
 * products without variations), as it may not in English, whose "Type" and "ID" any sheet may have.
 */
function formatLayout(headers: readonly string[], wooCommerceHeaders = false): ProductLayout {
  const words = headers.map((header) => wordsOf(header))
  const at = (...names: string[]) => {
    const index = words.findIndex((w) => names.includes(w))
    return index < 0 ? undefined : index
  }
  const plain: ProductLayout = { format: 'plain', structural: new Map(), options: [], own: new Set() }

  const shopify = shopifyLayout(words, at)
  if (shopify) return { ...plain, ...shopify }

  const wooCommerce = wooCommerceLayout(words, at, wooCommerceHeaders)
  if (wooCommerce) return { ...plain, ...wooCommerce }

  const merchant = merchantCenterLayout(at)
  if (merchant) return { ...plain, ...merchant }
  const magento = magentoColumns(headers)
  if (magento)
    return {
      ...plain,
      format: 'magento',
      structural: new Map(magento.structural),
      own: new Set(magento.own),
      magento,
    }
  const wix = wixColumns(headers)
  if (wix)
    return {
      ...plain,
      format: 'wix',
      structural: new Map(wix.structural),
      own: new Set(wix.own),
      readAs: headers.map((header, index) => wix.readAs.find(([column]) => column === index)?.[1] ?? header),
      readAsWhy: new Map(wix.readAs.map(([column, , why]) => [column, why])),
      wix,
    }
  const squarespace = squarespaceColumns(headers)
  if (squarespace)
    return {
      ...plain,
      format: 'squarespace',
      structural: new Map(squarespace.structural),
      own: new Set(squarespace.own),
      options: squarespace.options,
      squarespace,
    }
  const prestashop = prestashopColumns(headers)
  if (prestashop)
    return {
      ...plain,
      format: 'prestashop',
      structural: new Map(prestashop.structural),
      own: new Set(prestashop.own),
      prestashop,
    }
  const akeneo = akeneoColumns(headers)
  if (akeneo) return { ...plain, format: 'akeneo', structural: new Map(akeneo.structural), akeneo }
  const odoo = odooColumns(headers)
  if (odoo) return { ...plain, format: 'odoo', structural: new Map(odoo.structural), odoo }
  return plain
}

/**
 * Headers only WooCommerce's exporter writes (its yes/no questions, its attributes' flags): two of
 * them say an English sheet is its export even without Parent, whose Type ("simple", "variable")
 * would otherwise be taken for the sub-category.
 */
const WOOCOMMERCE_ONLY: ReadonlySet<string> = new Set([
  'is featured',
  'visibility in catalog',
  'catalog visibility',
  'in stock',
  'backorders allowed',
  'sold individually',
  'allow customer reviews',
  'tax status',
  'tax class',
  'attribute 1 visible',
  'attribute 1 global',
])

/**
 * WooCommerce's export: its Type, Parent, ID and SKU, its attribute pairs, and the package's size
 * and weight (for shipping, not the product's); undefined when the headers are not its own
 * (`wooCommerceHeaders`: see {@link formatLayout}).
 */
function wooCommerceLayout(
  words: readonly string[],
  at: (...names: string[]) => number | undefined,
  wooCommerceHeaders: boolean,
): (Omit<ProductLayout, 'format'> & { format: 'woocommerce' }) | undefined {
  const type = at('type')
  const parent = at('parent')
  const id = at('id')
  const sku = at('sku')
  // Without Parent (a shop exporting some columns only), the exporter's own questions say it.
  const exporters = words.filter((w) => WOOCOMMERCE_ONLY.has(w)).length >= 2
  if (
    type === undefined ||
    (parent === undefined && !wooCommerceHeaders && !exporters) ||
    (id === undefined && sku === undefined)
  )
    return undefined
  const options = words.flatMap((w, index) => {
    const numbered = /^attribute (\d+) name$/.exec(w)
    const value = numbered
      ? at(`attribute ${numbered[1]} value s`, `attribute ${numbered[1]} values`)
      : undefined
    return numbered && value !== undefined ? [{ name: index, value }] : []
  })
  const structural = new Map<number, string>([
    [type, 'Says which rows are variations and which their parents'],
  ])
  if (parent !== undefined) structural.set(parent, 'Names the variation’s parent product')
  words.forEach((w, index) => {
    if (/^attribute \d+ (name|value s|values|visible|global|default)$/.test(w))
      structural.set(index, 'A variation’s attribute (its option)')
    if (/^(weight|length|width|height)( (kg|g|lbs|oz|cm|mm|in|m))?$/.test(w))
      structural.set(index, 'The shipping package’s size or weight, not the product’s')
  })
  const published = at('published')
  const own = new Set(options.flatMap((option) => [option.name, option.value]))
  return { format: 'woocommerce', structural, options, own, type, parent, id, sku, published }
}

/** WooCommerce's parents, found in a first pass: variations may come before them. */
export class ParentIndex {
  private readonly byKey = new Map<string, string[]>()
  /** Keys that a variation names, so a parent nobody names is read as a product of its own. */
  private readonly named = new Set<string>()

  readonly layout: ProductLayout
  /** PrestaShop's products, when its combinations are read with them. */
  readonly prestashop: PrestashopProducts | undefined
  /** Magento's configurable products and their children. */
  readonly magento: MagentoProducts | undefined
  /** Wix's products with variant rows. */
  readonly wix: WixProducts | undefined
  /** Akeneo's products with variants. */
  readonly akeneo: AkeneoProducts | undefined

  constructor(layout: ProductLayout) {
    this.layout = layout
    this.prestashop = layout.prestashop && new PrestashopProducts(layout.prestashop)
    this.magento = layout.magento && new MagentoProducts(layout.magento)
    this.wix = layout.wix && new WixProducts(layout.wix)
    this.akeneo = layout.akeneo && new AkeneoProducts(layout.akeneo)
  }

  get needed(): boolean {
    return (
      this.layout.format === 'woocommerce' ||
      this.layout.format === 'wix' ||
      this.layout.format === 'akeneo' ||
      this.prestashop?.needed === true ||
      this.magento?.needed === true
    )
  }

  add(cells: readonly string[]) {
    const { layout } = this
    if (this.prestashop) return this.prestashop.add(cells)
    if (this.magento) return this.magento.add(cells)
    if (this.wix) return this.wix.add(cells)
    if (this.akeneo) return this.akeneo.add(cells)
    const type = cellAt(cells, layout.type).toLowerCase()
    if (type.includes('variation')) {
      const parent = cellAt(cells, layout.parent)
      if (parent) this.named.add(parentKey(parent))
    } else if (type.includes('variable')) {
      const id = cellAt(cells, layout.id)
      const sku = cellAt(cells, layout.sku)
      if (id) this.byKey.set(`id:${id}`, [...cells])
      if (sku) this.byKey.set(`sku:${sku}`, [...cells])
    }
  }

  parentOf(reference: string): string[] | undefined {
    return this.byKey.get(parentKey(reference))
  }

  isNamed(cells: readonly string[]): boolean {
    const id = cellAt(cells, this.layout.id)
    const sku = cellAt(cells, this.layout.sku)
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
  private shopifyProduct:
    { handle: string; cells: string[]; skus: number; firstIsVariant: boolean; giftCard?: true } | undefined
  /** Squarespace's product being read: its cells, its SKUs so far, or skipped (no physical product). */
  private squarespaceProduct: { cells: string[]; skus: number } | 'skipped' | undefined
  private readonly groups = new Map<string, number>()
  private readonly counts: ProductCounts
  /** Magento's rows told apart: by the first pass's index, else (no configurable products) alone. */
  private readonly magentoRows: MagentoProducts | undefined
  /** Wix's rows told apart by the first pass's index, else (none made) every product a SKU. */
  private readonly wixRows: WixProducts | undefined

  /** Columns a variant never takes from its product: its own, and whichever the barcode is read from. */
  private readonly own: ReadonlySet<number>
  /** Columns a field reads: never a variant's option (Akeneo's, found by their values). */
  private readonly fields: ReadonlySet<number>

  /**
   * `ownColumns`: columns beyond the format's own that identify the variant (the barcode's).
   * `fieldColumns`: the columns the mapping reads as a field.
   */
  constructor(
    layout: ProductLayout,
    parents?: ParentIndex,
    ownColumns: Iterable<number> = [],
    fieldColumns: Iterable<number> = [],
  ) {
    this.layout = layout
    this.parents = parents
    this.own = new Set([...layout.own, ...ownColumns])
    this.fields = new Set(fieldColumns)
    this.magentoRows = parents?.magento ?? (layout.magento && new MagentoProducts(layout.magento))
    this.wixRows = parents?.wix ?? (layout.wix && new WixProducts(layout.wix))
    this.counts = {
      format: layout.format,
      products: 0,
      variants: 0,
      imageRows: 0,
      orphans: 0,
      ...(layout.language && { language: layout.language }),
    }
  }

  /** A variation whose parent is not in the file, at data row `row`. */
  private orphan(row: number) {
    this.counts.orphans++
    const rows = (this.counts.orphanRows ??= [])
    if (rows.length < ORPHAN_ROWS_KEPT) rows.push(row)
  }

  /** Counts so far; final once every row has been read. */
  get summary(): ProductCounts {
    const { skipped, orphanRows } = this.counts
    return {
      ...this.counts,
      ...(skipped && { skipped: { ...skipped } }),
      ...(orphanRows && { orphanRows: [...orphanRows] }),
    }
  }

  private skip(reason: SkipReason): undefined {
    const skipped = (this.counts.skipped ??= {})
    skipped[reason] = (skipped[reason] ?? 0) + 1
    return undefined
  }

  read(row: number, cells: string[]): SourceRow | undefined {
    switch (this.layout.format) {
      case 'shopify':
        return this.shopify(row, cells)
      case 'woocommerce':
        return this.woocommerce(row, cells)
      case 'merchant-center':
        return this.merchantCenter(row, cells)
      case 'prestashop':
        return this.prestashop(row, cells)
      case 'magento':
        return this.magento(row, cells)
      case 'wix':
        return this.wix(row, cells)
      case 'squarespace':
        return this.squarespace(row, cells)
      case 'akeneo':
        return this.akeneo(row, cells)
      case 'odoo':
        return this.odoo(row, cells)
      default:
        this.counts.products++
        return { row, cells }
    }
  }

  private shopify(row: number, cells: string[]): SourceRow | undefined {
    const { layout } = this
    const handle = cellAt(cells, layout.handle)
    // Shopify writes the handle on every row; files made by other tools often leave it on the
    // product's first row only, so a row without handle or title continues the product above.
    const continues =
      this.shopifyProduct !== undefined &&
      (handle === this.shopifyProduct.handle || handle === '') &&
      cellAt(cells, layout.title) === ''
    if (!continues) {
      // A gift card's denominations are its variants: the card and all its rows are skipped.
      if (/^true$/i.test(cellAt(cells, layout.giftCard))) {
        this.shopifyProduct = { handle, cells: [...cells], skus: 0, firstIsVariant: false, giftCard: true }
        return this.skip('gift-card')
      }
      const productOnly = declaresOptionsOnly(layout, cells)
      this.shopifyProduct = {
        handle,
        cells: [...cells],
        skus: productOnly ? 0 : 1,
        firstIsVariant: !productOnly,
      }
      this.counts.products++
      if (productOnly) return undefined
      return this.withImage(shopifyVariant({ row, cells, ...optionsOf(layout, cells, cells) }), cells)
    }
    const product = this.shopifyProduct!
    if (product.giftCard) return undefined
    const variantCells = [...layout.own].filter((index) => !layout.images?.has(index))
    if (!variantCells.some((index) => cellAt(cells, index) !== '')) {
      this.counts.imageRows++
      return undefined
    }
    // The product's first row was its first variant; it counts as one now that there are two.
    if (product.skus === 1 && product.firstIsVariant) this.counts.variants++
    product.skus++
    this.counts.variants++
    const merged = inherit(cells, product.cells, this.own)
    return this.withImage(
      shopifyVariant({ row, cells: merged, ...optionsOf(layout, cells, product.cells) }),
      product.cells,
    )
  }

  /** A variant's picture is its own Variant Image, else the product's first image (Shopify). */
  private withImage(source: SourceRow, product: string[]): SourceRow {
    const { imageSrc, variantImage } = this.layout
    if (imageSrc !== undefined && variantImage !== undefined) {
      const own = cellAt(source.cells, variantImage)
      source.cells = [...source.cells]
      source.cells[imageSrc] = own || cellAt(product, imageSrc)
    }
    return source
  }

  private woocommerce(row: number, given: string[]): SourceRow | undefined {
    const { layout } = this
    const cells = wooPublished(layout, given)
    const type = cellAt(cells, layout.type).toLowerCase()
    const skip = wooSkipped(type)
    if (skip) return this.skip(skip)
    if (type.includes('variable') && this.parents?.isNamed(cells)) {
      this.counts.products++
      return undefined
    }
    if (!type.includes('variation')) {
      this.counts.products++
      return { row, cells }
    }
    const reference = cellAt(cells, layout.parent)
    const parent = reference ? this.parents?.parentOf(reference) : undefined
    if (!parent) {
      this.orphan(row)
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

  /** A PrestaShop combination is its product's cells with its own, named by its product and options. */
  private prestashop(row: number, cells: string[]): SourceRow | undefined {
    const read = this.parents?.prestashop?.read(cells) ?? { kind: 'product' }
    if (read.kind !== 'combination') {
      this.counts.products++
      return read.kind === 'parent' ? undefined : { row, cells }
    }
    const { product, options } = read
    if (!product) {
      this.orphan(row)
      this.counts.products++
    } else this.counts.variants++
    return {
      row,
      cells: product ? inherit(cells, product, this.own) : cells,
      ...(options && { options }),
      nameFromProduct: true,
    }
  }

  /**
   * A Magento configurable product's child is its product's cells with its own, its options from
   * the product's list; named by the product's name only when it has no name of its own.
   */
  private magento(row: number, cells: string[]): SourceRow | undefined {
    const read = this.magentoRows!.read(cells)
    if (read.kind === 'skip') return this.skip(read.reason)
    this.counts.products += read.kind === 'child' ? 0 : 1
    if (read.kind === 'parent') return undefined
    if (read.kind === 'product') return { row, cells: read.cells }
    this.counts.variants++
    return {
      row,
      cells: inherit(read.cells, read.product, this.own),
      ...(read.options && { options: read.options }),
      ...(!read.named && { nameFromProduct: true as const }),
    }
  }

  /** An Odoo product's row is a SKU, unless a service; the rows after it that only carry its lists are none. */
  private odoo(row: number, cells: string[]): SourceRow | undefined {
    const kind = odooRow(this.layout.odoo!, cells)
    if (kind === 'list-entries') {
      this.counts.listRows = (this.counts.listRows ?? 0) + 1
      return undefined
    }
    if (kind === 'no-goods') return this.skip('service')
    this.counts.products++
    return { row, cells }
  }

  /**
   * A Squarespace product's row is its first variant; a row below it without a Product ID is another,
   * its product's cells with its own, named by the product's Title and its options.
   */
  private squarespace(row: number, given: string[]): SourceRow | undefined {
    const { layout } = this
    const columns = layout.squarespace!
    const cells = readableCells(columns, given)
    if (startsProduct(columns, cells)) {
      if (notPhysical(columns, cells)) {
        this.squarespaceProduct = 'skipped'
        return this.skip('not-physical')
      }
      this.squarespaceProduct = { cells, skus: 1 }
      this.counts.products++
      return shopifyVariant({ row, cells, ...optionsOf(layout, cells, cells) })
    }
    const product = this.squarespaceProduct
    if (product === 'skipped') return undefined
    if (!product) {
      // A variant row at the top of a file cut by hand: read as a product of its own.
      this.counts.products++
      this.orphan(row)
      return { row, cells }
    }
    // The product's row was its first variant; it counts as one now that there are two.
    if (product.skus === 1) this.counts.variants++
    product.skus++
    this.counts.variants++
    return {
      row,
      cells: inherit(cells, product.cells, this.own),
      ...optionsOf(layout, cells, product.cells),
      nameFromProduct: true,
    }
  }

  /**
   * A Wix product's variant row is its product's cells with its own, named by the product and its
   * choices; a picture's row (V3's MEDIA) is no SKU.
   */
  private wix(row: number, cells: string[]): SourceRow | undefined {
    const read = this.wixRows!.read(cells)
    if (read.kind === 'media') {
      this.counts.imageRows++
      return undefined
    }
    if (read.kind !== 'variant') {
      this.counts.products++
      if (read.kind === 'parent') return undefined
      if (read.orphan) this.orphan(row)
      return { row, cells: read.cells }
    }
    this.counts.variants++
    return {
      row,
      cells: inherit(read.cells, read.product, this.own),
      ...(read.options && { options: read.options }),
      nameFromProduct: true,
    }
  }

  /**
   * An item's colour and size are its options, in a group of variants or alone: an item without
   * item_group_id is one product in one colour, which the colour still names (the format reads
   * those columns itself, so left out here they were lost without a word). Google asks a variant's
   * title to name its colour and size; one that names neither is named with them, as a Shopify
   * variant is ("Nova GO1 Women – US 7 | EU 38": a tryout's feed had eight sizes under one title).
   */
  private merchantCenter(row: number, cells: string[]): SourceRow {
    const { layout } = this
    const group = cellAt(cells, layout.group)
    const options: Record<string, string> = {}
    for (const attribute of layout.attributes ?? []) {
      const value = cellAt(cells, attribute.column)
      if (value) options[attribute.name] = value
    }
    const values = Object.values(options)
    const title = cellAt(cells, layout.title)
    const unnamed = values.length > 0 && values.every((value) => !namesWords(title, value))
    // Google asks each variant for an attribute that tells it apart: an item with none is a product
    // of its own, whatever its group (a real feed gave item_group_id its category's slug).
    this.countIn(values.length > 0 ? group : undefined)
    return {
      row,
      cells,
      ...(values.length && { options }),
      ...(unnamed && { nameFromProduct: true as const }),
    }
  }

  /**
   * An Akeneo product is a complete row, a variant too (the export writes its model's values with
   * its own); a variant sharing its name with another is named with the axes its name does not say.
   */
  private akeneo(row: number, cells: string[]): SourceRow {
    const read = this.parents?.akeneo?.read(cells, this.fields) ?? {}
    this.countIn(read.product)
    return { row, cells, ...(read.options && { options: read.options, nameFromProduct: true as const }) }
  }

  /** A product alone (no group), or one of a group's items: a product for its first, variants once there are two. */
  private countIn(group: string | undefined) {
    if (!group) {
      this.counts.products++
      return
    }
    const seen = this.groups.get(group) ?? 0
    this.groups.set(group, seen + 1)
    if (seen === 0) this.counts.products++
    // A group's first item counts as a variant once a second one shows it has several.
    if (seen === 1) this.counts.variants++
    if (seen >= 1) this.counts.variants++
  }
}

/**
 * A Shopify product row that names its options ("Color", "Size") but gives none of their values
 * and none of a variant's own cells (SKU, barcode, price): the product, its variants in the rows
 * below (Shopify's own import template writes it so). It is no SKU of its own.
 */
function declaresOptionsOnly(layout: ProductLayout, cells: readonly string[]): boolean {
  if (!layout.options.some((option) => cellAt(cells, option.name) !== '')) return false
  const names = new Set(layout.options.map((option) => option.name))
  return [...layout.own].every(
    (index) => names.has(index) || layout.images?.has(index) || cellAt(cells, index) === '',
  )
}

/**
 * Shopify's Title is the product's, never the variant's: a variant with options (not the single
 * "Default Title") is named by it with its options.
 */
function shopifyVariant(source: SourceRow): SourceRow {
  return source.options ? { ...source, nameFromProduct: true } : source
}

/**
 * WooCommerce writes a product's type with its flags, "simple, downloadable, virtual": a
 * downloadable or virtual product (a variation too) is nothing to try on, a grouped one lists
 * other products (each a row of its own), an external one is sold elsewhere.
 */
function wooSkipped(type: string): SkipReason | undefined {
  const words = type.split(',').map((word) => word.trim())
  if (words.includes('downloadable') || words.includes('virtual')) return 'not-physical'
  if (words.includes('grouped')) return 'grouped'
  if (words.includes('external')) return 'external'
  return undefined
}

/**
 * WooCommerce writes Published as 1 (published), 0 (private; a disabled variation), -1 (draft) or 2
 * (pending review): only 1 is live. Its exporter escapes a cell's leading minus as a formula's, so
 * a draft's is "'-1" in a real file.
 */
function wooPublished(layout: ProductLayout, cells: string[]): string[] {
  const at = layout.published
  if (at === undefined || !/^(-1|2)$/.test(unescapeFormula(cellAt(cells, at)))) return cells
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
    const name = cellAt(names, option.name) || cellAt(cells, option.name)
    const value = cellAt(cells, option.value)
    if (!name || !value) continue
    if (name === 'Title' && value === 'Default Title') continue
    options[name] = value
  }
  return Object.keys(options).length ? { options } : {}
}
