import { describe, expect, it } from 'vitest'
import {
  jsonHeaders,
  jsonTable,
  productListOf,
  spreadListOf,
  withGuessedColumns,
} from '#shared/sheet/json-table.ts'
import { applyMappingFile, MappingFileError, parseMappingFile } from '#shared/sheet/mapping.ts'
import { SheetConverter } from '#shared/sheet/rows.ts'

/**
 * Which JSON is a product list to map (json-table.ts), and the table it becomes: its JSON paths as
 * headers, a list of objects spread into one row per element only when the mapping makes its fields
 * options, and each row's place in the file.
 */

const LIPSTICK = {
  name: 'Satin Lipstick',
  brand: 'Northlight',
  price: { amount: 12.5, currency: 'USD' },
  tag_list: ['vegan', 'cruelty free'],
  product_colors: [
    { hex_value: '#9C2A3F', colour_name: 'Berry' },
    { hex_value: '#E07A7A', colour_name: 'Coral Kiss' },
  ],
  images: [{ src: 'https://cdn.example.com/a.png' }, { src: 'https://cdn.example.com/b.png' }],
}

describe('telling a product list from SKUs', () => {
  it('SKUs, a bulk request, an app request and a single object are read as before', () => {
    expect(productListOf([{ barcode: '1', productName: 'Frame', extra: 1 }])).toBeUndefined()
    expect(productListOf({ skus: [LIPSTICK] })).toBeUndefined()
    expect(productListOf({ appConfig: {}, items: [LIPSTICK] })).toBeUndefined()
    expect(productListOf(LIPSTICK)).toBeUndefined()
    expect(productListOf([])).toBeUndefined()
    expect(productListOf([LIPSTICK, 'text'])).toBeUndefined()
  })

  it('a list of other objects, or an object holding exactly one, is a product list', () => {
    expect(productListOf([LIPSTICK])).toEqual({ at: '', products: [LIPSTICK] })
    expect(productListOf({ products: [LIPSTICK], total: 1 })).toEqual({
      at: 'products',
      products: [LIPSTICK],
    })
    expect(productListOf({ products: [LIPSTICK], featured: [LIPSTICK] })).toBeUndefined()
  })
})

describe('a product list as a table', () => {
  const list = { at: 'products', products: [LIPSTICK, { name: 'Brow Gel', product_colors: [] }] }
  const headers = jsonHeaders(list.products)

  it('headers are JSON paths: objects dotted, plain lists one cell, lists of objects by their fields', () => {
    expect(headers).toEqual([
      'name',
      'brand',
      'price.amount',
      'price.currency',
      'tag_list',
      'product_colors[].hex_value',
      'product_colors[].colour_name',
      'images[].src',
    ])
  })

  it('without options nothing spreads: a list gives its first element; with them, one row per element', () => {
    const flat = jsonTable(list, headers, undefined)
    expect(flat.sources.map((source) => source.cells)).toEqual([
      [
        'Satin Lipstick',
        'Northlight',
        '12.5',
        'USD',
        'vegan, cruelty free',
        '#9C2A3F',
        'Berry',
        'https://cdn.example.com/a.png',
      ],
      ['Brow Gel', '', '', '', '', '', '', ''],
    ])
    const columns = headers.map((header) =>
      header === 'product_colors[].colour_name' ? 'option:Shade' : null,
    )
    expect(spreadListOf(headers, columns)).toEqual({ list: 'product_colors' })
    const spread = jsonTable(list, headers, 'product_colors')
    expect(spread.sources.map((source) => [source.row, source.cells[6], source.nameFromProduct])).toEqual([
      [1, 'Berry', true],
      [2, 'Coral Kiss', true],
      [3, '', undefined],
    ])
    expect(spread.places).toEqual([
      'products[0].product_colors[0]',
      'products[0].product_colors[1]',
      'products[1]',
    ])
    expect(spread.counts).toMatchObject({ format: 'json', products: 2, variants: 2 })
  })

  it('options from two lists are refused: they would multiply', () => {
    const columns = headers.map((header) => (header.includes('[]') ? 'option:x' : null))
    expect(spreadListOf(headers, columns)).toEqual({
      error:
        'variant options come from two lists ("product_colors" and "images"): only one list of a product spreads into one SKU per element',
    })
  })

  it('the rows convert as a sheet’s do: the options kept, the shade named with its product', () => {
    const { mapping } = applyMappingFile(headers, {
      columns: { 'product_colors[].colour_name': 'option:Shade', 'images[].src': 'productImage' },
    })
    const table = jsonTable(list, headers, 'product_colors')
    const [coral] = new SheetConverter(headers, mapping).convertSources(table.sources.slice(1, 2))
    expect(coral!.sku).toMatchObject({
      productName: 'Satin Lipstick – Coral Kiss',
      brand: 'Northlight',
      productImage: 'https://cdn.example.com/a.png',
      options: { Shade: 'Coral Kiss' },
    })
  })
})

describe('what is guessed without a mapping', () => {
  const headers = [
    'title',
    'vendor',
    'variants[].title',
    'variants[].barcode',
    'variants[].option1',
    'variants[].sku',
  ]

  it('a list’s option field is an option, its fields are matched by their own key unless another column fills it', () => {
    expect(withGuessedColumns(headers)).toEqual({
      'variants[].option1': 'option:option1',
      'variants[].barcode': 'barcode',
    })
  })

  it('a mapping file’s own columns come first, and its own options replace the guessed ones', () => {
    expect(
      withGuessedColumns(headers, { 'variants[].title': 'option:Color', 'variants[].barcode': null }),
    ).toEqual({
      'variants[].title': 'option:Color',
      'variants[].barcode': null,
    })
  })
})

describe('the mapping file', () => {
  it('takes an option column, and says what is wrong with one that names no option', () => {
    const text = (columns: object) => JSON.stringify({ format: 'catalog-desk-mapping/1', columns })
    expect(parseMappingFile(text({ 'product_colors[].colour_name': 'option:Shade' })).columns).toEqual({
      'product_colors[].colour_name': 'option:Shade',
    })
    expect(() => parseMappingFile(text({ shade: 'option: ' }))).toThrow(MappingFileError)
    expect(() => parseMappingFile(text({ shade: 'option: ' }))).toThrow(
      'at "columns.shade": a variant option column names its option: "option:Shade"',
    )
  })
})
