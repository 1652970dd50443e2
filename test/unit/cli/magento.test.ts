import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sku } from '#shared/schema/sku.ts'
import { runCli } from './run-cli.ts'

/**
 * Magento 2.4.7's own sample product import/export file, byte for byte
 * (test/fixtures/sheets/exports/real/SOURCES.md): three yoga straps (simple), a grouped set of
 * them and two bundles of them, all in "Default Category/Gear/Fitness Equipment". Through the CLI,
 * as a catalog manager would check it.
 */

const FILE = 'test/fixtures/sheets/exports/real/magento2-catalog-product-sample.csv'
const STRAPS = ['Sprite Yoga Strap 6 foot', 'Sprite Yoga Strap 8 foot', 'Sprite Yoga Strap 10 foot']
const SKIPPED =
  'note: 3 products skipped: 1 grouped (a set of other products), 2 bundle (other products sold together)'

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-magento-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('Magento 2’s sample product export', () => {
  it('validate: read as Magento’s, its columns mapped as a catalog manager would, the sets skipped', async () => {
    const run = await runCli(['validate', FILE, '--json', '--show-mapping'])
    expect(run.stderr).toBe('')
    const report = JSON.parse(run.stdout) as {
      items: number
      valid: number
      notes: string[]
      mapping: { columns: Record<string, string | null> }
    }
    expect(report.mapping.columns).toMatchObject({
      sku: null,
      // Magento's kind of product (simple, grouped, bundle), not a category.
      product_type: null,
      categories: 'category',
      name: 'productName',
      product_online: 'isActive',
      url_key: null,
      weight: null,
    })
    // The grouped set and the two bundles are no SKUs: 3 straps of 6 rows.
    expect(report).toMatchObject({ items: 3, valid: 3 })
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'read as a Magento product export: 3 products, 0 variants',
        SKIPPED.slice('note: '.length),
        'column "product_type" is read by the file\'s format, not as a field. Magento’s product type (simple, configurable, grouped, bundle…), not a category',
        'column "url_key" is read by the file\'s format, not as a field. The product page’s path in the shop, not a web address: not the action link',
        'column "sku" is a shop\'s own code, not a barcode, and is not read; if it is the barcode, say so with --mapping ({"columns": {"sku": "barcode"}})',
      ]),
    )
  })

  it('convert: the three straps, each in Gear › Fitness Equipment; no set or bundle', async () => {
    const out = join(scratch, 'magento.json')
    const run = await runCli(['convert', FILE, out])
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('note: read as a Magento product export: 3 products, 0 variants')
    expect(run.stdout).toContain(SKIPPED)
    expect(run.stdout).toContain(
      'note: Category: 3 category paths split into category and sub-category (“Gear > Fitness Equipment” → “category Gear, sub-category Fitness Equipment”), lines 2, 3, 4',
    )
    const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: Sku[] }
    expect(skus.map((sku) => sku.productName)).toEqual(STRAPS)
    for (const sku of skus)
      expect(sku).toMatchObject({ category: 'Gear', subCategory: 'Fitness Equipment', isActive: true })
  })
})
