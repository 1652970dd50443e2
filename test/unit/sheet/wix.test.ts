import { describe, expect, it } from 'vitest'
import { matchColumns } from '#shared/sheet/columns.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { conversionText, readAsText } from '#shared/sheet/reading-words.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import { mediaAddresses, wixColumns } from '#shared/sheet/wix.ts'

/**
 * Wix Stores' product export as a real French cosmetics shop's is (its header is Wix's, cut to the
 * columns that matter, in Wix's order; the rows are written here after the shapes of its 1,105:
 * products with size and colour options and their Variant rows after them, a product without
 * options, one with options chosen at checkout only, pictures as names of files in the shop's
 * media joined by `;`, collections joined by `;`). Before Wix was read, 3 of that file's 1,105 rows
 * were valid: every variant row was a SKU without a name.
 */
const HEADERS = [
  'handleId',
  'fieldType',
  'name',
  'description',
  'productImageUrl',
  'collection',
  'sku',
  'price',
  'surcharge',
  'visible',
  'inventory',
  'weight',
  'productOptionName1',
  'productOptionType1',
  'productOptionDescription1',
  'productOptionName2',
  'productOptionType2',
  'productOptionDescription2',
  'brand',
]
const row = (cells: Partial<Record<(typeof HEADERS)[number], string>>) =>
  HEADERS.map((header) => cells[header] ?? '')
const MASK = 'product_40c857e6-9164-e74b-6211-e04996352c34'
const STONE = 'product_5b1c2d3e-0000-4a4a-9b9b-0123456789ab'
const ROWS = [
  row({
    handleId: MASK,
    fieldType: 'Product',
    name: 'Masque Visage Argile Rouge',
    description: '<p>Masque purifiant</p>',
    productImageUrl:
      'a6901a_355ae8c5ec80456c9f91e4d73c393ce3~mv2.jpg;a6901a_62670a4bd3b64a1f8b1c1e1a2b3c4d5e~mv2.png',
    // Collections in no order; a sale's is one to sell by, not a category (a real shop's "Sale;Dresses").
    collection: 'Sale;Soins du visage;Soins de la peau',
    price: '15.0',
    visible: 'true',
    productOptionName1: 'Taille',
    productOptionType1: 'DROP_DOWN',
    productOptionDescription1: '15ml;30ml',
    brand: 'Soyou',
  }),
  row({
    handleId: MASK,
    fieldType: 'Variant',
    surcharge: '10.5',
    visible: 'true',
    productOptionDescription1: '30ml',
  }),
  row({ handleId: MASK, fieldType: 'Variant', visible: 'false', productOptionDescription1: '15ml' }),
  row({
    handleId: STONE,
    fieldType: 'Product',
    name: 'Pierre-ponce pieds',
    productImageUrl: 'https://static.wixstatic.com/media/a6901a_a386e8767f69490aa0d90907b98e35ec~mv2.jpg',
    collection: 'Accessoires',
    visible: 'true',
    productOptionName1: 'Forme',
    productOptionType1: 'DROP_DOWN',
    productOptionDescription1: 'Selon image',
    productOptionName2: 'Couleur',
    productOptionType2: 'COLOR',
    productOptionDescription2: '#000000:Aléatoire;#FFFFFF:Blanc',
  }),
  row({
    handleId: STONE,
    fieldType: 'Variant',
    visible: 'true',
    productOptionDescription1: 'Selon image',
    productOptionDescription2: '#000000:Aléatoire',
  }),
  // No options: the product is its only SKU.
  row({
    handleId: 'product_c1',
    fieldType: 'Product',
    name: 'Eau de rose',
    productImageUrl: 'a6901a_b486c2ed83a04bb3ae0f8e3f05c5f114~mv2.jpg',
    collection: 'Hydrolats',
    visible: 'false',
  }),
  // Options chosen at checkout, no variant rows: one SKU, no options of its own.
  row({
    handleId: 'product_c2',
    fieldType: 'Product',
    name: 'Coffret découverte',
    productOptionName1: 'Parfum',
    productOptionType1: 'DROP_DOWN',
    productOptionDescription1: 'Rose;Lavande',
  }),
  // A variant row whose product is not above it (a file cut by hand): a SKU of its own, unnamed.
  row({ handleId: 'product_lost', fieldType: 'Variant', visible: 'true', productOptionDescription1: '50ml' }),
]

