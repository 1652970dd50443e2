import { describe, expect, it } from 'vitest'
import { convertCell } from '#shared/sheet/convert.ts'
import { headerWords } from '#shared/sheet/header-words.ts'
import { combinationOptions } from '#shared/sheet/prestashop.ts'
import { matchColumns } from '#shared/sheet/columns.ts'

describe('PrestaShop’s headers, read by their words', () => {
  it('a list hint says how the cell joins its items; other hints and marks are not words', () => {
    expect(headerWords('Categories (x,y,z...)')).toMatchObject({ words: 'categories', list: ',' })
    expect(headerWords('Image URLs (x;y;z...)')).toMatchObject({ words: 'image urls', list: ';' })
    expect(headerWords('Feature(Name:Value:Position)').words).toBe('feature')
    expect(headerWords('Attribute (Name:Type:Position)*').words).toBe('attribute')
    expect(headerWords('Default (0 = No, 1 = Yes)').words).toBe('default')
    expect(headerWords('Available for order (0 = No; 1 = Yes)').words).toBe('available for order')
    expect(headerWords('Product ID*').words).toBe('product id')
    expect(headerWords('Frame Width (mm)')).toMatchObject({ words: 'frame width', unit: 'mm' })
    expect(headerWords('Frame Width (mm)').list).toBeUndefined()
  })

  it('matched to the fields a catalog manager would give them', () => {
    const headers = [
      'Name *',
      'Categories (x,y,z...)',
      'Image URLs (x;y;z...)',
      'Manufacturer',
      'EAN13',
      'UPC',
      'MPN',
    ]
    expect(matchColumns(headers).map((match) => match.path)).toEqual([
      'productName',
      'category',
      'productImage',
      'brand',
      'barcode',
      null,
      null,
    ])
  })
})

describe('PrestaShop’s list cells', () => {
  it('the category is the most specific of the product’s categories, not the shop’s root', () => {
    expect(convertCell('category', 'Home, Women, Dresses', { list: ',' })).toEqual({
      value: 'Dresses',
      conversion: { kind: 'category-list', from: 'Home, Women, Dresses', to: 'Dresses' },
    })
    expect(convertCell('category', 'Accueil;Lunettes;Home', { list: ';' })).toMatchObject({
      value: 'Lunettes',
    })
    expect(convertCell('category', 'Home', { list: ',' })).toEqual({ value: 'Home' })
    // Without the hint, a comma in a name is no list.
    expect(convertCell('category', 'Sun, Sea & Sand')).toEqual({ value: 'Sun, Sea & Sand' })
  })

  it('the product image is the first of a list joined as the header says', () => {
    expect(
      convertCell('productImage', 'https://a.test/1.jpg;https://a.test/2.jpg', { list: ';' }),
    ).toMatchObject({
      value: 'https://a.test/1.jpg',
      conversion: { kind: 'first-image' },
    })
  })

  it('a combination’s options pair its attributes with its values, types and positions dropped', () => {
    expect(combinationOptions('Color:color:0, Disk space:select:1', 'Blue:0, 16GB:1', ',')).toEqual({
      Color: 'Blue',
      'Disk space': '16GB',
    })
    expect(combinationOptions('Color:color:0; Disk space:select:3', 'Blue:0; 16GB:1', ';')).toEqual({
      Color: 'Blue',
      'Disk space': '16GB',
    })
    expect(combinationOptions('Ratio:select:0', 'Size 16:9:0', ',')).toEqual({ Ratio: 'Size 16:9' })
    expect(combinationOptions('', '', ',')).toBeUndefined()
  })
})
