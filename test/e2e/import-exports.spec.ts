import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { axe, expect, screenshot, test, type PageProblems } from './harness/fixtures.ts'
import { storedDrafts } from './harness/stored-drafts.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'

/**
 * Real spreadsheets in: a person's own sheet (shop codes beside barcodes, units in headers, Y/N,
 * decimal commas, extra columns), the settings for every row, mapping files, and a shop's export
 * whose variants the format itself describes.
 */

const exports = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets/exports')

/** Shopify's inventory export (its 2024 header; the rows written here): one row a variant and location. */
const SHOPIFY_INVENTORY_CSV = [
  'Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,SKU,HS Code,COO,Location,Bin name,' +
    'Incoming (not editable),Unavailable (not editable),Committed (not editable),Available (not editable),On hand (current),On hand (new)',
  'aviator-classic,Aviator Classic Sunglasses,Color,Black,,,,,AV-BLK,,,Main Street 1,,0,0,1,11,12,',
  'aviator-classic,Aviator Classic Sunglasses,Color,Black,,,,,AV-BLK,,,Warehouse,,0,0,0,4,4,',
].join('\n')

async function openImport(page: Page, pageProblems: PageProblems) {
  // The drafts' pictures live on a host the tests do not answer; the list shows tiles.
  pageProblems.allow(/Failed to load resource/)
  await page.route('https://cdn.example.com/**', (route) => route.fulfill({ status: 404, body: '' }))
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  await page.getByRole('link', { name: 'Import' }).click()
  await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible()
}

const chooseFile = (page: Page, name: string) =>
  page.getByLabel('Choose a file').setInputFiles(join(exports, name))
const field = (page: Page, header: string) =>
  page.getByLabel(`Field for the column ${header}`, { exact: true })
const row = (page: Page, header: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })
/** A line of the dry run's "How the file was read" that starts with its label. */
const fact = (reading: Locator, label: RegExp) => reading.getByRole('paragraph').filter({ hasText: label })
const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text })

/** Every column's choice on the mapping screen, as the person sees it: the field, the kept name. */
async function choices(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const header of await page.locator('.import-mapping tbody th[scope=row]').allTextContents()) {
    const select = field(page, header)
    if ((await select.count()) === 0) {
      out[header] = '(read by the format)'
      continue
    }
    out[header] = await select.inputValue()
    const keep = row(page, header).getByLabel('Kept under the name')
    if ((await keep.count()) > 0) out[header] += ` ${await keep.inputValue()}`
  }
  return out
}