describe('Wix’s product export: its layout', () => {
  it('is told by handleId and fieldType, and reads its rows’ kinds and options itself', () => {
    const layout = productLayout(HEADERS)
    expect(layout.format).toBe('wix')
    const structural = [...layout.structural.keys()].map((column) => HEADERS[column]).sort()
    expect(structural).toEqual(
      [
        'handleId',
        'fieldType',
        'weight',
        'productOptionName1',
        'productOptionType1',
        'productOptionDescription1',
        'productOptionName2',
        'productOptionType2',
        'productOptionDescription2',
      ].sort(),
    )
    // Any sheet with a handle and a type is not Wix's.
    expect(wixColumns(['handle', 'type', 'name'])).toBeUndefined()
  })

  it('its columns matched as a catalog manager would: name, picture, collection as category, visible as active; never the shop’s code', () => {
    const matches = matchColumns(HEADERS, matchOptionsOf(productLayout(HEADERS)))
    const paths = Object.fromEntries(HEADERS.map((header, column) => [header, matches[column]!.path]))
    expect(paths).toMatchObject({
      name: 'productName',
      productImageUrl: 'productImage',
      collection: 'category',
      visible: 'isActive',
      brand: 'brand',
      sku: null,
      handleId: null,
    })
    // The person is told why a column named otherwise fills the field, not that it is a translation.
    expect(matches[HEADERS.indexOf('collection')]!.why).toBe(
      'Wix’s collections, in no order: the first that is not one to sell by (such as “Sale”) is the category',
    )
    expect(matches[HEADERS.indexOf('collection')]!.header).toBe('collection')
  })
})

describe('Wix’s product export: its rows', () => {
  const { results, products } = readSheet({ headers: HEADERS, rows: ROWS })
  const skus = results.map((result) => result.sku as Record<string, unknown> & { options?: object })

  it('a product’s Variant rows are its SKUs, named by the product and their choices; a product without is one', () => {
    expect(readAsText(products)).toBe(
      'a Wix product export: 5 products, 3 variants, 1 variation whose parent is not in the file (line 9; each read as a product of its own)',
    )
    // Lines 3, 4 and 6 are the variants; 2 and 5 their products, which are no SKU.
    expect(results.map((result) => result.row)).toEqual([2, 3, 5, 6, 7, 8])
    expect(skus.map((sku) => sku.productName)).toEqual([
      'Masque Visage Argile Rouge – 30ml',
      'Masque Visage Argile Rouge – 15ml',
      // A colour's choice is named by its name, not its hex code.
      'Pierre-ponce pieds – Selon image / Aléatoire',
      'Eau de rose',
      'Coffret découverte',
      undefined,
    ])
    expect(skus[0]).toMatchObject({
      category: 'Soins du visage',
      brand: 'Soyou',
      isActive: true,
      options: { Taille: '30ml' },
    })
    // A variant hidden in the shop is not active, though its product is shown.
    expect(skus[1]).toMatchObject({ isActive: false, options: { Taille: '15ml' } })
    expect(skus[2]!.options).toEqual({ Forme: 'Selon image', Couleur: 'Aléatoire' })
    expect(skus[3]).toMatchObject({ category: 'Hydrolats', isActive: false })
    expect(skus[4]!.options).toBeUndefined()
    // The cut-off variant says what it lacks, on its line.
    expect(results[5]!.warnings).toContainEqual(
      expect.objectContaining({ row: 8, column: 'name', message: 'Product name is missing' }),
    )
  })

  it('pictures named in the shop’s Wix media are read as their addresses, the first the product image', () => {
    expect(skus[0]!.productImage).toBe(
      'https://static.wixstatic.com/media/a6901a_355ae8c5ec80456c9f91e4d73c393ce3~mv2.jpg',
    )
    // A variant has its product's picture; an address stays as written.
    expect(skus[1]!.productImage).toBe(skus[0]!.productImage)
    expect(skus[2]!.productImage).toBe(
      'https://static.wixstatic.com/media/a6901a_a386e8767f69490aa0d90907b98e35ec~mv2.jpg',
    )
    const tally = new ConversionTally()
    tally.add(results)
    const images = tally.counts.find((count) => count.kind === 'first-image')
    expect(conversionText(images!)).toMatch(
      /^Product image: 2 cells of several images: the first one kept each time \(“https:\/\/static\.wixstatic\.com\/media\/a6901a_355a.{40,}…” → “https:\/\/static\.wixstatic\.com\/media\/a6901a_355ae8c5ec80456c9f91e4d73c393ce3~mv2\.jpg”\), lines 3, 4$/,
    )
  })

  it('reads as a media file’s name only a plain file name: anything else stays for the field’s own check', () => {
    expect(mediaAddresses('nsplsh_2d2b6c~mv2_d_3000_2000_s_2.jpg')).toBe(
      'https://static.wixstatic.com/media/nsplsh_2d2b6c~mv2_d_3000_2000_s_2.jpg',
    )
    expect(mediaAddresses('../../etc/passwd.jpg')).toBe('../../etc/passwd.jpg')
    expect(mediaAddresses('wix:image://v1/a.jpg')).toBe('wix:image://v1/a.jpg')
    expect(mediaAddresses('photo of me.jpg')).toBe('photo of me.jpg')
    expect(mediaAddresses('')).toBe('')
  })
})

