import { SheetFileError } from './errors.ts'

/**
 * Shopify's inventory export (Products › Inventory › Export) begins as its product export does
 * (Handle, Title, the option pairs, SKU), then holds stock: each variant's counts at each location
 * (Location, Incoming, Committed, Available, On hand). It has no barcode, price or picture, and
 * a variant stocked at two locations is two rows: read as products, it made a draft a row, each
 * without a barcode. It is refused, saying which file to export instead.
 *
 * Told by its stock columns (as `wordsOf` reads them) and by having none of a product export's
 * own. Its earlier layout, a column of counts named after each location, has nothing of its own
 * to tell it by: it is read as a product export with no barcodes, as any sheet without them is.
 */
const STOCK_COLUMNS = [
  'on hand',
  'on hand current',
  'on hand new',
  'available not editable',
  'committed not editable',
  'incoming not editable',
  'unavailable not editable',
]
const PRODUCT_COLUMNS = [
  'variant price',
  'price',
  'variant barcode',
  'barcode',
  'image src',
  'product image url',
  'body html',
  'description',
  'vendor',
]

const SHOPIFY_INVENTORY =
  'It is Shopify’s inventory export: stock counts by location, with no barcodes, prices or pictures. ' +
  'In Shopify, export the products (Products › Export) and import that file'

/** Throws when `words` (a Shopify sheet's headers, as `wordsOf` reads them) are its inventory export's. */
export function refuseShopifyInventory(words: readonly string[]): void {
  const has = (names: readonly string[]) => words.some((w) => names.includes(w))
  if (has(STOCK_COLUMNS) && !has(PRODUCT_COLUMNS))
    throw new SheetFileError('inventory-export', `${SHOPIFY_INVENTORY}.`)
}
