import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'

/**
 * A JSON product list that is not SKUs (a makeup API's dump: products with a list of shades) gets
 * the mapping screen a sheet gets, its columns its JSON paths, and its shades spread into one SKU
 * each: the dry run counts them.
 */

const exports = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets/exports')

test('a JSON product list is mapped by its paths, one SKU per shade', async ({ page }) => {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  await page.getByRole('link', { name: 'Import' }).click()
  await page.getByLabel('Choose a file').setInputFiles(join(exports, 'makeup-api-products.json'))

  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
  await expect(page.getByText(/^Read as a JSON product list: each column is a path/)).toBeVisible()
  const field = (header: string) => page.getByLabel(`Field for the column ${header}`, { exact: true })
  await expect(field('name')).toHaveValue('productName')
  await expect(field('brand')).toHaveValue('brand')
  // The shade's name is guessed as the variant's option, which spreads the list.
  await expect(field('product_colors[].colour_name')).toHaveValue('option:colour_name')
  // Said as the guess it is, not as a mapping the person saved.
  await expect(
    page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'product_colors[].colour_name' }) }),
  ).toContainText(
    '“colour_name”, a usual name of a variant’s option: each element of “product_colors” is a SKU of its own',
  )
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-json-mapping')

  await page.getByRole('button', { name: 'Check the rows' }).click()
  const reading = page.getByRole('region', { name: 'How the file was read' })
  await expect(reading).toContainText('Read as a JSON product list: 3 products, 5 variants.')
  // Three shades, two shades, and a product without any: six SKUs.
  await expect(page.locator('.import-counts')).toContainText('Rows6')
  await expect(page.getByRole('cell', { name: 'Velvet Lip Pencil – Poppy' })).toBeVisible()
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-json-dry-run')
})
