import type { ProductFormat } from '#shared/sheet/products.ts'

/**
 * The import page's own words for how a file is read: what a known export format does with its
 * rows, and the name a mapping file is saved under. The words it shares with the CLI (kept keys,
 * products, conversions) are in src/shared/sheet/reading-words.ts.
 */

/** How a known export is read, said above its mapping. */
export const FORMAT_READING: Record<Exclude<ProductFormat, 'plain'>, string> = {
  shopify:
    'Read as a Shopify product export: rows with the same Handle and no Title are the product’s variants; rows with only an image add it to the product.',
  woocommerce:
    'Read as a WooCommerce product export: “variation” rows are the variants of the parent product they name, which gives them what they leave empty.',
  'merchant-center':
    'Read as a Google Merchant Center feed: items with the same item_group_id are the variants of one product.',
}

/** The file name a mapping file is saved under: "spring.csv" → "spring.mapping.json". */
export function mappingFileName(fileName: string): string {
  return `${fileName.replace(/\.[^.]+$/, '') || 'import'}.mapping.json`
}
