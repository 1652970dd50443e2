import { describe, expect, it } from 'vitest'
import { matchColumns } from '#shared/sheet/columns.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { readAsText, skippedText } from '#shared/sheet/reading-words.ts'
import { readSheet } from '#shared/sheet/rows.ts'

/**
 * Squarespace's product export as a real flower farm's is (its header verbatim, in its order; the
 * rows written here after its shapes: a product in three sizes, its variant rows below it with only
 * their own cells, a product without variants, a workshop (a service) with its dates as variants,
 * categories as slug paths, pictures' addresses joined by a space, "Product Page" and "Product
 * URL" as paths in the shop). Before Squarespace was read, 308 of that file's 326 rows were
 * invalid: "Product Page" was taken for the action link.
 */
const HEADERS = [
  'Product ID [Non Editable]',
  'Variant ID [Non Editable]',
  'Product Type [Non Editable]',
  'Product Page',
  'Product URL',
  'Title',
  'Description',
  'SKU',
  'Option Name 1',
  'Option Value 1',
  'Option Name 2',
  'Option Value 2',
  'Price',
  'Sale Price',
  'On Sale',
  'Stock',
  'Categories',
  'Tags',
  'Weight',
  'Length',
  'Width',
  'Height',
  'Visible',
  'Hosted Image URLs',
]
const row = (cells: Partial<Record<(typeof HEADERS)[number], string>>) =>
  HEADERS.map((header) => cells[header] ?? '')
const IMAGE = 'https://images.squarespace-cdn.com/content/v1/5e5f1040454b0c706b3eafe0/1622653351/lily.jpg'
const ROWS = [
  row({
    'Product ID [Non Editable]': '5e5f15b7a529995b94e386a6',
    'Variant ID [Non Editable]': 'c5215f87-58b7-4205-9217-e753986a330d',
    'Product Type [Non Editable]': 'PHYSICAL',
    'Product Page': 'shop',
    'Product URL': 'lily-b29gl',
    Title: 'Lily',
    SKU: 'SQ8031588',
    'Option Name 1': 'Size',
    'Option Value 1': 'Small',
    Price: '50.00',
    Categories: '/flower/lily/oriental',
    Visible: 'Yes',
    'Hosted Image URLs': `${IMAGE} https://images.squarespace-cdn.com/content/v1/5e5f1040454b0c706b3eafe0/1622653352/lily-2.jpg`,
  }),
  row({
    'Variant ID [Non Editable]': '433699fc',
    SKU: 'SQ6682318',
    'Option Name 1': 'Size',
    'Option Value 1': 'Medium',
  }),
  row({
    'Variant ID [Non Editable]': '5bd5a3ed',
    SKU: 'SQ2655732',
    'Option Name 1': 'Size',
    'Option Value 1': 'Large',
  }),
  row({
    'Product ID [Non Editable]': '60adacb27a384613d66db94e',
    'Variant ID [Non Editable]': 'b1039fd1',
    'Product Type [Non Editable]': 'PHYSICAL',
    'Product Page': 'mrfc',
    'Product URL': 'age-bluhz',
    Title: 'Ageratum - Blue Horizon',
    SKU: 'AGE-BLUHZ',
    Categories: '/flower/ageratum/blue-horizon, /sale',
    Visible: 'No',
  }),
  row({
    'Product ID [Non Editable]': '60db76eedee9624d8ec4cea6',
    'Variant ID [Non Editable]': '98773ae1',
    'Product Type [Non Editable]': 'SERVICE',
    'Product Page': 'workshops',
    Title: 'Wreath workshop',
    'Option Name 1': 'Date',
    'Option Value 1': 'June 5',
  }),
  row({ 'Variant ID [Non Editable]': '0a1b2c3d', 'Option Name 1': 'Date', 'Option Value 1': 'June 12' }),
]

describe('Squarespace’s product export', () => {
  const layout = productLayout(HEADERS)
  const { results, products } = readSheet({ headers: HEADERS, rows: ROWS })
  const skus = results.map((result) => result.sku as Record<string, unknown>)

  it('is told by its [Non Editable] ids; Product Page and Product URL are no action link', () => {
    expect(layout.format).toBe('squarespace')
    const paths = Object.fromEntries(
      matchColumns(HEADERS, matchOptionsOf(layout)).map((match) => [match.header, match.path]),
    )
    expect(paths).toMatchObject({
      Title: 'productName',
      'Hosted Image URLs': 'productImage',
      Categories: 'category',
      Visible: 'isActive',
      'Product Page': null,
      'Product URL': null,
      SKU: null,
    })
  })

  it('the rows below a product without a Product ID are its variants; a service and its dates are skipped', () => {
    expect(readAsText(products)).toBe('a Squarespace product export: 2 products, 3 variants')
    expect(skippedText(products)).toBe(
      '1 product skipped: 1 downloadable or virtual (not a physical product)',
    )
    expect(results.map((result) => result.row)).toEqual([1, 2, 3, 4])
    expect(skus.map((sku) => sku.productName)).toEqual([
      'Lily – Small',
      'Lily – Medium',
      'Lily – Large',
      'Ageratum - Blue Horizon',
    ])
    // A variant takes its product's picture, category and visibility.
    expect(skus[2]).toMatchObject({
      productImage: IMAGE,
      category: 'flower',
      subCategory: 'oriental',
      isActive: true,
      options: { Size: 'Large' },
    })
    // Of several categories, the first path; "No" is not active.
    expect(skus[3]).toMatchObject({ category: 'flower', subCategory: 'blue-horizon', isActive: false })
    expect(results.every((result) => result.errors.length === 0)).toBe(true)
  })
})
