import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SheetSummary } from '#cli/sheet-report.ts'
import { MAPPING_FILE_FORMAT } from '#shared/sheet/mapping.ts'
import { barcodesIn, pushHarness } from './push-harness.ts'
import { runCli } from './run-cli.ts'

/**
 * The CLI reads the real export fixtures as the app does, and takes the person's say where the
 * file leaves it open: --mapping (the app's mapping file), --decimal-comma, --show-mapping.
 */
const EXPORTS = 'test/fixtures/sheets/exports'
/** A person's own sheet whose headers have typos, and a barcode twice. */
const TYPOS = 'test/fixtures/sheets/typos.csv'

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-mapping-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

const at = (name: string) => join(scratch, name)
const notes = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('note: '))

async function summaryOf(args: string[]): Promise<SheetSummary & { mapping?: Record<string, unknown> }> {
  const run = await runCli(['validate', '--json', ...args])
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as SheetSummary & { mapping?: Record<string, unknown> }
}

describe('reading shop exports from the CLI', () => {
  it('says how it read a Shopify export: products and variants, the shop codes it did not take for the barcode', async () => {
    const run = await runCli(['validate', `${EXPORTS}/shopify-products.csv`, '--all'])
    expect(run.code).toBe(1)
    const said = notes(run.stdout)
    expect(said).toContain(
      'note: read as a Shopify product export: 3 products, 5 variants, 1 image row (not SKUs)',
    )
    expect(said).toContain(
      'note: column "Variant SKU" is a shop\'s own code, not a barcode, and is not read; if it is the barcode, say so with --mapping ({"columns": {"Variant SKU": "barcode"}})',
    )
    // The two barcodes a spreadsheet shortened are errors on their rows, with the column.
    expect(run.stdout).toContain(
      'line 2, column "Variant Barcode": Barcode "3.65275E+11" was shortened to a number',
    )
    expect(run.stdout).toMatch(/^6 SKUs checked: 4 valid, 2 invalid/m)
  })

  it('where two columns could fill one field, says which it took and why', async () => {
    const run = await runCli(['validate', `${EXPORTS}/akeneo-products.csv`])
    expect(notes(run.stdout)).toContain(
      'note: column "name-en_US" fills Product name; "name-fr_FR" could too and is ignored ("name-en_US" comes first in the file); choose another with --mapping',
    )
  })

  it('--show-mapping prints the mapping used; given back with --mapping it reads the file the same way, and a change to it is followed', async () => {
    const shown = await summaryOf(['--show-mapping', `${EXPORTS}/own-sheet.csv`])
    expect(shown.mapping).toMatchObject({
      format: MAPPING_FILE_FORMAT,
      columns: { EAN: 'barcode', 'SKU Code': null },
    })
    await writeFile(at('own.mapping.json'), JSON.stringify(shown.mapping))
    const again = await summaryOf(['--mapping', at('own.mapping.json'), `${EXPORTS}/own-sheet.csv`])
    const { mapping: _mapping, notes: shownNotes, ...withoutMapping } = shown
    const { notes: againNotes, ...rest } = again
    expect(rest).toEqual(withoutMapping)
    // Only the reason a column is not read changes: the mapping now says so.
    expect(shownNotes).toContain('column "Price" matches no field of the contract and is ignored')
    expect(againNotes).toContain('column "Price" is dropped by the mapping')
    expect(
      againNotes.filter((note) => !note.startsWith('column "Price"') && !note.startsWith('column "Colour"')),
    ).toEqual(
      shownNotes.filter((note) => !note.startsWith('column "Price"') && !note.startsWith('column "Colour"')),
    )

    // The person's say: SKU Code is the barcode here, EAN is dropped, Price is kept, Status is fixed.
    const mine = {
      format: MAPPING_FILE_FORMAT,
      columns: { 'SKU Code': 'barcode', EAN: null, Price: 'keep:price' },
      constants: { status: 'DRAFT', category: 'eyewear' },
    }
    await writeFile(at('mine.mapping.json'), JSON.stringify(mine))
    await writeFile(at('out.json'), '')
    const converted = await runCli([
      'convert',
      '--force',
      '--mapping',
      at('mine.mapping.json'),
      `${EXPORTS}/own-sheet.csv`,
      at('out.json'),
    ])
    expect(converted.stderr).toBe('')
    const { skus } = JSON.parse(await readFile(at('out.json'), 'utf8')) as { skus: Record<string, unknown>[] }
    // Row 1 is left out: its "1,5" is an error without --decimal-comma.
    expect(skus.map((sku) => [sku.barcode, sku.price, sku.status, sku.category])).toEqual([
      ['OPT-5002-BLK', '89.00', 'DRAFT', 'eyewear'],
      ['SOL-5003-TRT', '119.00', 'DRAFT', 'eyewear'],
      ['SOL-5004-RSE', '99.00', 'DRAFT', 'eyewear'],
      ['SOL-5005-BLU', '39.00', 'DRAFT', 'eyewear'],
      ['OPT-5006-SLV', '159.00', 'DRAFT', 'eyewear'],
    ])
    expect(converted.stdout).toContain('note: column "Price" is kept as the extra field "price"')
    await writeFile(
      at('other-shop.mapping.json'),
      JSON.stringify({ format: MAPPING_FILE_FORMAT, columns: { Size: null } }),
    )
    const elsewhere = await runCli([
      'validate',
      '--mapping',
      at('other-shop.mapping.json'),
      `${EXPORTS}/own-sheet.csv`,
    ])
    expect(notes(elsewhere.stdout)).toContain(
      'note: the mapping names the column "Size", which this file does not have',
    )
  })

  it('"1,5" is an error naming its row and column; --decimal-comma reads it as 1.5', async () => {
    const without = await runCli(['validate', `${EXPORTS}/own-sheet-decimal-comma.csv`, '--all'])
    expect(without.code).toBe(1)
    expect(without.stdout).toContain(
      'line 2, column "Intensity": Intensity must be a number with a dot for decimals and no thousands separator (such as 1234.5), not the text "1,5"; if this file writes decimals with a comma, say so and it is read as one',
    )
    const withComma = await summaryOf(['--decimal-comma', `${EXPORTS}/own-sheet-decimal-comma.csv`])
    // Only the barcode the spreadsheet mangled is left wrong.
    expect(withComma.errors.map((error) => [error.row, error.column])).toEqual([[1, 'EAN']])
    expect(withComma.notes).toContain('Intensity: 4 decimal commas read (“1,5” → 1.5), lines 2, 3, 4, 5')
  })

  // A tryout's real Magento export gave 443 of its 454 rows' pictures as paths in the shop's media
  // folder: every one of them invalid, with no way to say where the pictures are.
  it('pictures given as paths in the shop: refused saying what to give; --image-base or the mapping’s imageBase reads them', async () => {
    const sheet = at('magento-paths.csv')
    await writeFile(
      sheet,
      [
        'sku,store_view_code,product_type,name,ean,categories,base_image',
        'MB01,,simple,Joust Duffle Bag,4006381333931,Default Category/Gear/Bags,/m/b/mb01-blue-0.jpg',
        'MB02,,simple,Strive Shoulder Pack,7612345000749,Default Category/Gear/Bags,no_selection',
      ].join('\n'),
    )
    const without = await runCli(['validate', sheet])
    expect(without.stdout).toContain(
      'line 2, column "base_image": Product image is a path in the shop, not a web address: say at which address the shop’s pictures are, and each path is read with it',
    )
    const base = 'https://luma.example/media/catalog/product'
    const given = await summaryOf(['--image-base', base, sheet, '--show-mapping'])
    expect(given.errors).toEqual([])
    expect(given.notes).toContain(
      `Product image: 1 picture’s path in the shop read with the pictures’ address (“/m/b/mb01-blue-0.jpg” → “${base}/m/b/mb01-blue-0.jpg”), line 2`,
    )
    // The mapping printed keeps it, and read back it reads the pictures the same way.
    expect(given.mapping).toMatchObject({ imageBase: base })
    await writeFile(at('paths.mapping.json'), JSON.stringify(given.mapping))
    const out = at('paths.json')
    await runCli(['convert', '--mapping', at('paths.mapping.json'), sheet, out])
    const { skus } = JSON.parse(await readFile(out, 'utf8')) as { skus: { productImage?: string }[] }
    expect(skus.map((sku) => sku.productImage)).toEqual([`${base}/m/b/mb01-blue-0.jpg`, undefined])

    const wrong = await runCli(['validate', '--image-base', 'luma.example/media', sheet])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain(
      '--image-base: the pictures’ address must be a web address starting with http:// or https://, not "luma.example/media"',
    )
    await writeFile(
      at('bad-base.mapping.json'),
      JSON.stringify({ format: MAPPING_FILE_FORMAT, columns: {}, imageBase: 'media/' }),
    )
    const badFile = await runCli(['validate', '--mapping', at('bad-base.mapping.json'), sheet])
    expect(badFile.stderr).toContain('at "imageBase": the pictures’ address must be a web address')
  })

  it('a mapping file that is not one is refused, naming the file and the key', async () => {
    await writeFile(
      at('bad.mapping.json'),
      JSON.stringify({ format: MAPPING_FILE_FORMAT, columns: { EAN: 12 } }),
    )
    const run = await runCli(['validate', '--mapping', at('bad.mapping.json'), `${EXPORTS}/own-sheet.csv`])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`The mapping ${at('bad.mapping.json')} cannot be used: at "columns.EAN":`)
    await writeFile(at('other.json'), '{"skus": []}')
    const other = await runCli(['validate', '--mapping', at('other.json'), `${EXPORTS}/own-sheet.csv`])
    expect(other.stderr).toContain('it is not a Catalog Desk mapping')
  })
})

