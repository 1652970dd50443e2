import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SheetSummary } from '#cli/sheet-report.ts'
import { MAPPING_FILE_FORMAT } from '#shared/sheet/mapping.ts'
import { runCli } from './run-cli.ts'

/**
 * A JSON file that is not SKUs (a shop's or an API's product list) is read as a table of its JSON
 * paths through a mapping file, as a sheet is: a list of shades inside each product becomes one
 * SKU per shade, named by the product and the shade, with the defaults a sheet's rows get; without
 * a mapping it is refused with the paths found, never passed on with its own keys.
 */
const EXPORTS = 'test/fixtures/sheets/exports'
/** A makeup API's products, written by us from its documented fields: 3 products, 5 shades. */
const MAKEUP = `${EXPORTS}/makeup-api-products.json`
const MAKEUP_MAPPING = `${EXPORTS}/makeup-api-products.mapping.json`
/** Shopify Admin API's products.json, real (SOURCES.md): an iPod in 4 colours, an iPod with no variant. */
const SHOPIFY = `${EXPORTS}/real/shopify-admin-api-products.json`

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-json-mapping-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})
const at = (name: string) => join(scratch, name)

interface Written {
  skus: Record<string, unknown>[]
}

describe('a JSON product list through a mapping file', () => {
  it('validate: one SKU per shade, each problem named by its row, its place in the file and its path', async () => {
    const run = await runCli(['validate', MAKEUP, '--mapping', MAKEUP_MAPPING, '--json'])
    expect(run.stderr).toBe('')
    const summary = JSON.parse(run.stdout) as SheetSummary
    expect(summary).toMatchObject({ kind: 'json-products', items: 6, valid: 6, invalid: 0 })
    expect(summary.notes).toContain('read as a JSON product list: 3 products, 5 variants')
    expect(summary.notes).toContain(
      'column "product_colors[].hex_value" is kept as the extra field "hexValue"',
    )
    // The makeup API has no barcodes: every SKU is held back for it, each named where it is.
    expect(summary.warnings).toContainEqual({
      row: 2,
      item: '[0].product_colors[1]',
      column: '',
      value: '',
      message: 'Barcode is missing',
    })
    expect(summary.warnings).toContainEqual(expect.objectContaining({ row: 6, item: '[2]' }))

    const text = await runCli(['validate', MAKEUP, '--mapping', MAKEUP_MAPPING, '--all'])
    expect(text.stdout).toContain('item 5, at [1].product_colors[1]: Barcode is missing (warning)')
    expect(text.stdout).toMatch(/^6 SKUs checked: 6 valid, 0 invalid/m)
  })

  it('convert: a nested product list with shades becomes one SKU per shade, named, with the defaults and no foreign keys', async () => {
    const run = await runCli(['convert', MAKEUP, at('makeup.json'), '--mapping', MAKEUP_MAPPING])
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('wrote')
    const { skus } = JSON.parse(await readFile(at('makeup.json'), 'utf8')) as Written
    expect(skus.map((sku) => sku.productName)).toEqual([
      'Velvet Lip Pencil – Rosewood',
      'Velvet Lip Pencil – Cinnamon',
      'Velvet Lip Pencil – Poppy',
      'Satin Lipstick – Berry',
      'Satin Lipstick – Coral Kiss',
      'Clear Brow Gel',
    ])
    expect(skus[1]).toMatchObject({
      brand: 'Northlight',
      category: 'makeup',
      productImage: 'https://cdn.example.com/products/9001/lip-pencil.png',
      actionUrl: 'https://shop.example.com/products/velvet-lip-pencil',
      options: { Shade: 'Cinnamon' },
      hexValue: '#A36B5E',
      // The new-SKU defaults a sheet's rows get.
      status: 'DRAFT',
    })
    expect(skus[1]!.arEffect).toBeDefined()
    // The product without shades is one SKU, with no options.
    expect(skus[5]!.options).toBeUndefined()
    // Nothing of the file passes under its own keys.
    for (const sku of skus)
      for (const key of ['id', 'name', 'price', 'product_colors', 'tag_list', 'image_link'])
        expect(sku).not.toHaveProperty(key)
  })

  it('a real Shopify products.json: its variants, barcodes and first picture, by a mapping keyed by JSON path', async () => {
    await writeFile(
      at('shopify.mapping.json'),
      JSON.stringify({
        format: MAPPING_FILE_FORMAT,
        columns: {
          title: 'productName',
          vendor: 'brand',
          'variants[].barcode': 'barcode',
          'variants[].option1': 'option:Color',
          'images[].src': 'productImage',
        },
      }),
    )
    const run = await runCli(['convert', SHOPIFY, at('shopify.csv'), '--mapping', at('shopify.mapping.json')])
    expect(run.stdout).toContain('note: read as a JSON product list: 2 products, 4 variants')
    expect(run.stdout).toContain('wrote')
    const json = await runCli([
      'convert',
      SHOPIFY,
      at('shopify.json'),
      '--mapping',
      at('shopify.mapping.json'),
    ])
    // Every SKU is valid; the exit status is 1 for those a push would hold back, said last.
    expect(json.stdout).not.toContain('invalid left out')
    expect(json.code).toBe(json.stdout.trimEnd().split('\n').at(-1)!.includes('held back') ? 1 : 0)
    const { skus } = JSON.parse(await readFile(at('shopify.json'), 'utf8')) as Written
    expect(skus.map((sku) => [sku.productName, sku.barcode])).toEqual([
      ['IPod Nano - 8GB – Pink', '1234_pink'],
      ['IPod Nano - 8GB – Red', '1234_red'],
      ['IPod Nano - 8GB – Green', '1234_green'],
      ['IPod Nano - 8GB – Black', '1234_black'],
      ['IPod Touch 8GB', undefined],
    ])
    expect(skus[0]).toMatchObject({
      brand: 'Apple',
      options: { Color: 'Pink' },
      productImage: 'http://cdn.shopify.com/s/files/1/0006/9093/3842/products/ipod-nano.png?0',
    })
  })

  it('without a mapping it is refused, with the paths found as a mapping to start from', async () => {
    const run = await runCli(['convert', MAKEUP, at('refused.json')])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(existsSync(at('refused.json'))).toBe(false)
    expect(run.stderr).toContain('makeup-api-products.json needs a mapping: it is a list of 3 products')
    const starter = JSON.parse(
      run.stderr.slice(run.stderr.indexOf('{'), run.stderr.lastIndexOf('}') + 1),
    ) as {
      format: string
      columns: Record<string, string | null>
    }
    expect(starter.format).toBe(MAPPING_FILE_FORMAT)
    expect(starter.columns).toMatchObject({
      name: 'productName',
      brand: 'brand',
      price: null,
      'product_colors[].colour_name': 'option:colour_name',
      'product_colors[].hex_value': null,
    })
    // Saved as it is, the starter reads the file: one SKU per shade.
    await writeFile(at('starter.mapping.json'), JSON.stringify(starter))
    const mapped = await runCli(['validate', MAKEUP, '--mapping', at('starter.mapping.json'), '--json'])
    expect(JSON.parse(mapped.stdout)).toMatchObject({ kind: 'json-products', items: 6 })

    const validate = await runCli(['validate', MAKEUP])
    expect(validate.code).toBe(2)
    expect(validate.stderr).toContain('needs a mapping')
  })

  it('an object holding one list of products is a product list too; a large one is read whole, its first items telling', async () => {
    const products = Array.from({ length: 6_000 }, (_, index) => ({
      title: `Lipstick ${index}`,
      vendor: 'Northlight',
      description: 'x'.repeat(600),
      variants: [
        { barcode: `B${index}a`, shade: 'Red' },
        { barcode: `B${index}b`, shade: 'Rose' },
      ],
    }))
    await writeFile(at('large.json'), JSON.stringify(products))
    await writeFile(at('wrapped.json'), JSON.stringify({ products: products.slice(0, 2), total: 2 }))
    await writeFile(
      at('large.mapping.json'),
      JSON.stringify({ format: MAPPING_FILE_FORMAT, columns: { 'variants[].barcode': 'barcode' } }),
    )
    const large = await runCli([
      'validate',
      at('large.json'),
      '--mapping',
      at('large.mapping.json'),
      '--json',
    ])
    expect(large.stderr).toBe('')
    expect(JSON.parse(large.stdout)).toMatchObject({ kind: 'json-products', items: 12_000 })
    const wrapped = await runCli([
      'validate',
      at('wrapped.json'),
      '--mapping',
      at('large.mapping.json'),
      '--json',
    ])
    expect(JSON.parse(wrapped.stdout)).toMatchObject({ kind: 'json-products', items: 4 })
    const refused = await runCli(['validate', at('wrapped.json')])
    expect(refused.stderr).toContain('"products" holds 2 products')
  })

  it('--mapping given with a file of SKUs is said, not silently ignored; SKUs are read as they are', async () => {
    await writeFile(at('skus.json'), JSON.stringify([{ barcode: '4006381333931', productName: 'Frame' }]))
    const run = await runCli(['validate', at('skus.json'), '--mapping', MAKEUP_MAPPING])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      'holds SKUs, which are read as they are: --mapping is for sheets and JSON product lists',
    )
    const plain = await runCli(['validate', at('skus.json'), '--json'])
    expect(JSON.parse(plain.stdout)).toMatchObject({ kind: 'sku-list', items: 1 })
  })
})