/**
 * Wix's Catalog V3 export, as a real one is (its header cut to the columns that matter; the
 * corpus test reads the real file whole): PRODUCT, its VARIANT rows, then a MEDIA row per picture.
 */
describe('Wix’s Catalog V3 export', () => {
  const headers = [
    'handle',
    'fieldType',
    'name',
    'visible',
    'categorySlugs',
    'primaryCategorySlug',
    'media',
    'brand',
    'price',
    'sku',
    'barcode',
    'productOptionName1',
    'productOptionType1',
    'productOptionChoices1',
  ]
  const v3 = (cells: Partial<Record<(typeof headers)[number], string>>) =>
    headers.map((header) => cells[header] ?? '')
  const rows = [
    v3({
      handle: 'case',
      fieldType: 'PRODUCT',
      name: 'Vial case',
      visible: 'true',
      categorySlugs: 'research-gear;others',
      barcode: '4006381333931',
      productOptionName1: 'Color',
      productOptionType1: 'SWATCH_CHOICES',
      productOptionChoices1: '#FD04BF:Pink;#2CC9F7:sky blue',
    }),
    v3({
      handle: 'case',
      fieldType: 'VARIANT',
      visible: 'true',
      price: '20',
      barcode: '7612345000299',
      productOptionName1: 'Color',
      productOptionType1: 'SWATCH_CHOICES',
      productOptionChoices1: 'Pink',
    }),
    v3({
      handle: 'case',
      fieldType: 'VARIANT',
      visible: 'false',
      price: '20',
      productOptionName1: 'Color',
      productOptionType1: 'SWATCH_CHOICES',
      productOptionChoices1: 'sky blue',
    }),
    v3({ handle: 'case', fieldType: 'MEDIA', media: 'ee8358_069d0fc804de43218d1d1eae2d2d765d~mv2.jpeg' }),
    v3({ handle: 'case', fieldType: 'MEDIA', media: 'ee8358_c5305a55dff04947bcf79e7cad357a44~mv2.jpeg' }),
    v3({
      handle: 'tirz',
      fieldType: 'PRODUCT',
      name: 'TIRZ 10',
      visible: 'true',
      categorySlugs: 'peptides',
      primaryCategorySlug: 'best-sellers',
      price: '55',
    }),
    v3({ handle: 'tirz', fieldType: 'MEDIA', media: 'ee8358_67f1212426434a64b9c7cecf9545f504~mv2.png' }),
  ]
  const { results, products } = readSheet({ headers, rows })
  const skus = results.map((result) => result.sku as Record<string, unknown>)

  it('each VARIANT row is a SKU with its own barcode, its picture its product’s first MEDIA row, after it', () => {
    expect(productLayout(headers).format).toBe('wix')
    expect(readAsText(products)).toBe('a Wix product export: 2 products, 2 variants, 3 image rows (not SKUs)')
    expect(skus.map((sku) => [sku.productName, sku.barcode, sku.isActive])).toEqual([
      ['Vial case – Pink', '7612345000299', true],
      // A variant without a barcode of its own never takes its product's.
      ['Vial case – sky blue', undefined, false],
      ['TIRZ 10', undefined, true],
    ])
    expect(skus[1]!.productImage).toBe(
      'https://static.wixstatic.com/media/ee8358_069d0fc804de43218d1d1eae2d2d765d~mv2.jpeg',
    )
    expect(skus[2]!.productImage).toBe(
      'https://static.wixstatic.com/media/ee8358_67f1212426434a64b9c7cecf9545f504~mv2.png',
    )
  })

  it('the category is the primary one, else the first of the product’s categories', () => {
    expect(skus.map((sku) => sku.category)).toEqual(['research-gear', 'research-gear', 'best-sellers'])
  })
})

describe('Wix’s choices and pictures as its older exports write them', () => {
  it('a colour written rgb() is named by its name; a media id without an extension is no picture', () => {
    const headers = [
      'handleId',
      'fieldType',
      'name',
      'productImageUrl',
      'productOptionName1',
      'productOptionDescription1',
    ]
    const { results } = readSheet({
      headers,
      rows: [
        [
          'p',
          'Product',
          'Planner',
          'b72832_37055c3cff8c458cbe6e45f4b224a36c;dafac5_4975~mv2_d_1774_2364_s_2.jpg',
          'Thread Color',
          'rgb(0, 0, 128):Navy;#ffffff:White',
        ],
        ['p', 'Variant', '', '', '', 'rgb(0, 0, 128):Navy'],
      ],
    })
    expect(results[0]!.sku).toMatchObject({
      productName: 'Planner – Navy',
      options: { 'Thread Color': 'Navy' },
      productImage: 'https://static.wixstatic.com/media/dafac5_4975~mv2_d_1774_2364_s_2.jpg',
    })
    // A product whose only media is no picture has none, rather than an error for its row.
    expect(mediaAddresses('b72832_37055c3cff8c458cbe6e45f4b224a36c')).toBe('')
  })
})
