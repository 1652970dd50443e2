import { readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SheetSummary } from '#cli/sheet-report.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

/**
 * The corpus of real exports (issue #36): every file in test/fixtures/sheets/exports/real, written
 * by people outside the team (SOURCES.md there), run through `validate` and `convert` as a
 * catalog manager would, and checked for what that person checks: the format the file was read
 * as, its products and variants, the SKUs, which column fills which field (and which shop codes
 * stay out of the barcode), the notes, how many SKUs a push would send, and a SKU of the output.
 * The expectations come from reading each file by hand, not from the app's output; the detailed
 * tests of each format are beside this one (merchant-feeds, shop-exports, prestashop,
 * json-mapping).
 */

const REAL = join(REPO_ROOT, 'test/fixtures/sheets/exports/real')
const EXPORTS = join(REPO_ROOT, 'test/fixtures/sheets/exports')

interface Case {
  /** The file, in real/. */
  file: string
  /** More arguments: a second file, a mapping file. */
  args?: string[]
  /** The note that says how the file was read: format, products, variants. */
  reading: string
  /** SKUs read (valid or not). */
  skus: number
  /** SKUs a push would send: valid, with a barcode, none repeated. */
  sendable: number
  /** Columns as a catalog manager maps them, by header; null: the column fills nothing. */
  columns: Record<string, string | null>
  /** Other notes a person needs, in part. */
  notes?: RegExp[]
  /** One SKU of `convert`'s output, by its position, in part. */
  sku?: { at: number; fields: Record<string, unknown> }
}

