import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { productLayout } from '#shared/sheet/products.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { readAsText, skippedText } from '#shared/sheet/reading-words.ts'

/**
 * Odoo's export of products, laid out as a tryout's real one (Odoo 9's product.template, 107
 * columns, 1.4 MB with its pictures, from kennethcc2005/gbpusa_erp `data/product.template.csv`):
 * a record's relations as `field/id`, its lists' fields as `field/subfield`, and a row without an
 * id for each further entry of a list. Before Odoo was read, its 17 such rows were 17 "not a SKU"
 * errors and its 5 services were SKUs.
 */
const TEXT = [
  'id,active,barcode,categ_id/id,taxes_id/id,packaging_ids/name,packaging_ids/qty,name,type,default_code',
  'product.product_product_7_product_template,True,4006381333931,product.product_category_5,l10n.tax_1,Box,12,Apple In-Ear Headphones,product,A8767',
  ',,,,,Pallet,480,,,',
  'product.product_product_9_product_template,True,4006381333948,product.product_category_5,,,,Apple Wireless Keyboard,consu,AK789',
  'product.service_delivery,True,,,,,,Delivery Charge,service,',
].join('\n')

describe('Odoo’s product export', () => {
  it('is told by its id beside relations written field/id, which the format reads itself', () => {
    const headers = parseCsvText(TEXT).headers
    const layout = productLayout(headers)
    expect(layout.format).toBe('odoo')
    expect([...layout.structural.keys()].map((column) => headers[column])).toEqual([
      'id',
      'type',
      'categ_id/id',
      'taxes_id/id',
      'packaging_ids/name',
      'packaging_ids/qty',
    ])
    // One relation alone is anyone's column.
    expect(productLayout(['id', 'name', 'categ_id/id', 'barcode']).format).toBe('plain')
  })

  it('reads a product a row; the rows of a product’s lists are none, a service is skipped', () => {
    const { results, products } = readSheet(parseCsvText(TEXT))
    expect(readAsText(products)).toBe(
      'an Odoo product export: 2 products, 0 variants, 1 row of a product’s lists (not SKUs)',
    )
    expect(skippedText(products)).toBe('1 product skipped: 1 service (not a physical product)')
    expect(results.map((result) => [result.row, result.sku.productName, result.sku.barcode])).toEqual([
      [1, 'Apple In-Ear Headphones', '4006381333931'],
      [3, 'Apple Wireless Keyboard', '4006381333948'],
    ])
    // Odoo's kinds and ids fill no field: no category "product", no category "product.product_category_5".
    expect(results.every((result) => result.sku.category === undefined)).toBe(true)
  })
})
