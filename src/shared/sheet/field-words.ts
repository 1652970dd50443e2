import type { FieldPath } from './types.ts'

/**
 * The words catalogue people and their shop systems use for the contract's fields, beyond the
 * catalogue's own titles: Shopify's and WooCommerce's product CSVs, Google Merchant Center feeds,
 * PIM attribute codes (Akeneo, Plytix) and people's own sheets. Compared as compact words (case,
 * spaces and punctuation gone), after a shop's prefix ("Variant", "Google Shopping /") comes off.
 */

/** Compact form of words for comparing: "Frame width", "frame_width", "FrameWidth" → "framewidth". */
export const compact = (words: string) => words.replace(/ /g, '')

const WORDS = new Map<string, FieldPath>()
const words = (path: FieldPath, ...phrases: string[]) => {
  for (const phrase of phrases) WORDS.set(compact(phrase), path)
}

words('orgId', 'org', 'org id', 'organisation', 'organization', 'organisation id', 'organization id')
words('productName', 'name', 'product', 'title', 'product name', 'product title', 'item name', 'label')
words('barcode', ...barcodeWords())
words('brand', 'brand name', 'manufacturer', 'vendor', 'make')
words(
  'productImage',
  'image',
  'images',
  'image url',
  'image src',
  'image link',
  'main image',
  'main image url',
  'featured image',
  'photo',
  'photo url',
  'picture',
  'product image url',
  'img',
  'thumbnail',
)
words('actionUrl', 'url', 'link', 'product url', 'product link', 'product page', 'shop url', 'permalink')
words('category', 'categories', 'main category', 'product type')
words('subCategory', 'sub category', 'subcategory', 'subcat', 'sub cat', 'type')
words(
  'isActive',
  'active',
  'enabled',
  'is active',
  'live',
  'published',
  'online',
  'published on online store',
)
words('meta.age', 'age', 'age group')
words('meta.gender', 'sex')
words('meta.frameShape', 'shape')
words('meta.material', 'frame material')
words('meta.frameWidth', 'total width')
words('meta.lensWidth', 'eye size')
words('meta.bridge', 'bridge size')
words('meta.temple', 'temple', 'temple size', 'arm length')
words('meta.lensColorDescription', 'lens colour', 'lens color')
words(
  'arEffect.effectAssets3D.0.url',
  '3d model',
  'model',
  'glb',
  'model url',
  '3d model url',
  '3d url',
  'glb url',
  'ar model',
  'ar model url',
  'model 3d',
  'model 3d url',
)
words('arEffect.effectAssets3D.0.id', '3d model id', 'model id')

/** Standard product codes: printed under the bars, the same in every shop. */
function barcodeWords(): string[] {
  return [
    'barcode',
    'barcode number',
    'bar code',
    'ean',
    'ean13',
    'ean 13',
    'ean8',
    'ean code',
    'ean number',
    'ean upc',
    'gtin',
    'gtin8',
    'gtin12',
    'gtin13',
    'gtin14',
    'gtin code',
    'upc',
    'upc a',
    'upc code',
    'isbn',
    'jan',
    // WooCommerce 9.2+: "GTIN, UPC, EAN, or ISBN".
    'gtin upc ean or isbn',
  ]
}

/**
 * A shop's or a maker's own codes: they identify the product in one system and are not printed as a
 * barcode, so they fill the barcode only when the person says so.
 */
const IDENTIFIERS = new Set(
  [
    'sku',
    'sku code',
    'sku number',
    'sku id',
    'mpn',
    'handle',
    'id',
    'product id',
    'item id',
    'variant id',
    'article number',
    'article no',
    'art no',
    'style number',
    'model number',
    'reference',
    'ref',
    'code',
    'product code',
    'item code',
    'item number',
    'parent sku',
  ].map(compact),
)

/** The field these words name, if the vocabulary knows them. */
export function fieldOfWords(words: string): FieldPath | undefined {
  return WORDS.get(compact(words))
}

/** Whether these words name a shop's or maker's own code (SKU, MPN, Handle…), not a barcode. */
export function isIdentifierWords(words: string): boolean {
  return IDENTIFIERS.has(compact(words))
}
