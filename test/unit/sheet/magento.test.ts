import { describe, expect, it } from 'vitest'
import { categoryPath, magentoColumns } from '#shared/sheet/magento.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { matchColumns } from '#shared/sheet/columns.ts'
import { sheetMapping } from '#shared/sheet/mapping.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { skippedText } from '#shared/sheet/reading-words.ts'

/**
 * Magento 2's product export with a configurable product, as its admin writes one (the columns
 * are Magento's, `configurable_variations` as Magento's import/export documents it; the rows are
 * ours): the hoodie's children come before it, as Magento's export writes them, and one child has
 * no name of its own.
 */
const HEADERS = [
  'sku',
  'store_view_code',
  'attribute_set_code',
  'product_type',
  'categories',
  'name',
  'weight',
  'product_online',
  'url_key',
  'base_image',
  'small_image',
  'additional_images',
  'configurable_variations',
  'configurable_variation_labels',
]
const ROOT = 'Default Category'
const row = (cells: Partial<Record<(typeof HEADERS)[number], string>>) =>
  HEADERS.map((header) => cells[header] ?? '')
const ROWS = [
  row({
    sku: 'MH01-XS-Black',
    product_type: 'simple',
    name: 'Chaz Kangeroo Hoodie-XS-Black',
    product_online: '1',
    base_image: '/m/h/mh01-black_main.jpg',
  }),
  row({ sku: 'MH01-XS-Gray', product_type: 'simple', product_online: '2' }),
  row({
    sku: 'MH01',
    product_type: 'configurable',
    categories: `${ROOT}/Men/Tops/Hoodies & Sweatshirts,${ROOT}/Collections/New Luma Yoga Collection`,
    name: 'Chaz Kangeroo Hoodie',
    weight: '1',
    product_online: '1',
    url_key: 'chaz-kangeroo-hoodie',
    base_image: '/m/h/mh01-gray_main.jpg',
    configurable_variations:
      'sku=MH01-XS-Black,size=XS,color=Black|sku=MH01-XS-Gray,size=XS,color=Gray|sku=MH01-S-Gray,size=S,color=Gray',
    configurable_variation_labels: 'size=Size,color=Color',
  }),
  // The hoodie in French: the same product for one store view.
  row({ sku: 'MH01', store_view_code: 'fr', name: 'Sweat à capuche Chaz' }),
  row({ sku: 'MB01', product_type: 'simple', categories: `${ROOT}/Gear/Bags`, name: 'Joust Duffle Bag' }),
  row({ sku: 'VP01', product_type: 'virtual', name: 'Gift wrapping' }),
  row({ sku: 'DL01', product_type: 'downloadable', name: 'Yoga video' }),
  row({ sku: 'BN01', product_type: 'bundle', name: 'Sprite Yoga Companion Kit' }),
  row({ sku: 'GR01', product_type: 'grouped', name: 'Set of Sprite Yoga Straps' }),
  // A configurable product whose children are not in the file is a product of its own.
  row({
    sku: 'MJ01',
    product_type: 'configurable',
    name: 'Beaumont Summit Kit',
    configurable_variations: 'sku=MJ01-XS-Red,size=XS,color=Red',
  }),
]

describe('Magento 2’s product export: its layout', () => {
  it('is told by Magento’s own headers, and reads its type, store view and variations itself', () => {
    const layout = productLayout(HEADERS)
    expect(layout.format).toBe('magento')
    const structural = [...layout.structural.keys()].map((column) => HEADERS[column])
    expect(structural.sort()).toEqual(
      [
        'product_type',
        'store_view_code',
        'configurable_variations',
        'configurable_variation_labels',
        'weight',
        'url_key',
        'small_image',
        'additional_images',
      ].sort(),
    )
    // A sheet of its own with a SKU and a product type is not Magento's.
    expect(magentoColumns(['sku', 'product_type', 'name'])).toBeUndefined()
    expect(productLayout(['sku', 'product_type', 'name']).format).toBe('plain')
  })

  it('its columns matched as a catalog manager would: categories, name, status, base image; never the type', () => {
    const paths = matchColumns(HEADERS, matchOptionsOf(productLayout(HEADERS))).map((match) => match.path)
    expect(Object.fromEntries(HEADERS.map((header, column) => [header, paths[column]]))).toMatchObject({
      sku: null,
      product_type: null,
      categories: 'category',
      name: 'productName',
      product_online: 'isActive',
      base_image: 'productImage',
      url_key: null,
      weight: null,
    })
  })

  it('the category is the most specific path under the root, split as any category path', () => {
    expect(categoryPath(`${ROOT}/Gear,${ROOT}/Gear/Fitness Equipment`)).toBe('Gear > Fitness Equipment')
    // The deepest path, the first of those as deep.
    expect(categoryPath(`${ROOT}/Women/Tops/Jackets,${ROOT}/Collections/Eco/Erin,${ROOT}/Sale`)).toBe(
      'Women > Tops > Jackets',
    )
    expect(categoryPath(`${ROOT}/Gear`)).toBe('Gear')
    expect(categoryPath(ROOT)).toBe(ROOT)
  })
})