test.describe('Importing real spreadsheets', () => {
  test('a person’s own sheet: shop codes, units, Y/N, extra columns, fixed values, decimal commas, mapping files', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    await chooseFile(page, 'own-sheet.csv')
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()

    // The shop's code is not taken for the barcode, and the row says why; the EAN is.
    await expect(field(page, 'SKU Code')).toHaveValue('')
    await expect(row(page, 'SKU Code')).toContainText('A shop’s own code, not a barcode')
    await expect(row(page, 'SKU Code')).toContainText('Dropped')
    await expect(field(page, 'EAN')).toHaveValue('barcode')
    await expect(row(page, 'EAN')).toContainText('a usual word for Barcode')
    // A unit in the header is said.
    await expect(field(page, 'Frame Width (mm)')).toHaveValue('meta.frameWidth')
    await expect(row(page, 'Frame Width (mm)')).toContainText('Read in mm')
    // A plain sheet has no variants to read: no format line, no options' box.
    await expect(page.getByText(/^Read as a /)).toHaveCount(0)
    await expect(page.getByLabel(/Keep each variant’s options/)).toHaveCount(0)

    // "Use as barcode": the shop's code fills it, the EAN is dropped, and that is said.
    await row(page, 'SKU Code')
      .getByRole('button', { name: /^Use as barcode/ })
      .click()
    await expect(field(page, 'SKU Code')).toHaveValue('barcode')
    await expect(field(page, 'SKU Code')).toBeFocused()
    await expect(field(page, 'EAN')).toHaveValue('')
    await expect(
      status(page, '“SKU Code” fills Barcode. “EAN” no longer does: it is dropped.'),
    ).toBeAttached()
    await expect(row(page, 'SKU Code')).toContainText('A shop’s own code, used as the barcode at your word')
    await expect(row(page, 'EAN')).toContainText('Dropped: “SKU Code” fills Barcode now')
    // The EAN's row offers it back.
    await row(page, 'EAN')
      .getByRole('button', { name: /^Use this column instead/ })
      .click()
    await expect(field(page, 'EAN')).toHaveValue('barcode')
    await expect(field(page, 'SKU Code')).toHaveValue('')
    await expect(
      status(page, '“EAN” fills Barcode. “SKU Code” no longer does: it is dropped.'),
    ).toBeAttached()

    // Undone by choosing again: the clash is said until the shop's code is dropped.
    await row(page, 'SKU Code')
      .getByRole('button', { name: /^Use as barcode/ })
      .click()
    await field(page, 'EAN').selectOption({ label: 'Barcode' })
    await expect(row(page, 'EAN')).toContainText('Barcode is already filled by the column “SKU Code”')
    await field(page, 'SKU Code').selectOption({ label: 'Drop this column' })
    await expect(page.locator('.import-mapping .field__errors')).toHaveCount(0)
    await expect(field(page, 'EAN')).toHaveValue('barcode')
    await expect(row(page, 'SKU Code')).toContainText('A shop’s own code, not a barcode')

    // Price and Colour kept as extra fields, under their header's words.
    await expect(row(page, 'Price')).toContainText('Not recognised')
    await field(page, 'Price').selectOption({ label: 'Keep as an extra field' })
    const priceKey = row(page, 'Price').getByLabel('Kept under the name')
    await expect(priceKey).toHaveValue('price')
    await field(page, 'Colour').selectOption({ label: 'Keep as an extra field' })
    await expect(row(page, 'Colour').getByLabel('Kept under the name')).toHaveValue('colour')
    // A name the contract has is refused; the person's own is taken.
    await priceKey.fill('brand')
    await expect(row(page, 'Price')).toContainText(
      '“brand” is a field of the contract: map the column to Brand instead.',
    )
    await expect(priceKey).toHaveAttribute('aria-invalid', 'true')
    await priceKey.fill('price')
    await expect(priceKey).not.toHaveAttribute('aria-invalid', 'true')

    // For every row: a value that is not of its field's kind is refused, Status = DRAFT is taken.
    const every = page.getByRole('group', { name: 'For every row' })
    await every.getByLabel('Field', { exact: true }).selectOption({ label: 'Active' })
    await every.getByLabel('Value', { exact: true }).fill('maybe')
    await every.getByRole('button', { name: 'Add fixed value' }).click()
    await expect(every.getByRole('alert')).toHaveText(
      'Active must be yes or no (true/false, Y/N, 1/0), not the text "maybe"',
    )
    await expect(every.getByRole('listitem')).toHaveCount(0)
    await every.getByLabel('Field', { exact: true }).selectOption({ label: 'Status' })
    await every.getByLabel('Value', { exact: true }).fill('DRAFT')
    await every.getByLabel('Value', { exact: true }).press('Enter')
    await expect(every.getByRole('listitem')).toHaveText(['Status = DRAFT Remove the fixed value of Status'])
    await expect(status(page, 'Status is “DRAFT” on every row.')).toBeAttached()
    await expect(every.getByLabel('Fill missing sections with the new-SKU defaults')).toBeChecked()
    await expect(every.getByLabel(/decimals with a comma/)).not.toBeChecked()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-exports-mapping')

    // Without the decimal comma, "1,5" is an error at its line and column.
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
    await page.getByRole('button', { name: /^Error Intensity\s?:/ }).click()
    const intensityProblem = page.locator('.import-problems tbody tr').filter({ hasText: '1,5' })
    await expect(intensityProblem.locator('td').nth(0)).toHaveText('2')
    await expect(intensityProblem.locator('td').nth(1)).toHaveText('1,5')
    await expect(intensityProblem).toContainText('if this file writes decimals with a comma, say so')

    // The dry run says how cells were read, what was kept and what was dropped.
    const reading = page.getByRole('region', { name: 'How the file was read' })
    const conversions = reading.getByRole('list', {
      name: 'Cells read differently from how they are written',
    })
    await expect(conversions.getByRole('listitem').filter({ hasText: /^Active:/ })).toHaveText(
      'Active: 6 cells read as yes/no (“Y” → yes), lines 2, 3, 4, 5, 6…',
    )
    await expect(conversions.getByRole('listitem').filter({ hasText: /^Category:/ })).toHaveText(
      'Category: 4 cells spelled as suggested (“Eyewear” → “eyewear”), lines 2, 4, 5, 7',
    )
    await expect(conversions.getByRole('listitem').filter({ hasText: /^Frame width:/ })).toHaveText(
      'Frame width: 2 units dropped (“138 mm” → “138”), lines 3, 6',
    )
    await expect(conversions.getByRole('listitem').filter({ hasText: /^Intensity:/ })).toHaveCount(0)
    await expect(fact(reading, /^Kept as extra fields:/)).toHaveText(
      'Kept as extra fields: Price → price, Colour → colour',
    )
    await expect(fact(reading, /^Dropped columns:/)).toHaveText('Dropped columns: SKU Code')
    const filled = fact(reading, /^Filled with new-SKU defaults:/)
    await expect(filled).toContainText(/Transform \(6 rows\)/)
    // The fixed value gave the status: the defaults did not need to.
    await expect(filled).not.toContainText('Status')

    // With the decimal comma said, "1,5" is one and a half.
    await page.getByRole('button', { name: 'Back to the mapping' }).click()
    await expect(field(page, 'Price')).toHaveValue('keep:')
    await page.getByLabel('This file writes decimals with a comma (1,5 means one and a half)').check()
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
    await page.getByRole('button', { name: /^Error Intensity\s?:/ }).click()
    await expect(page.locator('.import-problems tbody tr').filter({ hasText: '0.8' })).toHaveCount(1)
    await expect(page.locator('.import-problems tbody tr').filter({ hasText: '1,5' })).toHaveCount(0)
    await expect(conversions.getByRole('listitem').filter({ hasText: /^Intensity:/ })).toHaveText(
      'Intensity: 1 decimal comma read (“1,5” → 1.5), line 2',
    )
    // This sheet mixes both ways: with decimals said to be commas, its dots are refused where they are.
    const dotted = page.locator('.import-problems tbody tr').filter({ hasText: '0.8' })
    await expect(dotted.locator('td').nth(0)).toHaveText('3')
    await expect(dotted.locator('td').nth(1)).toHaveText('0.8')
    await expect(dotted).toContainText('Intensity must be a number with a comma for decimals')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-exports-dry-run')

    // The mapping as a file, for the next export of this sheet.
    await page.getByRole('button', { name: 'Back to the mapping' }).click()
    const before = await choices(page)
    expect(before).toMatchObject({
      'SKU Code': '',
      EAN: 'barcode',
      Price: 'keep: price',
      Colour: 'keep: colour',
    })
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save mapping file…' }).click(),
    ])
    expect(saved.suggestedFilename()).toBe('own-sheet.mapping.json')
    const mappingPath = (await saved.path())!
    const mappingFile = JSON.parse(await readFile(mappingPath, 'utf8')) as Record<string, unknown>
    expect(mappingFile).toMatchObject({
      format: 'catalog-desk-mapping/1',
      columns: { 'SKU Code': null, EAN: 'barcode', Price: 'keep:price', Colour: 'keep:colour' },
      constants: { status: 'DRAFT' },
      fillDefaults: true,
      decimalComma: true,
    })

    // Imported without the template's defaults: what the drafts hold is the file's, the fixed value and the kept columns.
    await page.getByLabel('Fill missing sections with the new-SKU defaults').uncheck()
    await page.getByRole('button', { name: 'Check the rows' }).click()
    // The report is on screen (its Import button with it) before anything on it is looked for.
    await expect(page.getByRole('button', { name: /^Import \d/ })).toBeVisible()
    await expect(fact(reading, /^Filled with new-SKU defaults:/)).toHaveCount(0)
    const alsoInvalid = page.getByRole('checkbox', { name: /Also import/ })
    if ((await alsoInvalid.count()) > 0) await alsoInvalid.check()
    await page.getByRole('button', { name: /^Import 6/ }).click()
    await expect(page.getByRole('heading', { name: '6 drafts imported' })).toBeVisible()
    const stored = await storedDrafts(page)
    expect(stored).toHaveLength(6)
    for (const draft of stored) {
      expect(draft.payload.status).toBe('DRAFT')
      expect(draft.payload).not.toHaveProperty('arEffect.transform')
    }
    const byName = (name: string) => stored.find((draft) => draft.productName === name)!.payload
    expect(byName('Aviator Gold 58')).toMatchObject({
      price: '129.00',
      colour: 'Gold',
      isActive: true,
      category: 'eyewear',
      arEffect: { envSettings: { intensity: 1.5 } },
    })
    expect(byName('Round Optical 49 Black')).toMatchObject({
      barcode: '7612345001043',
      price: '89.00',
      meta: { frameWidth: '138' },
    })
    expect(byName('Round Optical 49 Black')).not.toHaveProperty('SKU Code')

    // A fresh import of the same sheet, with the mapping file: the same choices, settings included.
    await page.getByRole('button', { name: 'Import another file' }).click()
    await chooseFile(page, 'own-sheet.csv')
    await expect(field(page, 'Price')).toHaveValue('')
    await page.getByLabel('Load mapping file…').setInputFiles({
      name: saved.suggestedFilename(),
      mimeType: 'application/json',
      buffer: await readFile(mappingPath),
    })
    await expect(status(page, 'Mapping file “own-sheet.mapping.json” applied.')).toBeVisible()
    expect(await choices(page)).toEqual(before)
    await expect(row(page, 'Price')).toContainText('From the mapping file “own-sheet.mapping.json”')
    const every2 = page.getByRole('group', { name: 'For every row' })
    await expect(every2.getByRole('listitem')).toHaveText(['Status = DRAFT Remove the fixed value of Status'])
    await expect(every2.getByLabel(/decimals with a comma/)).toBeChecked()
    await expect(every2.getByLabel('Fill missing sections with the new-SKU defaults')).toBeChecked()

    // A file that is not a mapping is refused, naming the file and what is wrong; nothing changes.
    await page.getByLabel('Load mapping file…').setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ columns: { Price: 'keep:price' } })),
    })
    await expect(
      page.getByRole('alert').filter({ hasText: '“notes.json” cannot be used as a mapping file' }),
    ).toContainText('it is not a Catalog Desk mapping')
    expect(await choices(page)).toEqual(before)
    // Removing the fixed value: said, and the focus goes back to the choice of a field.
    await every2.getByRole('button', { name: 'Remove the fixed value of Status' }).click()
    await expect(every2.getByRole('listitem')).toHaveCount(0)
    await expect(every2.getByLabel('Field', { exact: true })).toBeFocused()
    await expect(status(page, 'Status has no fixed value now.')).toBeAttached()
  })

  test('a Shopify export: columns the format reads, products and variants, options kept', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    await chooseFile(page, 'shopify-products.csv')
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await expect(
      page.getByText(
        /^Read as a Shopify product export: rows with the same Handle and no Title are the product’s variants/,
      ),
    ).toBeVisible()
    // The option columns are read by the format, not chosen.
    await expect(field(page, 'Option1 Name')).toHaveCount(0)
    await expect(row(page, 'Option1 Name')).toContainText('Read by the file’s format')
    await expect(row(page, 'Option1 Value')).toContainText('The variant’s option value')
    // The shop's codes are not barcodes; Variant Barcode is, after the shop's prefix.
    await expect(row(page, 'Variant SKU')).toContainText('A shop’s own code, not a barcode')
    await expect(field(page, 'Variant Barcode')).toHaveValue('barcode')
    await expect(row(page, 'Variant Barcode')).toContainText('A usual word after the shop’s prefix')
    const options = page.getByLabel('Keep each variant’s options (colour, size) under “options”')
    await expect(options).toBeChecked()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-exports-shopify-mapping')

    await page.getByRole('button', { name: 'Check the rows' }).click()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading).toContainText(
      'Read as a Shopify product export: 3 products, 5 variants, 1 image row (not SKUs).',
    )
    await expect(fact(reading, /^Read by the file’s format:/)).toContainText('Option1 Name, Option1 Value')
    await expect(fact(reading, /^Dropped columns:/)).toContainText('Variant Grams')
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product name:/ })).toHaveText(
      'Product name: 5 SKUs named by their product’s name and their options (“Aviator Classic Sunglasses” → “Aviator Classic Sunglasses – Black”), lines 2, 3, 4, 7, 8',
    )
    await expect(page.locator('.import-counts')).toContainText('Rows6')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-exports-shopify-dry-run')

    const alsoInvalid = page.getByRole('checkbox', { name: /Also import/ })
    // The report is on screen (its Import button with it) before the box is looked for.
    await expect(page.getByRole('button', { name: /^Import \d/ })).toBeVisible()
    if ((await alsoInvalid.count()) > 0) await alsoInvalid.check()
    await page.getByRole('button', { name: /^Import 6/ }).click()
    await expect(page.getByRole('heading', { name: '6 drafts imported' })).toBeVisible()
    const gold = (await storedDrafts(page)).find((draft) => draft.payload.barcode === '840012345016')!
    // A variant is named by its product and its options.
    expect(gold.payload).toMatchObject({
      productName: 'Aviator Classic Sunglasses – Gold',
      options: { Color: 'Gold' },
    })

    // Shopify's inventory export starts as this file did, and holds stock counts, not products.
    await page.getByRole('button', { name: 'Import another file' }).click()
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'inventory_export_1.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(SHOPIFY_INVENTORY_CSV),
    })
    await expect(page.getByRole('alert')).toContainText(
      '“inventory_export_1.csv” cannot be imported. It is Shopify’s inventory export: stock counts by location, with no barcodes, prices or pictures. In Shopify, export the products (Products › Export) and import that file.',
    )
    expect((await storedDrafts(page)).length).toBe(6)
  })

  test('a WooCommerce export in Portuguese: read as the English one, its headers shown as written; what is no physical product skipped', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    await chooseFile(page, 'real/woocommerce-sample-products.pt_BR.csv')
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await expect(
      page.getByText(/^Read as a WooCommerce product export: .* Its headers are in Portuguese/),
    ).toBeVisible()
    await expect(field(page, 'Nome')).toHaveValue('productName')
    await expect(row(page, 'Nome')).toContainText('“Nome” is “Name” in English')
    await expect(field(page, 'Imagens')).toHaveValue('productImage')
    await expect(row(page, 'Peso (lbs)')).toContainText(
      'The shipping package’s size or weight, not the product’s',
    )
    await expect(row(page, 'Ascendente')).toContainText('Read by the file’s format')
    await screenshot(page, 'import-exports-woocommerce-pt-mapping')

    await page.getByRole('button', { name: 'Check the rows' }).click()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading).toContainText(
      'Read as a WooCommerce product export (Portuguese headers): 19 products, 2 variants.',
    )
    await expect(reading).toContainText(
      '4 products skipped: 2 downloadable or virtual (not a physical product), 1 grouped (a set of other products), 1 external (sold on another site).',
    )
    await expect(fact(reading, /^Read by the file’s format:/)).toContainText('Tipo, Peso (lbs)')
    await expect(page.locator('.import-counts')).toContainText('Rows20')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-exports-woocommerce-pt-dry-run')
  })

  test('a Wix export: variant rows under their product, a shade named by its name, pictures from the shop’s Wix media', async ({
    page,
    pageProblems,
  }) => {
    // The pictures are on Wix's media host, which the tests do not reach: the list shows tiles.
    await page.route('https://static.wixstatic.com/**', (route) => route.fulfill({ status: 404, body: '' }))
    await openImport(page, pageProblems)
    await chooseFile(page, 'wix-products.csv')
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await expect(
      page.getByText(/^Read as a Wix product export: a product’s variant rows are its variants/),
    ).toBeVisible()
    await expect(row(page, 'fieldType')).toContainText('Read by the file’s format')
    await expect(row(page, 'productOptionDescription1')).toContainText(
      'A product’s choices, a variant’s own choice',
    )
    await expect(field(page, 'collection')).toHaveValue('category')
    await expect(row(page, 'collection')).toContainText(
      'Wix’s collections, in no order: the first that is not one to sell by (such as “Sale”) is the category',
    )
    await expect(field(page, 'visible')).toHaveValue('isActive')
    await expect(field(page, 'productImageUrl')).toHaveValue('productImage')
    await expect(row(page, 'sku')).toContainText('A shop’s own code, not a barcode')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-exports-wix-mapping')

    await page.getByRole('button', { name: 'Check the rows' }).click()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading).toContainText('Read as a Wix product export: 3 products, 2 variants.')
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product name:/ })).toHaveText(
      'Product name: 2 SKUs named by their product’s name and their options (“Rouge Velours” → “Rouge Velours – Cerise”), lines 3, 4',
    )
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product image:/ })).toContainText(
      '“https://static.wixstatic.com/media/a6901a_3f9e2c7d1b8a4e6f9c0d2b4a6e8f1c3d~mv2.jpg”',
    )
    await screenshot(page, 'import-exports-wix-dry-run')
    await page.getByRole('button', { name: /^Import 4/ }).click()
    await expect(page.getByRole('heading', { name: '4 drafts imported' })).toBeVisible()
    const drafts = (await storedDrafts(page)).map((draft) => draft.payload)
    expect(drafts.map((payload) => payload.productName).sort()).toEqual([
      'Aviator Solaire',
      'Coffret découverte',
      'Rouge Velours – Cerise',
      'Rouge Velours – Prune',
    ])
    expect(drafts.find((payload) => payload.productName === 'Rouge Velours – Prune')).toMatchObject({
      category: 'Lèvres',
      isActive: false,
      options: { Teinte: 'Prune' },
      productImage: 'https://static.wixstatic.com/media/a6901a_3f9e2c7d1b8a4e6f9c0d2b4a6e8f1c3d~mv2.jpg',
    })

    // The shop's file again, a barcode column added to it (a tryout's way to give its drafts their
    // barcodes, which gave every product twice): said before anything is added.
    const wix = parseCsvText(await readFile(join(exports, 'wix-products.csv'), 'utf8'))
    const withBarcodes = [
      [...wix.headers, 'barcode'],
      ...wix.rows.map((cells, i) => [
        ...cells,
        ['', '4006381333931', '7612345000299', '5000000000001', '5000000000002'][i]!,
      ]),
    ]
    await page.getByRole('button', { name: 'Import another file' }).click()
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'wix-products-with-barcodes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        withBarcodes
          .map((cells) => cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','))
          .join('\n'),
      ),
    })
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.locator('.import-duplicates__like')).toContainText(
      '4 rows to be added are named as a draft you have without a barcode (“Rouge Velours – Cerise”)',
    )
  })

  test('an Akeneo export: the variants of a product model are one product’s, those sharing a name named by the axis that tells them apart', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    // As Akeneo's export job writes variants: each with its model's values (the name, the colour)
    // beside its own (size, EAN). The header and the hat's values are Akeneo's own export test's.
    const header =
      'sku;categories;enabled;family;parent;groups;color;ean;material;name-en_US;price-EUR;size;variation_name-en_US'
    const hat = (size: string, ean: string) =>
      `braided-hat-${size};accessories;1;accessories;model-braided-hat;;battleship_grey;${ean};wool;"Braided hat ";19.90;${size};"Braided hat ${size}"`
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'akeneo-products.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          header,
          hat('m', '4006381333931'),
          hat('xxxl', '4006381333948'),
          'sol-4100;eyewear;1;sunglasses;;;green;4006381333955;metal;"Round Sunglasses";89;;',
        ].join('\n'),
      ),
    })
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await expect(
      page.getByText(/^Read as an Akeneo product export: the products that name one product model/),
    ).toBeVisible()
    await expect(row(page, 'parent')).toContainText('Read by the file’s format')
    await expect(field(page, 'name-en_US')).toHaveValue('productName')
    await expect(field(page, 'ean')).toHaveValue('barcode')
    expect(await axe(page)).toEqual([])

    await page.getByRole('button', { name: 'Check the rows' }).click()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading).toContainText('Read as an Akeneo product export: 2 products, 2 variants.')
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product name: 2 SKUs named/ })).toHaveText(
      'Product name: 2 SKUs named by their product’s name and their options (“Braided hat” → “Braided hat – m”), lines 2, 3',
    )
    // Akeneo writes the hat's name with a space after it: said, and gone.
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product name: 2 texts/ })).toHaveText(
      'Product name: 2 texts with spaces before or after them read without them (“Braided hat ” → “Braided hat”), lines 2, 3',
    )
    await screenshot(page, 'import-exports-akeneo-dry-run')
    await page.getByRole('button', { name: /^Import 3/ }).click()
    await expect(page.getByRole('heading', { name: '3 drafts imported' })).toBeVisible()
    const names = (await storedDrafts(page)).map((draft) => draft.payload.productName)
    expect(names.sort()).toEqual(['Braided hat – m', 'Braided hat – xxxl', 'Round Sunglasses'])
  })

  // A tryout's real Odoo export (Odoo 9's product.template) had its rows of a product's lists read
  // as 17 "not a SKU" errors, its services as SKUs, and its pictures' data as "several images".
  test('an Odoo export: a product a row, the rows of its lists and its services no SKU, its pictures’ data no picture', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    const picture = 'iVBORw0KGgoAAAANSUhEUgAAATYAAAD6CAMAAAAcP5vg\nAAAABGdBTUEAALGPC//xhBQAAAAFzUkdC'
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'product.template.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'id,active,barcode,categ_id/id,taxes_id/id,packaging_ids/name,image,name,type',
          `product.product_product_7_product_template,True,4006381333931,product.product_category_5,l10n.tax_1,Box,"${picture}",Apple In-Ear Headphones,product`,
          ',,,,,Pallet,,,',
          'product.product_product_9_product_template,True,4006381333948,product.product_category_5,,,,Apple Wireless Keyboard,consu',
          'product.service_delivery,True,,,,,,Delivery Charge,service',
        ].join('\n'),
      ),
    })
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await expect(page.getByText(/^Read as an Odoo product export: a product a row/)).toBeVisible()
    await expect(row(page, 'categ_id/id')).toContainText('Read by the file’s format')
    expect(await axe(page)).toEqual([])

    await page.getByRole('button', { name: 'Check the rows' }).click()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading).toContainText(
      'Read as an Odoo product export: 2 products, 0 variants, 1 row of a product’s lists (not SKUs).',
    )
    await expect(reading).toContainText('1 product skipped: 1 service (not a physical product)')
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product image:/ })).toHaveText(
      'Product image: 1 cell holding a picture’s own data, not its web address, read as no picture (“iVBORw0KGgoAAAAN…” → none), line 2',
    )
    await screenshot(page, 'import-exports-odoo-dry-run')
    await page.getByRole('button', { name: /^Import 2/ }).click()
    await expect(page.getByRole('heading', { name: '2 drafts imported' })).toBeVisible()
    const drafts = (await storedDrafts(page)).map((draft) => draft.payload)
    expect(drafts.map((payload) => payload.productName).sort()).toEqual([
      'Apple In-Ear Headphones',
      'Apple Wireless Keyboard',
    ])
    expect(
      drafts.every((payload) => payload.category === undefined && payload.productImage === undefined),
    ).toBe(true)
  })

  test('a European sheet: said to write decimals with a comma, its lengths and intensities are read as numbers', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    await chooseFile(page, 'own-sheet-decimal-comma.csv')
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await page.getByLabel('This file writes decimals with a comma (1,5 means one and a half)').check()
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading.getByRole('listitem').filter({ hasText: /^Intensity:/ })).toHaveText(
      'Intensity: 4 decimal commas read (“1,5” → 1.5), lines 2, 3, 4, 5',
    )
    await expect(page.getByRole('button', { name: /^(Error|Warning) Intensity\s?:/ })).toHaveCount(0)
    // The spreadsheet's shortened barcode is refused, comma or not.
    await page.getByRole('button', { name: /was shortened to a number by a spreadsheet/ }).click()
    await expect(page.locator('.import-problems tbody tr').filter({ hasText: '4,00638E+12' })).toContainText(
      'was shortened to a number by a spreadsheet',
    )
    const alsoInvalid = page.getByRole('checkbox', { name: /Also import/ })
    // The report is on screen (its Import button with it) before the box is looked for.
    await expect(page.getByRole('button', { name: /^Import \d/ })).toBeVisible()
    if ((await alsoInvalid.count()) > 0) await alsoInvalid.check()
    await page.getByRole('button', { name: /^Import 4/ }).click()
    await expect(page.getByRole('heading', { name: '4 drafts imported' })).toBeVisible()
    const stored = await storedDrafts(page)
    const payload = (name: string) => stored.find((draft) => draft.productName === name)!.payload
    expect(payload('Panto Cristal')).toMatchObject({
      barcode: '7612345001425',
      brand: 'Lunetterie Été',
      meta: { frameWidth: '139.5', lensWidth: '47.5' },
      arEffect: { envSettings: { intensity: 0.8 } },
    })
    expect(payload('Papillon Vert')).toMatchObject({
      meta: { frameWidth: '141.5', bridge: '16.5' },
      arEffect: { envSettings: { intensity: 0.75 } },
    })
  })

  // A tryout's real Magento export gave 443 of its 454 pictures as paths in the shop's media folder:
  // every row was refused, and nothing in the app could say where the pictures are.
  test('a Magento export’s pictures given as paths: refused until the person gives the pictures’ address, then read there', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'catalog_product.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'sku,store_view_code,product_type,name,ean,categories,base_image',
          'MB01,,simple,Joust Duffle Bag,4006381333931,Default Category/Eyewear/Sunglasses,/m/b/mb01-blue-0.jpg',
          'MB02,,simple,Strive Shoulder Pack,7612345000749,Default Category/Eyewear/Sunglasses,/m/b/mb02-gray-0.jpg',
        ].join('\n'),
      ),
    })
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
    await expect(page.getByRole('button', { name: /^Error base_image\s?:/ })).toContainText(
      'Product image is a path in the shop, not a web address: say at which address the shop’s pictures are',
    )

    await page.getByRole('button', { name: 'Back to the mapping' }).click()
    const address = page.getByLabel('Pictures’ address')
    await address.fill('luma.example/media')
    await address.press('Tab')
    await expect(page.getByRole('alert')).toHaveText(
      'The pictures’ address must be a web address starting with http:// or https://, not "luma.example/media".',
    )
    await expect(address).toHaveAttribute('aria-invalid', 'true')
    expect(await axe(page)).toEqual([])
    await address.fill('https://luma.example/media/catalog/product')
    await address.press('Tab')
    await expect(page.getByRole('alert')).toHaveCount(0)
    await screenshot(page, 'import-pictures-address')

    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
    const reading = page.getByRole('region', { name: 'How the file was read' })
    await expect(reading.getByRole('listitem').filter({ hasText: /^Product image:/ })).toHaveText(
      'Product image: 2 pictures’ paths in the shop read with the pictures’ address (“/m/b/mb01-blue-0.jpg” → “https://luma.example/media/catalog/product/m/b/mb01-blue-0.jpg”), lines 2, 3',
    )
    await expect(page.getByRole('button', { name: /^Error / })).toHaveCount(0)
    await page.getByRole('button', { name: /^Import 2/ }).click()
    await expect(page.getByRole('heading', { name: '2 drafts imported' })).toBeVisible()
    const images = (await storedDrafts(page)).map((draft) => draft.payload.productImage).sort()
    expect(images).toEqual([
      'https://luma.example/media/catalog/product/m/b/mb01-blue-0.jpg',
      'https://luma.example/media/catalog/product/m/b/mb02-gray-0.jpg',
    ])
  })
})