const CASES: Case[] = [
  {
    file: 'google-merchant-example-feed.rss.xml',
    reading: 'read as a Google Merchant Center feed: 5 products, 2 variants',
    skus: 6,
    // Google's example jeans have no gtin.
    sendable: 4,
    columns: {
      title: 'productName',
      link: 'actionUrl',
      image_link: 'productImage',
      brand: 'brand',
      gtin: 'barcode',
      mpn: null,
      id: null,
      product_type: 'category',
      google_product_category: null,
    },
    notes: [
      /read as an XML feed \(RSS 2\.0\): 6 items/,
      /"google_product_category" is read by the file's format/,
    ],
    sku: {
      at: 3,
      fields: {
        productName: expect.stringMatching(/jeans/i),
        options: { color: 'Navy', size: '8 Standard' },
      },
    },
  },
  {
    file: 'google-merchant-example-feed.atom.xml',
    reading: 'read as a Google Merchant Center feed: 5 products, 2 variants',
    skus: 6,
    sendable: 4,
    columns: {
      title: 'productName',
      link: 'actionUrl',
      image_link: 'productImage',
      gtin: 'barcode',
      mpn: null,
    },
    notes: [/read as an XML feed \(Atom\): 6 items/],
  },
  {
    file: 'google-merchant-magento-atom-feed.xml',
    reading: 'read as a Google Merchant Center feed: 1 product, 0 variants',
    skus: 1,
    // Its product_type is the number of a category of Google's (2962), no name: no category.
    sendable: 0,
    columns: {
      title: 'productName',
      link: 'actionUrl',
      brand: 'brand',
      image_link: 'productImage',
      mpn: null,
    },
    sku: { at: 0, fields: { brand: 'Weber', barcode: expect.stringMatching(/^\d{12,13}$/) } },
  },
  {
    file: 'woocommerce-sample-products.csv',
    // 25 rows: 4 skipped, the variable Hoodie is the parent of its 2 variations.
    reading: 'read as a WooCommerce product export: 19 products, 2 variants',
    skus: 20,
    // WooCommerce's sample has no GTIN column.
    sendable: 0,
    columns: {
      Name: 'productName',
      Published: 'isActive',
      Categories: 'category',
      Images: 'productImage',
      SKU: null,
      ID: null,
      'Weight (lbs)': null,
    },
    notes: [
      /4 products skipped: 2 downloadable or virtual \(not a physical product\), 1 grouped .*, 1 external/,
      /"Weight \(lbs\)".* The shipping package’s size or weight, not the product’s/,
    ],
    // Row 81, the Hoodie's variation: its own name, its parent's other fields, its option.
    sku: { at: 16, fields: { productName: 'Hoodie - Blue, No', options: { Color: 'Blue' } } },
  },
  {
    file: 'woocommerce-sample-products.pt_BR.csv',
    reading: 'read as a WooCommerce product export (Portuguese headers): 19 products, 2 variants',
    skus: 20,
    sendable: 0,
    columns: {
      Nome: 'productName',
      Publicado: 'isActive',
      Categorias: 'category',
      Imagens: 'productImage',
      SKU: null,
      'Peso (lbs)': null,
    },
    notes: [/4 products skipped/],
    sku: { at: 16, fields: { productName: 'Hoodie - Blue, No' } },
  },
  {
    file: 'woocommerce-sample-products.fr_FR.csv',
    reading: 'read as a WooCommerce product export (French headers): 19 products, 2 variants',
    skus: 20,
    sendable: 0,
    columns: {
      Nom: 'productName',
      Publié: 'isActive',
      Catégories: 'category',
      Images: 'productImage',
      UGS: null,
    },
    notes: [/4 products skipped/],
  },
  {
    file: 'woocommerce-experimental-fashion-sample.csv',
    // Its two variable products have no variation rows: each is a product of its own.
    reading: 'read as a WooCommerce product export: 9 products, 0 variants',
    skus: 9,
    sendable: 0,
    columns: { Name: 'productName', Categories: 'category', Images: 'productImage', SKU: null },
  },
  {
    file: 'prestashop-9.1-products-import.csv',
    args: ['--combinations', join(REAL, 'prestashop-9.1-combinations-import.csv')],
    // 7 products; the 27 combinations of products 1, 2, 3 and 5 are their SKUs.
    reading: 'read as a PrestaShop product import: 7 products, 27 variants',
    skus: 30,
    // The sample repeats barcodes across combinations (the iPod shuffle's four share one).
    sendable: 16,
    columns: {
      'Name *': 'productName',
      'Categories (x,y,z...)': 'category',
      'Image URLs (x,y,z...)': 'productImage',
      Manufacturer: 'brand',
      EAN13: 'barcode',
      'Active (0/1)': 'isActive',
      'Reference #': null,
      MPN: null,
    },
    sku: {
      at: 3,
      fields: {
        productName: 'iPod Nano – Blue / 16GB',
        barcode: '0000080446392',
        brand: 'Apple',
        category: 'iPods',
      },
    },
  },
  {
    file: 'thirtybees-products-import.csv',
    args: ['--combinations', join(REAL, 'thirtybees-combinations-import.csv')],
    reading: 'read as a PrestaShop product import: 7 products, 27 variants',
    skus: 30,
    sendable: 16,
    columns: {
      'Name *': 'productName',
      'Categories (x;y;z...)': 'category',
      'Image URLs (x;y;z...)': 'productImage',
      EAN13: 'barcode',
    },
    sku: { at: 3, fields: { productName: 'iPod Nano – Blue / 16GB', category: 'iPods' } },
  },
  {
    file: 'shopify-transporter-products-template.csv',
    // The product's row names Color and Size and gives no variant: its three variants follow.
    reading: 'read as a Shopify product export: 1 product, 3 variants, 3 image rows (not SKUs)',
    skus: 3,
    sendable: 0,
    columns: {
      Title: 'productName',
      Vendor: 'brand',
      'Variant Barcode': 'barcode',
      'Variant SKU': null,
      Handle: null,
    },
    sku: {
      at: 0,
      fields: {
        productName: 'Mens Casual Hightop Sports Shoe – White / 9.5',
        options: { Color: 'White', Size: '9.5' },
      },
    },
  },
  {
    file: 'shopify-packt-home-decor-export.csv',
    reading: 'read as a Shopify product export: 20 products, 2 variants, 0 image rows (not SKUs)',
    skus: 21,
    sendable: 0,
    columns: {
      Title: 'productName',
      Vendor: 'brand',
      'Image Src': 'productImage',
      'Variant Barcode': 'barcode',
      'Variant SKU': null,
    },
    sku: { at: 20, fields: { productName: 'Gardening Gloves – Yellow', brand: 'Company 123' } },
  },
  {
    file: 'shopify-atp-wellness-export.csv',
    // "EMS Home Training" in 3 packages, "EMS PRO ONE SUIT" in 4; 123 rows only add pictures.
    reading: 'read as a Shopify product export: 32 products, 7 variants, 123 image rows (not SKUs)',
    skus: 37,
    // The one variant with a barcode (a coffee) has no category, which sending requires.
    sendable: 0,
    columns: {
      Title: 'productName',
      Vendor: 'brand',
      'Variant Barcode': 'barcode',
      'Product Category': null,
      Status: null,
    },
    sku: { at: 0, fields: { productName: 'EMS Home Training – 10 sessions' } },
  },
  {
    file: 'shopify-lavie-cosmetics-products.csv',
    reading: 'read as a Shopify product export: 7 products, 0 variants, 0 image rows (not SKUs)',
    skus: 7,
    sendable: 0,
    columns: { Title: 'productName', Vendor: 'brand', 'Product Category': null, Handle: null },
    // Nothing fills the category: Shopify's taxonomy is offered for it, never taken unasked.
    notes: [
      /^column "Product Category" .*Shopify’s own taxonomy.*; no other column fills Category: to take it for that, say so with --mapping \(\{"columns": \{"Product Category": "category"\}\}\)$/,
    ],
    sku: { at: 0, fields: { brand: 'Lavie Cosmetics EG' } },
  },
  {
    file: 'magento2-catalog-product-sample.csv',
    // 3 yoga straps; the grouped set and the two bundles are no product to try on.
    reading: 'read as a Magento product export: 3 products, 0 variants',
    skus: 3,
    // Magento's sample has no barcode column.
    sendable: 0,
    columns: {
      name: 'productName',
      categories: 'category',
      product_online: 'isActive',
      product_type: null,
      sku: null,
      url_key: null,
    },
    notes: [/3 products skipped: 1 grouped .*, 2 bundle/],
    sku: {
      at: 0,
      fields: { productName: 'Sprite Yoga Strap 6 foot', category: 'Gear', subCategory: 'Fitness Equipment' },
    },
  },
  {
    file: 'wix-classic-catalog-products.csv',
    // A Brazilian shop's rings and prints: a print in 4 sizes is 4 Variant rows under its Product
    // row; the rings' metal is chosen at checkout (options, no Variant rows): one SKU each.
    reading: 'read as a Wix product export: 83 products, 44 variants',
    skus: 119,
    // Wix's classic export has no barcode column.
    sendable: 0,
    columns: {
      name: 'productName',
      productImageUrl: 'productImage',
      collection: 'category',
      visible: 'isActive',
      brand: 'brand',
      sku: null,
      handleId: null,
      productOptionDescription1: null,
    },
    // Its rule said, as the mapping screen says it (a tryout's Wix shop had "Deals 3 for 120" as a
    // category, its first collection, with no word of why).
    notes: [
      /^column "collection" fills Category as the file's format reads it: Wix’s collections, in no order: the first that is not one to sell by/,
    ],
    sku: {
      at: 15,
      fields: {
        productName: 'Minimal Kanye – Arte Gráfica Autoral – A3 = 12x16"',
        category: 'Galeria de Arte – Curadoria Ferdie',
        options: { Size: 'A3 = 12x16"' },
        productImage: 'https://static.wixstatic.com/media/b72832_9cd783c7bab242908307be93e215e93e~mv2.jpg',
      },
    },
  },
  {
    file: 'wix-classic-2019-catalog-products.csv',
    // Wix's older export (51 columns: no cost, no brand); its colours written "rgb(0, 0, 128):Navy".
    reading: 'read as a Wix product export: 56 products, 68 variants',
    skus: 120,
    sendable: 0,
    columns: { name: 'productName', productImageUrl: 'productImage', collection: 'category', sku: null },
    sku: {
      at: 20,
      fields: {
        productName: 'Chalkboard Menu Planner – Grey / 8 x 10',
        options: { 'Thread Color': 'Grey', Size: '8 x 10' },
        productImage: 'https://static.wixstatic.com/media/dafac5_49754369848d4975973c0fa644e3ec83~mv2.jpg',
      },
    },
  },
  {
    file: 'wix-v3-catalog-products.csv',
    // Wix's newer catalog: PRODUCT, its VARIANT rows, then a MEDIA row per picture.
    reading: 'read as a Wix product export: 89 products, 11 variants, 107 image rows (not SKUs)',
    skus: 95,
    // Its barcode column is empty throughout.
    sendable: 0,
    columns: {
      name: 'productName',
      media: 'productImage',
      primaryCategorySlug: 'category',
      categorySlugs: null,
      visible: 'isActive',
      barcode: 'barcode',
      sku: null,
      handle: null,
    },
    sku: {
      at: 19,
      fields: {
        productName: 'AOD-9604 – 10mg',
        category: 'peptides',
        options: { Size: '10mg' },
        // Its first MEDIA row, after its variants.
        productImage: 'https://static.wixstatic.com/media/ee8358_c742b15aefac40da9af9d929568ad854~mv2.jpeg',
      },
    },
  },
  {
    file: 'prestashop-back-office-products.pl.csv',
    // PrestaShop's back office's product list, exported in Polish: one product a row, no variants.
    reading: '',
    skus: 164,
    // It has no barcode column.
    sendable: 0,
    columns: {
      Obraz: 'productImage',
      Nazwa: 'productName',
      Kategoria: 'category',
      Wyświetlany: 'isActive',
      'Product ID': null,
      Indeks: null,
    },
    sku: {
      at: 0,
      fields: {
        productName: 'ALDEX 397E ŻYRANDOL RÓŻA 3 BIAŁA',
        productImage: 'https://biznesbadgirlsteam.com/img/p/1/1.jpg',
        category: 'Żyrandole',
        isActive: false,
      },
    },
  },
  {
    file: 'akeneo-catalog-modeling-products.csv',
    // Akeneo's own catalog: 40 product models' variants (parent) and 6 products alone.
    reading: 'read as an Akeneo product export: 46 products, 136 variants',
    skus: 142,
    // Its variants hold their own values only, no name (the import's file), and "watch", alone,
    // has none either: the other 5 products alone are sendable.
    sendable: 5,
    columns: {
      ean: 'barcode',
      'name-en_US': 'productName',
      categories: 'category',
      enabled: 'isActive',
      parent: null,
      sku: null,
      size: null,
      family: null,
    },
    notes: [/column "parent" is read by the file's format/],
    sku: { at: 36, fields: { productName: 'Bag', barcode: '1234567890183' } },
  },
  {
    file: 'odoo-product-import-sheet.csv',
    // A wholesaler's sheet for Odoo's import: one product a row.
    reading: '',
    skus: 574,
    // Its Product Type is Odoo's kind of product, no category: every SKU is held for one.
    sendable: 0,
    columns: {
      Name: 'productName',
      active: 'isActive',
      Barcode: 'barcode',
      'Product Type': 'category',
      ID: null,
      'Sale Price': null,
    },
    notes: [/Category: 574 cells holding a shop system’s kind of product, not a category, read as empty/],
    sku: { at: 3, fields: { productName: '#Unloading Labor', barcode: '00003_20161111', isActive: false } },
  },
  {
    file: 'custom-clothing-catalog-export.csv',
    // A shop's own sheet: colours and sizes listed in one cell are no variants of a known format.
    reading: '',
    skus: 128,
    sendable: 0,
    columns: { title: 'productName', imageURLs: 'productImage', sku: null, colors: null },
  },
  {
    file: 'shopify-admin-api-products.json',
    args: ['--mapping', join(EXPORTS, 'shopify-admin-api-products.mapping.json')],
    // The iPod Nano in 4 colours; the iPod Touch has no variants, so it is a SKU of its own.
    reading: 'read as a JSON product list: 2 products, 4 variants',
    skus: 5,
    // Its barcodes ("1234_pink") are no real codes, but they identify; each is sendable.
    sendable: 4,
    columns: {
      title: 'productName',
      vendor: 'brand',
      'variants[].barcode': 'barcode',
      'variants[].sku': null,
    },
    sku: {
      at: 0,
      fields: { productName: 'IPod Nano - 8GB – Pink', barcode: '1234_pink', options: { Color: 'Pink' } },
    },
  },
]

/** Files read only together with another (a PrestaShop combinations file, with its products file). */
const PAIRED = ['prestashop-9.1-combinations-import.csv', 'thirtybees-combinations-import.csv']

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-corpus-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

type Summary = SheetSummary & { mapping?: { columns: Record<string, string | null> } }

describe('the corpus of real exports, through validate and convert', () => {
  it('has a case for every file in the corpus', () => {
    const files = readdirSync(REAL).filter((name) => name !== 'SOURCES.md')
    expect(files.sort()).toEqual([...CASES.map((c) => c.file), ...PAIRED].sort())
  })

  it.each(CASES)('$file', async (c) => {
    const input = join(REAL, c.file)
    const args = c.args ?? []
    const run = await runCli(['validate', input, ...args, '--json', '--show-mapping'])
    expect(run.stderr).toBe('')
    const summary = JSON.parse(run.stdout) as Summary
    if (c.reading) expect(summary.notes).toContain(c.reading)
    else expect(summary.notes.filter((note) => /^read as an? /.test(note))).toEqual([])
    expect(summary.items).toBe(c.skus)
    expect(summary.sendable).toBe(c.sendable)
    const columns = summary.mapping?.columns ?? {}
    for (const [header, field] of Object.entries(c.columns))
      expect(columns[header] ?? null, `column "${header}"`).toBe(field)
    for (const note of c.notes ?? [])
      expect(summary.notes, String(note)).toContainEqual(expect.stringMatching(note))

    const out = join(scratch, `${c.file}.json`)
    const converted = await runCli(['convert', input, out, ...args])
    expect(converted.stderr).toBe('')
    const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: Record<string, unknown>[] }
    // Every SKU valid: convert writes them all.
    expect(skus).toHaveLength(summary.valid)
    expect(summary.valid).toBe(c.skus)
    if (c.sku) expect(skus[c.sku.at]).toMatchObject(c.sku.fields)
  })
})