describe('Magento 2’s product export: its rows', () => {
  const { results, products } = readSheet({ headers: HEADERS, rows: ROWS })
  const skus = results.map((result) => result.sku as Record<string, unknown> & { options?: object })

  it('a configurable product’s children are its variants; what is no physical product, or a translation, is skipped', () => {
    expect(products).toMatchObject({ format: 'magento', products: 3, variants: 2 })
    expect(skippedText(products)).toBe(
      '5 products skipped: 2 downloadable or virtual (not a physical product), 1 grouped (a set of other products), 1 bundle (other products sold together), 1 for a store view (a translation of a product the file has: not another SKU)',
    )
    expect(results.map((result) => result.row)).toEqual([1, 2, 5, 10])
    expect(skus.map((sku) => sku.productName)).toEqual([
      // A child's own name is kept; one without takes its product's, with its options.
      'Chaz Kangeroo Hoodie-XS-Black',
      'Chaz Kangeroo Hoodie – XS / Gray',
      'Joust Duffle Bag',
      'Beaumont Summit Kit',
    ])
    expect(skus[0]).toMatchObject({
      category: 'Men',
      subCategory: 'Hoodies & Sweatshirts',
      isActive: true,
      options: { Size: 'XS', Color: 'Black' },
    })
    // Magento's disabled status is 2.
    expect(skus[1]).toMatchObject({
      category: 'Men',
      isActive: false,
      options: { Size: 'XS', Color: 'Gray' },
    })
    expect(skus[2]).toMatchObject({ category: 'Gear', subCategory: 'Bags' })
  })

  it('a picture in Magento’s media folder is a path, not a web address: a problem on its row, never a guess', () => {
    const problems = results[0]!.errors.filter((problem) => problem.column === 'base_image')
    expect(problems).toEqual([
      expect.objectContaining({
        row: 1,
        value: '/m/h/mh01-black_main.jpg',
        message:
          'Product image is a path in the shop, not a web address: say at which address the shop’s pictures are, and each path is read with it',
      }),
    ])
    // The child without a picture of its own has its product's, and the same problem.
    expect(results[1]!.errors).toContainEqual(expect.objectContaining({ value: '/m/h/mh01-gray_main.jpg' }))
  })

  // A tryout's real export gave 443 of its 454 rows' pictures so: every one of them invalid.
  it('with the address the shop’s pictures are at, each path is read as a web address there, and said so', () => {
    const base = 'https://luma.example/media/catalog/product/'
    const read = readSheet(
      {
        headers: HEADERS,
        rows: [
          ...ROWS,
          row({ sku: 'NS01', product_type: 'simple', name: 'Strap', base_image: 'no_selection' }),
        ],
      },
      { ...sheetMapping(matchColumns(HEADERS, matchOptionsOf(productLayout(HEADERS)))), imageBase: base },
    )
    expect(read.results.map((result) => result.sku.productImage)).toEqual([
      'https://luma.example/media/catalog/product/m/h/mh01-black_main.jpg',
      'https://luma.example/media/catalog/product/m/h/mh01-gray_main.jpg',
      undefined,
      undefined,
      // Magento's "no_selection" is no picture.
      undefined,
    ])
    expect(read.results.flatMap((result) => result.errors)).toEqual([])
    expect(read.results[0]!.conversions).toContainEqual({
      field: 'productImage',
      kind: 'image-base',
      from: '/m/h/mh01-black_main.jpg',
      to: 'https://luma.example/media/catalog/product/m/h/mh01-black_main.jpg',
    })
  })
})

describe('Magento 2’s export of one store view', () => {
  // Every row carries its store view's code when the admin exported one store view (a tryout's
  // real export: 478 rows, all "default"): each product's first row is the product.
  const inView = (cells: Partial<Record<(typeof HEADERS)[number], string>>) =>
    row({ store_view_code: 'default', ...cells })
  const { results, products } = readSheet({
    headers: HEADERS,
    rows: [
      inView({ sku: 'MH01-XS-Black', product_type: 'simple', product_online: '1' }),
      inView({
        sku: 'MH01',
        product_type: 'configurable',
        name: 'Chaz Kangeroo Hoodie',
        configurable_variations: 'sku=MH01-XS-Black,size=XS,color=Black',
        configurable_variation_labels: 'size=Size,color=Color',
      }),
      inView({ sku: 'MB01', product_type: 'simple', name: 'Joust Duffle Bag' }),
      // The same bag in French: a translation of the product above, as in an export of all views.
      row({ sku: 'MB01', store_view_code: 'fr', name: 'Sac Joust' }),
      inView({ sku: 'VP01', product_type: 'virtual', name: 'Gift wrapping' }),
    ],
  })

  it('reads each product from its first row, its children as variants, and skips its other views’ rows', () => {
    expect(products).toMatchObject({ format: 'magento', products: 2, variants: 1 })
    expect(results.map((result) => [result.row, result.sku.productName])).toEqual([
      [1, 'Chaz Kangeroo Hoodie – XS / Black'],
      [3, 'Joust Duffle Bag'],
    ])
    expect(skippedText(products)).toBe(
      '2 products skipped: 1 downloadable or virtual (not a physical product), 1 for a store view (a translation of a product the file has: not another SKU)',
    )
  })
})
