import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { expect, test } from './harness/fixtures.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

async function createDraft(page: Page, name: string, brand: string) {
  await page.goto('/')
  await page.getByRole('button', { name: 'New SKU' }).click()
  await page.getByLabel('Product name').fill(name)
  await page.getByLabel('Brand').fill(brand)
  await page.getByLabel('Position Y').fill('-2.5')
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible()
}

async function exportAs(page: Page, label: string): Promise<{ name: string; bytes: Buffer }> {
  await page.getByText('Export…').click()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: label }).click()
  const file = await downloading
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) }
}

test('selected drafts export as the exact bulk request, and as CSV and XLSX escaped against formulas', async ({
  page,
}) => {
  await createDraft(page, 'Aviator Gold', 'Northwind')
  // A cell a spreadsheet would run as a formula.
  await createDraft(page, 'Round Blue', '=HYPERLINK("http://evil.example")')
  await page.getByRole('link', { name: 'All SKUs' }).click()
  await page.getByRole('checkbox', { name: 'Select the drafts on screen' }).check()
  await expect(page.getByText('2 selected')).toBeVisible()

  const stored = (await storedDrafts(page)).map((draft) => draft.payload)
  const json = await exportAs(page, 'Bulk request (JSON)')
  expect(json.name).toMatch(/^catalog-desk-skus-\d{12}\.json$/)
  const request = JSON.parse(json.bytes.toString('utf8')) as { skus: unknown[] }
  expect(Object.keys(request)).toEqual(['skus'])
  expect(request.skus).toHaveLength(2)
  expect(request.skus).toEqual(expect.arrayContaining(stored))

  const csv = parseCsvText((await exportAs(page, 'Spreadsheet (CSV)')).bytes.toString('utf8'))
  const brand = csv.headers.indexOf('brand')
  expect(brand).toBeGreaterThanOrEqual(0)
  expect(csv.rows.map((row) => row[brand]).sort()).toEqual([
    `'=HYPERLINK("http://evil.example")`,
    'Northwind',
  ])
  // A negative number is a number, not a formula: it is written as it is.
  const positionY = csv.headers.indexOf('arEffect.transform.position.y')
  expect(csv.rows.map((row) => row[positionY])).toEqual(['-2.5', '-2.5'])

  const xlsx = await readXlsx((await exportAs(page, 'Spreadsheet (XLSX)')).bytes)
  expect(xlsx.headers).toEqual(csv.headers)
  expect(xlsx.rows.map((row) => row[brand]).sort()).toEqual([
    `'=HYPERLINK("http://evil.example")`,
    'Northwind',
  ])
})
