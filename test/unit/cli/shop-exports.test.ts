import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SheetSummary } from '#cli/sheet-report.ts'
import { isAppColumn } from '#shared/sheet/app-columns.ts'
import { matchColumns } from '#shared/sheet/columns.ts'
import { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { matchOptionsOf } from '#shared/sheet/products.ts'
import { conversionText, readAsText, skippedText } from '#shared/sheet/reading-words.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

/**
 * Real shop exports through `validate` and `convert` (test/fixtures/sheets/exports/real/SOURCES.md):
 * WooCommerce's sample in English, Portuguese and French headers read alike; the products that are
 * no physical product skipped and said; every column the app's import speaks of, spoken of by the
 * CLI; Shopify's variants named by their product and options.
 */

const REAL = join(REPO_ROOT, 'test/fixtures/sheets/exports/real')
const EXPORTS = join(REPO_ROOT, 'test/fixtures/sheets/exports')
const SAMPLE = join(REAL, 'woocommerce-sample-products.csv')

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-shop-exports-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

type Summary = SheetSummary & { mapping: { columns: Record<string, string | null> } }

async function validated(file: string): Promise<Summary> {
  const run = await runCli(['validate', file, '--json', '--show-mapping'])
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as Summary
}

async function converted(file: string, name: string): Promise<{ productName: string }[]> {
  const out = join(scratch, name)
  const run = await runCli(['convert', file, out])
  expect(run.stderr).toBe('')
  return (JSON.parse(await readFile(out, 'utf8')) as { skus: { productName: string }[] }).skus
}

describe('WooCommerce’s sample export in the shop’s language', () => {
  it.each([
    ['woocommerce-sample-products.pt_BR.csv', 'Portuguese', 'Imagens'],
    ['woocommerce-sample-products.fr_FR.csv', 'French', 'Images'],
  ])(
    '%s: validate and convert give what the English file gives: SKUs, variants, mapped columns',
    async (name, language, images) => {
      const file = join(REAL, name)
      const [english, translated] = [await validated(SAMPLE), await validated(file)]
      expect(translated.notes[0]).toBe(
        `read as a WooCommerce product export (${language} headers): 19 products, 2 variants`,
      )
      expect(english.notes[0]).toBe('read as a WooCommerce product export: 19 products, 2 variants')
      expect(translated).toMatchObject({
        items: english.items,
        valid: english.valid,
        sendable: english.sendable,
      })
      expect(translated.items).toBe(20)
      // The same rows hold the same problems, named by the column as the file writes it.
      expect(translated.warnings.map(({ row, message }) => ({ row, message }))).toEqual(
        english.warnings.map(({ row, message }) => ({ row, message })),
      )
      expect(
        translated.warnings.find((warning) => warning.message === 'Product image is missing'),
      ).toMatchObject({ column: images })
      // The mapping file names each header as written, and maps it as its English original is.
      expect(Object.values(translated.mapping.columns)).toEqual(Object.values(english.mapping.columns))
      expect(Object.keys(translated.mapping.columns)).toEqual(
        parseCsvText(readFileSync(file, 'utf8')).headers,
      )
      // The variations of the Hoodie (parent woo-hoodie, rows 20 and 25) are SKUs; the Hoodie is not.
      const skus = await converted(file, `${language}.json`)
      expect(skus).toEqual(await converted(SAMPLE, `${language}-english.json`))
      expect(skus.map((sku) => sku.productName)).toEqual(
        expect.arrayContaining(['Hoodie - Blue, No', 'Hoodie - Blue, Yes']),
      )
      expect(skus.map((sku) => sku.productName)).not.toContain('Hoodie')
    },
  )

  it('skips the downloadable, virtual, grouped and external products, and says how many and why', async () => {
    const summary = await validated(SAMPLE)
    expect(summary.notes).toContain(
      '4 products skipped: 2 downloadable or virtual (not a physical product), 1 grouped (a set of other products), 1 external (sold on another site)',
    )
    const names = (await converted(SAMPLE, 'skipped.json')).map((sku) => sku.productName)
    for (const skipped of ['Album', 'Single', 'Logo Collection', 'WordPress Pennant'])
      expect(names).not.toContain(skipped)
    expect(names).toContain('Beanie')
  })
})

/** What the app's import says of a file: its mapping screen beside each column, and its dry run. */
function whatTheAppSays(file: string) {
  const sheet = parseCsvText(decodeText(new Uint8Array(readFileSync(file))))
  const { results, products, layout } = readSheet(sheet)
  // As the import's worker matches the columns (import.worker.ts), and DryRunReading.vue says them.
  const matches = matchColumns(sheet.headers, matchOptionsOf(layout))
  const tally = new ConversionTally()
  tally.add(results)
  return {
    products: layout.format === 'plain' ? undefined : `read as ${readAsText(products)}`,
    skipped: skippedText(products),
    conversions: tally.counts.map((count) => conversionText(count)),
    // "Read by the file's format" on the mapping screen, with its reason; the dry run lists it.
    structural: matches.filter((match) => match.structural && !isAppColumn(match.header)),
    // "Dropped columns" in the dry run.
    dropped: matches.filter((match) => match.path === null && !match.structural),
  }
}

describe('the CLI says what the app’s import says', () => {
  it.each([
    'real/woocommerce-sample-products.csv',
    'real/woocommerce-sample-products.pt_BR.csv',
    'real/shopify-packt-home-decor-export.csv',
    'real/shopify-transporter-products-template.csv',
    'shopify-products.csv',
    'woocommerce-products.csv',
  ])(
    '%s: each column the format reads itself with its reason, each dropped column, the products, the conversions',
    async (name) => {
      const file = join(EXPORTS, name)
      const app = whatTheAppSays(file)
      const { notes } = await validated(file)
      const noteOf = (header: string) => notes.filter((note) => note.includes(`"${header}"`))
      for (const match of app.structural) {
        expect(noteOf(match.header), match.header).toContainEqual(
          expect.stringMatching(/read by the file's format, not as (a field|fields)\. /),
        )
        expect(noteOf(match.header).join('\n'), match.header).toContain(match.why)
      }
      for (const match of app.dropped) expect(noteOf(match.header), match.header).not.toEqual([])
      if (app.products) expect(notes).toContain(app.products)
      if (app.skipped) expect(notes).toContain(app.skipped)
      for (const line of app.conversions) expect(notes).toContain(line)
    },
  )

  it('says the shipping package’s weight and size are not the product’s (WooCommerce’s “Weight (lbs)”)', async () => {
    const { notes } = await validated(SAMPLE)
    expect(notes).toContain(
      'columns "Weight (lbs)", "Length (in)", "Width (in)" and "Height (in)" are read by the file\'s format, not as fields. The shipping package’s size or weight, not the product’s',
    )
  })
})

describe('Shopify’s variants named by their product and options', () => {
  it('each variant with options is “product – options”, a product without options keeps its name, and it is said', async () => {
    const names = (await converted(join(REAL, 'shopify-packt-home-decor-export.csv'), 'packt.json')).map(
      (sku) => sku.productName,
    )
    expect(names.filter((name) => name.startsWith('Gardening Gloves'))).toEqual([
      'Gardening Gloves – Green',
      'Gardening Gloves – Yellow',
    ])
    // "Title: Default Title" is no option: a single product keeps its name.
    expect(names).toContain('Floor Lamp')
    const { notes } = await validated(join(EXPORTS, 'shopify-products.csv'))
    expect(notes).toContain(
      'Product name: 5 SKUs named by their product’s name and their options (“Aviator Classic Sunglasses” → “Aviator Classic Sunglasses – Black”), lines 2, 3, 4, 7, 8',
    )
  })
})

// A real Shopify export (a cosmetics shop's) holds its gift card, "Denominations" $10 to $100, among
// its products: each denomination became a SKU to try on. Written here after it.
describe('Shopify’s gift cards', () => {
  it('are skipped with all their denominations, and said so', async () => {
    const file = join(scratch, 'shopify-gift-card.csv')
    await writeFile(
      file,
      [
        'Handle,Title,Vendor,Type,Option1 Name,Option1 Value,Variant SKU,Variant Barcode,Variant Price,Gift Card,Image Src',
        'serum,Vitamin C Serum,Ayonne,Serums,Title,Default Title,AY-1,4006381333931,29.00,false,https://cdn.example.com/serum.jpg',
        'gift-cards,Ayonne Gift Cards,Ayonne,Anti Aging serums,Denominations,$10.00,,,9.95,true,https://cdn.example.com/card.jpg',
        'gift-cards,,,,,$25.00,,,25.00,,',
        'gift-cards,,,,,$50.00,,,50.00,,',
      ].join('\n'),
    )
    expect((await converted(file, 'gift-card.json')).map((sku) => sku.productName)).toEqual([
      'Vitamin C Serum',
    ])
    const { notes } = await validated(file)
    expect(notes).toContain('1 product skipped: 1 gift card (not a physical product)')
  })
})

// Two real English WooCommerce exports without a Parent column (a wine shop's 404 products, a
// sneaker shop's 69): every SKU's sub-category was "simple", the Type column's words. Written here
// after their headers.
describe('WooCommerce’s export without a Parent column', () => {
  it('is told by the exporter’s own questions: its Type says what each row is, never a sub-category', async () => {
    const file = join(scratch, 'woocommerce-no-parent.csv')
    await writeFile(
      file,
      [
        '"ID","Type","SKU","Name","Published","Is featured?","Visibility in catalog","In stock?","Regular price","Categories","Images"',
        '"101","simple","J9-UNC","Jordan 9 unc","1","0","visible","1","250","Zapatillas > Jordan","https://cdn.example.com/j9.jpg"',
        '"102","simple","J6-MID","Jordan 6 midnight","1","0","visible","1","230","Zapatillas > Jordan","https://cdn.example.com/j6.jpg"',
      ].join('\n'),
    )
    const skus = (await converted(file, 'woocommerce-no-parent.json')) as Array<Record<string, unknown>>
    expect(skus.map((sku) => [sku.productName, sku.category, sku.subCategory])).toEqual([
      ['Jordan 9 unc', 'Zapatillas', 'Jordan'],
      ['Jordan 6 midnight', 'Zapatillas', 'Jordan'],
    ])
    const { notes } = await validated(file)
    expect(notes).toContain('read as a WooCommerce product export: 2 products, 0 variants')
  })
})

// A tryout's real Shopify inventory export (884 rows, no licence to keep it) was read as a product
// export: "884 products, 0 variants", each without a barcode. Its 2024 header, with rows written here.
describe('Shopify’s inventory export', () => {
  const HEADER =
    'Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,SKU,HS Code,COO,' +
    'Location,Bin name,Incoming (not editable),Unavailable (not editable),Committed (not editable),' +
    'Available (not editable),On hand (current),On hand (new)'
  const ROWS = [
    'aviator-classic,Aviator Classic Sunglasses,Color,Black,,,,,AV-BLK,,,Main Street 1,,0,0,1,11,12,',
    'aviator-classic,Aviator Classic Sunglasses,Color,Gold,,,,,AV-GLD,,,Main Street 1,,0,0,0,3,3,',
  ]

  it('is refused by validate and convert, saying which file to export instead', async () => {
    const file = join(scratch, 'inventory_export_1.csv')
    await writeFile(file, [HEADER, ...ROWS].join('\n'))
    for (const args of [
      ['validate', file],
      ['convert', file, join(scratch, 'inventory.json')],
    ]) {
      const run = await runCli(args)
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(
        `Cannot read ${file}: It is Shopify’s inventory export: stock counts by location, with no barcodes, prices or pictures. In Shopify, export the products (Products › Export) and import that file.`,
      )
    }
  })

  it('a product export with a stock column of its own is still read', async () => {
    const file = join(scratch, 'shopify-with-on-hand.csv')
    await writeFile(
      file,
      [
        'Handle,Title,Option1 Name,Option1 Value,Variant SKU,Variant Barcode,Variant Price,On hand',
        'aviator-classic,Aviator Classic Sunglasses,Color,Black,AV-BLK,840012345016,120,12',
      ].join('\n'),
    )
    const { notes } = await validated(file)
    expect(notes[0]).toMatch(/^read as a Shopify product export: 1 product/)
  })
})
