import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test, type PageProblems } from './harness/fixtures.ts'

/**
 * PrestaShop's own sample import files (test/fixtures/sheets/exports/real/SOURCES.md), dropped on
 * the import together: the combinations are read as the variants of the products file's products.
 * The combinations file alone is refused, naming the file it needs.
 */

const real = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets/exports/real')
const PRODUCTS = 'prestashop-9.1-products-import.csv'
const COMBINATIONS = 'prestashop-9.1-combinations-import.csv'

async function openImport(page: Page, pageProblems: PageProblems) {
  pageProblems.allow(/Failed to load resource/)
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  await page.getByRole('link', { name: 'Import' }).click()
  await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible()
}

/** Drops the files on the drop zone, as a person drags them from their folder. */
async function drop(page: Page, names: string[]) {
  const files = await Promise.all(
    names.map(async (name) => ({ name, text: await readFile(join(real, name), 'utf8') })),
  )
  // Written as the page's own script (the tests' types have no DOM), as import.spec.ts drops a file.
  const dataTransfer = await page.evaluateHandle(`(() => {
    const data = new DataTransfer()
    for (const file of ${JSON.stringify(files)})
      data.items.add(new File([file.text], file.name, { type: 'text/csv' }))
    return data
  })()`)
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer })
}

const field = (page: Page, header: string) =>
  page.getByLabel(`Field for the column ${header}`, { exact: true })
const row = (page: Page, header: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })

test('PrestaShop: the products and combinations files dropped together; the combinations alone refused', async ({
  page,
  pageProblems,
}) => {
  await openImport(page, pageProblems)
  await drop(page, [COMBINATIONS, PRODUCTS])
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
  // Named products first, whichever order they were dropped in.
  await expect(page.getByText(`${PRODUCTS} with ${COMBINATIONS}`)).toBeVisible()
  await expect(
    page.getByText(/^Read as PrestaShop’s product import: with its combinations file/),
  ).toBeVisible()
  await expect(field(page, 'Categories (x,y,z...)')).toHaveValue('category')
  await expect(field(page, 'Image URLs (x,y,z...)')).toHaveValue('productImage')
  await expect(field(page, 'EAN13')).toHaveValue('barcode')
  await expect(row(page, 'Attribute (Name:Type:Position)*')).toContainText('Read by the file’s format')
  await expect(row(page, 'Width')).toContainText('The shipping package’s size or weight')
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-prestashop-mapping')

  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
  const reading = page.getByRole('region', { name: 'How the file was read' })
  await expect(reading).toContainText('Read as a PrestaShop product import: 7 products, 27 variants.')
  // 3 products without combinations, and the 27 combinations of the other 4.
  await expect(page.locator('.import-counts')).toContainText('Rows30')
  const nano = page.locator('.import-preview tbody tr').filter({ hasText: 'iPod Nano – Blue / 16GB' })
  await expect(nano).toContainText('0000080446392')
  await expect(nano).toContainText('iPods')
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-prestashop-dry-run')

  // The combinations file alone names products it does not hold.
  await page.getByRole('button', { name: 'Choose another file' }).first().click()
  await page.getByLabel('Choose a file').setInputFiles(join(real, COMBINATIONS))
  await expect(page.getByRole('alert')).toContainText(
    `“${COMBINATIONS}” cannot be imported. It is PrestaShop’s combinations file: it lists variants of the products in PrestaShop’s products file (products_import.csv)`,
  )
  await expect(page.getByRole('alert')).toContainText('give both files together')
})
