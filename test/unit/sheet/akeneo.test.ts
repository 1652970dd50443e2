import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { akeneoColumns } from '#shared/sheet/akeneo.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { productLayout } from '#shared/sheet/products.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { readAsText } from '#shared/sheet/reading-words.ts'

/**
 * Akeneo's product export, as its export job writes a variant product: with its models' values
 * (the name, the colour, the material) beside its own (its size, its EAN, its picture). The header
 * and the braided hat's rows are those of Akeneo's own export test
 * (`csv_catalog_modeling_product_export`, pim-community-dev), cut to the columns that matter here;
 * the sunglasses are ours.
 */
const EXPORT = `sku;categories;enabled;family;parent;groups;color;ean;image;material;name-en_US;PACK-products;price-EUR;size;variation_name-en_US;weight;weight-unit
braided-hat-m;master_accessories_hats;1;accessories;model-braided-hat;;battleship_grey;4006381333931;files/braided-hat-m/image/braided-hat.jpg;wool;"Braided hat ";;19.90;m;"Braided hat medium";700.0000;GRAM
braided-hat-xxxl;master_accessories_hats;1;accessories;model-braided-hat;;battleship_grey;4006381333948;files/braided-hat-xxxl/image/braided-hat.jpg;wool;"Braided hat ";braided-hat-m;21.90;xxxl;"Braided hat large";750.0000;GRAM
shield-black;eyewear,sunglasses;1;sunglasses;model-shield;promo;black;4006381333955;;acetate;"Shield Sunglasses Black";;99;;;30;GRAM
shield-havana;eyewear,sunglasses;1;sunglasses;model-shield;;havana;4006381333962;;acetate;"Shield Sunglasses Havana";;99;;;30;GRAM
sol-4100;eyewear,sunglasses;1;sunglasses;;promo;green;4006381333979;;metal;"Round Sunglasses";;89;;;25;GRAM
`

/**
 * Akeneo 1.x, before product models: a variant group in `groups` holds a product's variants. The
 * header and the T-shirts' and mugs' values are those of Akeneo's documented example export
 * (pim-docs, `formats/examples/product.csv`), cut to these columns.
 */
const VARIANT_GROUPS = `sku;categories;clothing_size;container_material;enabled;family;groups;main_color;name;price-EUR;secondary_color;tshirt_style
AKNTS_BPXS;goodies,tshirts;xs;;1;tshirts;akeneo_tshirt;black;Akeneo T-Shirt black and purple with short sleeve;10;purple;crewneck,short_sleeve
AKNTS_BPS;goodies,tshirts;s;;1;tshirts;akeneo_tshirt;black;Akeneo T-Shirt black and purple with short sleeve;10;purple;crewneck,short_sleeve
AKNTS_WPS;goodies,tshirts;s;;1;tshirts;akeneo_tshirt;white;Akeneo T-Shirt white and purple with short sleeve;10;purple;crewneck,short_sleeve
OROMUG_BO;goodies;;ceramic;1;mugs;oro_mug;black;Oro Mug;8;orange;
OROMUG_WO;goodies;;ceramic;1;mugs;oro_mug;white;Oro Mug;8;orange;
OROMUG_BO_P;goodies;;porcelain;1;mugs;oro_mug;black;Oro Mug;8;orange;
`

const read = (text: string) => readSheet(parseCsvText(text))
const names = (text: string) => read(text).results.map((result) => result.sku.productName)

