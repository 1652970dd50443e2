import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'

/**
 * People's hands make typos: a sheet headed "Prodcut Name", "Barcod", "Brnad", "Categroy" and
 * "Intensty" matches none of them. The mapping screen asks "Did you mean…?" and fills nothing
 * until the person says so; fixed with the suggestions' buttons by keyboard, the dry run reads the
 * product names and finds the barcode the file holds twice.
 */

const sheets = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets')

const field = (page: Page, header: string) =>
  page.getByLabel(`Field for the column ${header}`, { exact: true })
const row = (page: Page, header: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })
const fact = (reading: Locator, label: RegExp) => reading.getByRole('paragraph').filter({ hasText: label })

/** A row's suggestion button: "Use Product name", with the column's header for a screen reader. */
const useButton = (page: Page, header: string, name: string) =>
  row(page, header).getByRole('button', { name: new RegExp(`^Use ${name}\\b.*the column ${header}$`) })

const TYPOS: [header: string, field: string, path: string][] = [
  ['Prodcut Name', 'Product name', 'productName'],
  ['Barcod', 'Barcode', 'barcode'],
  ['Brnad', 'Brand', 'brand'],
  ['Categroy', 'Category', 'category'],
  ['Intensty', 'Intensity', 'arEffect.envSettings.intensity'],
]

test('headers with typos: “Did you mean…?”, taken by keyboard, and the dry run reads the names and the barcode twice', async ({
  page,
}) => {
  await page.goto('/#/skus')
  await page.getByRole('link', { name: 'Import' }).click()
  await page.getByLabel('Choose a file').setInputFiles(join(sheets, 'typos.csv'))
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()

  // Each typo is offered its field, and nothing is filled by a guess.
  for (const [header, name] of TYPOS) {
    await expect(field(page, header)).toHaveValue('')
    await expect(row(page, header)).toContainText(`Did you mean ${name}?`)
    await expect(field(page, header)).toHaveAccessibleDescription(`Did you mean ${name}?`)
    await expect(useButton(page, header, name)).toBeVisible()
  }
  await expect(row(page, 'Price')).toContainText('Not recognised')
  await expect(row(page, 'Price').getByRole('button')).toHaveCount(0)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-typos-mapping')

  // Checked as it is, the rows have no name, brand or barcode; the dropped columns say what they look like.
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
  const reading = page.getByRole('region', { name: 'How the file was read' })
  await expect(fact(reading, /^Dropped columns:/)).toHaveText(
    'Dropped columns: Prodcut Name (did you mean Product name?), Barcod (did you mean Barcode?), Brnad (did you mean Brand?), Categroy (did you mean Category?), Intensty (did you mean Intensity?), Price',
  )
  const preview = page.locator('.import-preview tbody tr')
  await expect(preview).toHaveCount(3)
  await expect(preview.first().locator('td').nth(1)).toHaveText('')
  await expect(page.locator('.import-duplicates__counts')).toHaveText(
    'No other draft holds a barcode of the file, and none appears twice.',
  )
  await page.getByRole('button', { name: 'Back to the mapping' }).click()

  // Fixed by keyboard: from each column's field, Tab reaches its suggestion and Enter takes it.
  for (const [header, name, path] of TYPOS) {
    await field(page, header).focus()
    await page.keyboard.press('Tab')
    const use = useButton(page, header, name)
    await expect(use).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(field(page, header)).toHaveValue(path)
    // The button is gone with the choice: the focus is on the column's field, and the change is said.
    await expect(field(page, header)).toBeFocused()
    await expect(page.getByRole('status').filter({ hasText: `“${header}” fills ${name}.` })).toBeAttached()
    await expect(row(page, header)).toContainText('Chosen by you')
    await expect(row(page, header).getByRole('button')).toHaveCount(0)
  }
  expect(await axe(page)).toEqual([])

  // The dry run now reads the names, brands and barcodes, and finds the barcode the file holds twice.
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
  await expect(fact(reading, /^Dropped columns:/)).toHaveText('Dropped columns: Price')
  await expect(preview.locator('td:nth-child(2)')).toHaveText([
    'Aviator Gold 58',
    'Round Optical 49',
    'Aviator Silver 58',
  ])
  await expect(preview.locator('td:nth-child(3)')).toHaveText(['Solara', 'Northwind Optics', 'Solara'])
  await expect(preview.locator('td:nth-child(4)')).toHaveText([
    '7612345001029',
    '7612345001043',
    '7612345001029',
  ])
  await expect(page.locator('.import-duplicates__counts')).toHaveText(
    /0 barcodes already exist as drafts; 1 appears more than once in the file\./,
  )
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-typos-dry-run')
})

test('a file saved without its header row: the mapping screen says its first row looks like data', async ({
  page,
}) => {
  // A real list of lipstick shades (brand, shade number, shade name, R, G, B) had no header: its
  // first shade was taken for one, and its every row for a SKU without fields.
  await page.goto('/#/import')
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'lipsticks.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('medora ,568 matte,epic night ,150,40,78\nloreal,800,Matte-caron,206,134,135\n'),
  })
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
  await expect(page.getByRole('note')).toHaveText(
    'No cell of the first row names a field, and 3 look like values ("150", "40", "78"): the first row is read as the header. If the file has none, add a row naming its columns (such as Product name, Barcode, Brand) and choose it again.',
  )
  expect(await axe(page)).toEqual([])
})