describe('a sheet whose headers have typos', () => {
  const suggested = {
    'Prodcut Name': 'productName',
    Barcod: 'barcode',
    Brnad: 'brand',
    Categroy: 'category',
    Intensty: 'arEffect.envSettings.intensity',
  }
  const typoNotes = [
    'note: column "Prodcut Name" matches no field of the contract and is ignored; it looks like Product name ("productName"), which it fills only if you say so',
    'note: column "Barcod" matches no field of the contract and is ignored; it looks like Barcode ("barcode"), which it fills only if you say so',
    'note: column "Brnad" matches no field of the contract and is ignored; it looks like Brand ("brand"), which it fills only if you say so',
    'note: column "Categroy" matches no field of the contract and is ignored; it looks like Category ("category"), which it fills only if you say so',
    'note: column "Intensty" matches no field of the contract and is ignored; it looks like Intensity ("arEffect.envSettings.intensity"), which it fills only if you say so',
    `note: to read those columns as suggested, save ${JSON.stringify({ format: MAPPING_FILE_FORMAT, columns: suggested })} as a file and pass it with --mapping FILE (or write them into the mapping --show-mapping prints)`,
  ]
  /** The mapping file the last note gives, as a person would copy it. */
  const noteMapping = (stdout: string) => /save (\{.*\}) as a file/.exec(stdout)![1]!

  it('validate names each column and the field it looks like, and how to say so; nothing is read silently', async () => {
    const run = await runCli(['validate', TYPOS, '--all'])
    expect(
      notes(run.stdout).filter((note) => note.includes('looks like') || note.startsWith('note: to read')),
    ).toEqual(typoNotes)
    expect(notes(run.stdout)).toContain(
      'note: column "Price" matches no field of the contract and is ignored',
    )
    expect(run.stdout).toContain('line 2: Product name is missing (warning)')
    expect(run.stdout).toContain('line 2: Barcode is missing (warning)')
    // The mapping used leaves them out: a typo is the person's to confirm.
    const shown = await summaryOf(['--show-mapping', TYPOS])
    expect(shown.mapping).toMatchObject({
      columns: { 'Prodcut Name': null, Barcod: null, Brnad: null, 'Sub Category': 'subCategory' },
    })

    // The note's mapping, saved and given back: the columns fill their fields, and nothing more is suggested.
    await writeFile(at('typos.mapping.json'), noteMapping(run.stdout))
    const mapped = await runCli(['validate', '--mapping', at('typos.mapping.json'), TYPOS])
    expect(mapped.stderr).toBe('')
    expect(mapped.stdout).not.toContain('looks like')
    expect(mapped.stdout).toMatch(/^3 SKUs checked: 3 valid, 0 invalid, 0 warnings/m)
  })

  it('convert says the same and writes the SKUs without the typos’ columns; with the mapping, with them', async () => {
    const run = await runCli(['convert', '--force', TYPOS, at('typos.json')])
    expect(run.stderr).toBe('')
    expect(notes(run.stdout)).toEqual(expect.arrayContaining(typoNotes))
    const written = JSON.parse(await readFile(at('typos.json'), 'utf8')) as {
      skus: Record<string, unknown>[]
    }
    expect(written.skus.map((sku) => [sku.productName, sku.barcode, sku.subCategory])).toEqual([
      [undefined, undefined, 'sunglasses'],
      [undefined, undefined, 'eyeglasses'],
      [undefined, undefined, 'sunglasses'],
    ])
    await writeFile(at('typos.mapping.json'), noteMapping(run.stdout))
    const mapped = await runCli([
      'convert',
      '--force',
      '--mapping',
      at('typos.mapping.json'),
      TYPOS,
      at('typos.json'),
    ])
    expect(mapped.stdout).not.toContain('looks like')
    const again = JSON.parse(await readFile(at('typos.json'), 'utf8')) as { skus: Record<string, unknown>[] }
    expect(again.skus.map((sku) => [sku.productName, sku.barcode, sku.brand, sku.category])).toEqual([
      ['Aviator Gold 58', '7612345001029', 'Solara', 'eyewear'],
      ['Round Optical 49', '7612345001043', 'Northwind Optics', 'eyewear'],
      ['Aviator Silver 58', '7612345001029', 'Solara', 'eyewear'],
    ])
  })

  describe('push', () => {
    const TOKEN = 'sheet-typos-token-7c2e'
    const harness = pushHarness({ token: TOKEN, barcodePrefix: 'T' })

    it('says so on standard error before anything is sent; with the mapping, the barcode twice is held back', async () => {
      const sandbox = await harness.sandboxFor()
      const sheet = join(harness.dir(), 'typos.csv')
      await writeFile(sheet, await readFile(TYPOS, 'utf8'))
      const base = ['typos.csv', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
      const refused = await harness.push([...base, '--journal', 'refused.jsonl'])
      expect(refused.code).toBe(1)
      const notes = refused.stderr.split('\n').filter((line) => line.startsWith('note: '))
      // The typos' notes first; then what the valid SKUs' warnings are on (push-input.ts).
      expect(notes.slice(0, typoNotes.length)).toEqual(typoNotes)
      expect(notes.slice(typoNotes.length).every((note) => note.startsWith('note: valid SKUs with'))).toBe(
        true,
      )
      // Read without them, no row has a name or a barcode: nothing is sent.
      expect(barcodesIn(sandbox)).toEqual([])

      await writeFile(join(harness.dir(), 'typos.mapping.json'), noteMapping(refused.stderr))
      const run = await harness.push([...base, '--mapping', 'typos.mapping.json'])
      expect(run.stderr).not.toContain('looks like')
      expect(run.code).toBe(1)
      // The one barcode of two rows is held back, the other row sent.
      expect(barcodesIn(sandbox)).toEqual(['7612345001043'])
      expect(run.stdout).toContain(
        '  held: [0] 7612345001029: Barcode 7612345001029 is also on 1 other SKU to be sent (line 4 “Aviator Silver 58”): keep one',
      )
      expect(run.stdout).toContain('  held: [2] 7612345001029: Barcode 7612345001029 is also on 1 other SKU')
    })
  })
})