describe('Akeneo’s product export: its layout', () => {
  it('is told by family, categories and enabled beside parent or groups; parent ties the variants when there is one', () => {
    const headers = EXPORT.split('\n')[0]!.split(';')
    const layout = productLayout(headers)
    expect(layout.format).toBe('akeneo')
    expect([...layout.structural.keys()].map((column) => headers[column])).toEqual(['parent'])
    const oldHeaders = VARIANT_GROUPS.split('\n')[0]!.split(';')
    expect([...productLayout(oldHeaders).structural.keys()].map((column) => oldHeaders[column])).toEqual([
      'groups',
    ])
    // A sheet of its own with a family and categories, but neither parent nor groups, is no Akeneo export.
    expect(akeneoColumns(['sku', 'family', 'categories', 'enabled', 'name'])).toBeUndefined()
  })

  it('never takes a name, a locale’s or a currency’s column, a measure or Akeneo’s own for an axis', () => {
    const headers = EXPORT.split('\n')[0]!.split(';')
    const axes = akeneoColumns(headers)!.axes.map((axis) => axis.name)
    expect(axes).toEqual(['color', 'ean', 'image', 'material', 'size'])
  })
})

describe('Akeneo’s product export: its variants', () => {
  it('variants sharing their model’s name are named with the axis that tells them apart, and counted as one product', () => {
    const { results, products } = read(EXPORT)
    expect(results.map((result) => result.sku.productName)).toEqual([
      'Braided hat – m',
      'Braided hat – xxxl',
      // Named apart in the file already: kept as they are, still one product's variants.
      'Shield Sunglasses Black',
      'Shield Sunglasses Havana',
      'Round Sunglasses',
    ])
    expect(products).toMatchObject({ format: 'akeneo', products: 3, variants: 4 })
    expect(readAsText(products)).toBe('an Akeneo product export: 3 products, 4 variants')
    // The barcode is each variant's own, never an option that names it.
    expect(results.map((result) => result.sku.barcode)).toEqual([
      '4006381333931',
      '4006381333948',
      '4006381333955',
      '4006381333962',
      '4006381333979',
    ])
    // Akeneo's export ends the hat's name with a space: read without it, then named with its size.
    expect(results[0]!.conversions).toEqual(
      expect.arrayContaining([
        { field: 'productName', kind: 'spaces-trimmed', from: 'Braided hat ', to: 'Braided hat' },
        { field: 'productName', kind: 'variant-name', from: 'Braided hat', to: 'Braided hat – m' },
      ]),
    )
  })

  it('Akeneo 1.x: a variant group’s products are named by what differs and their name does not say already', () => {
    expect(names(VARIANT_GROUPS)).toEqual([
      // "black" is in the name: the size alone tells it apart.
      'Akeneo T-Shirt black and purple with short sleeve – xs',
      'Akeneo T-Shirt black and purple with short sleeve – s',
      // The only one of its name in the group: nothing to tell apart.
      'Akeneo T-Shirt white and purple with short sleeve',
      'Oro Mug – ceramic / black',
      'Oro Mug – ceramic / white',
      'Oro Mug – porcelain / black',
    ])
    expect(read(VARIANT_GROUPS).products).toMatchObject({ products: 2, variants: 6 })
  })

  it('with a parent column, groups are Akeneo’s other groups and tie nothing', () => {
    // The promo group holds the sunglasses of two models: they stay two products.
    const { products } = read(EXPORT)
    expect(products.products).toBe(3)
  })

  it('Akeneo’s own catalog, as its import loads it: 136 variants of 40 models and 6 products alone', () => {
    const file = join(
      import.meta.dirname,
      '../../fixtures/sheets/exports/real/akeneo-catalog-modeling-products.csv',
    )
    const sheet = parseCsvText(decodeText(new Uint8Array(readFileSync(file))))
    const { results, products } = readSheet(sheet)
    expect(products).toMatchObject({ format: 'akeneo', products: 46, variants: 136, orphans: 0 })
    // A product alone is named as written; a variant holds its own values only (its model's name
    // is in the product models' file), so it has no name to add its size to.
    const bag = results.find((result) => result.sku.barcode === '1234567890183')!
    expect(bag.sku.productName).toBe('Bag')
    const amor = results.filter((result) => result.row <= 3)
    expect(amor.map((result) => [result.sku.barcode, result.sku.productName])).toEqual([
      ['1234567890123', undefined],
      ['1234567890124', undefined],
      ['1234567890125', undefined],
    ])
  })
})
