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
  prestashop:
    'Read as PrestaShop’s product import: with its combinations file, each combination is a variant of the product its Product ID names, which gives it what it leaves empty (name, brand, category, picture); a product with combinations is no SKU itself. Rows are counted through both files: the products file’s, then the combinations file’s.',
  magento:
    'Read as Magento’s product export: a configurable product’s children are its variants, which take from it what they leave empty and their options from its configurable_variations; a configurable product with its children in the file is no SKU itself. Rows for a store view (a product’s translations; an export of one store view is read from each product’s first row) and virtual, downloadable, grouped and bundle products are skipped. Its categories are read as the most specific path under the root category.',
  wix: 'Read as a Wix product export: a product’s variant rows are its variants, which take from it what they leave empty and are named by its name and their choices; a product with variant rows is no SKU itself. Its pictures, names of files in the shop’s Wix media, are read as their addresses on static.wixstatic.com (in Wix’s newer catalog, a MEDIA row per picture); its first collection, or its primary category, is its category.',
  squarespace:
    'Read as a Squarespace product export: the rows below a product without a Product ID are its variants, which take from it what they leave empty and are named by its Title and their options. Its categories’ paths (/flower/dahlia) are read as category paths; digital products, services and gift cards are skipped. Product Page and Product URL are paths in the shop, not web addresses.',
  akeneo:
    'Read as an Akeneo product export: the products that name one product model in parent (in Akeneo 1.x, one variant group) are its variants, each a whole row. Variants that share a name are named with the values that tell them apart (their size, their colour) and their name does not say already.',
  odoo: 'Read as an Odoo product export: a product a row; the rows below a product without an id only carry more of its lists (packagings, pricelist items), and a service is skipped. Its related records (categ_id/id and the like) are Odoo’s ids, not names, and are not read.',
  json: 'Read as a JSON product list: each column is a path in its products. A list inside each product (shades, variants) spreads into one SKU per element when its fields are made variant options; its SKUs are named by the product’s name and their options.',
}

/** Said after the format's reading when its headers are in the shop's language. */
export function languageReading(language: string): string {
  return `Its headers are in ${language}: each is read as the English header it translates, and shown as written.`
}

/** The file name a mapping file is saved under: "spring.csv" → "spring.mapping.json". */
export function mappingFileName(fileName: string): string {
  return `${fileName.replace(/\.[^.]+$/, '') || 'import'}.mapping.json`
}
