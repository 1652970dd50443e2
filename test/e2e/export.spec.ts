import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { IMAGE_HOST, seedDrafts } from '../../bench/seed-drafts.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { readXlsx, writeXlsx } from '#shared/sheet/xlsx.ts'
import { saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

async function createDraft(page: Page, name: string, brand: string) {
  await page.goto('/')
  await page.getByRole('button', { name: 'New SKU' }).click()
  await page.getByLabel('Product name').fill(name)
  await page.getByLabel('Brand').fill(brand)
  await page.getByLabel('Position Y').fill('-2.5')
  await saved(page)
}

/** Export… with a file format and, for a spreadsheet, its header style and added columns. */
async function exportAs(
  page: Page,
  label: string,
  { headers, add = [] }: { headers?: string | RegExp; add?: string[] } = {},
): Promise<{ name: string; bytes: Buffer }> {
  await page.getByRole('button', { name: 'Export…' }).click()
  const dialog = page.getByRole('dialog', { name: /^Export/ })
  await dialog.getByRole('radio', { name: label }).check()
  if (headers) await dialog.getByRole('radio', { name: headers }).check()
  for (const column of add) await dialog.getByRole('checkbox', { name: column }).check()
  const downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  const file = await downloading
  await expect(dialog).toBeHidden()
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

  const csv = parseCsvText(
    (await exportAs(page, 'Spreadsheet (CSV)', { headers: /^Contract paths/ })).bytes.toString('utf8'),
  )
  const brand = csv.headers.indexOf('brand')
  expect(brand).toBeGreaterThanOrEqual(0)
  expect(csv.rows.map((row) => row[brand]).sort()).toEqual([
    `'=HYPERLINK("http://evil.example")`,
    'Northwind',
  ])
  // A negative number is a number, not a formula: it is written as it is.
  const positionY = csv.headers.indexOf('arEffect.transform.position.y')
  expect(csv.rows.map((row) => row[positionY])).toEqual(['-2.5', '-2.5'])

  const xlsx = await readXlsx(
    (await exportAs(page, 'Spreadsheet (XLSX)', { headers: /^Contract paths/ })).bytes,
  )
  expect(xlsx.headers).toEqual(csv.headers)
  expect(xlsx.rows.map((row) => row[brand]).sort()).toEqual([
    `'=HYPERLINK("http://evil.example")`,
    'Northwind',
  ])
})

test('an export headed by titles comes back: importing it with “Update existing” finds 200 drafts unchanged and changes none', async ({
  page,
  pageProblems,
}, testInfo) => {
  pageProblems.allow(/Failed to load resource/)
  await page.route(`https://${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 404, body: '' }))
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  // Complete drafts, drafts missing fields, drafts with an error, and a few already sent.
  await seedDrafts(page, 200, { sent: [4, 50, 120] })
  await page.reload()
  await expect(page.getByText('200 drafts on this computer')).toBeVisible()
  const before = await storedDrafts(page)

  await page.getByRole('checkbox', { name: 'Select the drafts on screen' }).check()
  await page.getByRole('button', { name: /^Select all 200 matching/ }).click()
  await expect(page.getByText('200 selected')).toBeVisible()
  await page.getByRole('button', { name: 'Export…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export 200 drafts' })
  await expect(dialog.getByRole('radio', { name: /^The fields’ names/ })).toBeChecked()
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'export-dialog')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  const exported = await exportAs(page, 'Spreadsheet (XLSX)', {
    add: ['Sync state on Sandbox', 'Each draft’s problems'],
  })
  const sheet = await readXlsx(exported.bytes)
  // The titles people know, then the app's own columns.
  expect(sheet.headers.slice(0, 6)).toEqual([
    'Organization ID',
    'Category',
    'Sub-category',
    'Active',
    'Status',
    'Product name',
  ])
  expect(sheet.headers).toContain('Position X')
  expect(sheet.headers.slice(-3)).toEqual([
    'Catalog Desk draft',
    'Catalog Desk sync: Sandbox',
    'Catalog Desk problems',
  ])
  const state = sheet.headers.indexOf('Catalog Desk sync: Sandbox')
  expect(sheet.rows.filter((row) => row[state] === 'Synced')).toHaveLength(3)
  const problems = sheet.headers.indexOf('Catalog Desk problems')
  expect(sheet.rows.some((row) => row[problems]!.startsWith('Error: '))).toBe(true)

  const file = join(tmpdir(), `catalog-desk-round-trip-${testInfo.workerIndex}.xlsx`)
  await writeFile(file, exported.bytes)
  await page.getByRole('link', { name: 'Import' }).click()
  await page.getByLabel('Choose a file').setInputFiles(file)
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeVisible()
  await expect(page.getByText(/Off because this file is a Catalog Desk export/)).toBeVisible()
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeVisible()
  // The drafts with an error come back with it, as they went out.
  await expect(page.getByRole('definition').filter({ hasText: /^20$/ })).toBeVisible()
  await page.getByRole('checkbox', { name: /^Also import the .* rows with errors/ }).check()
  await expect(page.getByText('200 unchanged')).toBeVisible()
  await page.getByRole('radio', { name: /^Update existing/ }).check()
  await screenshot(page, 'round-trip-dry-run')
  await page.getByRole('button', { name: /^Import 200 rows/ }).click()
  await expect(page.getByRole('heading', { name: '0 drafts imported, 200 unchanged' })).toBeVisible()

  // Not one draft differs: payloads, edit times, sync states.
  const byId = (drafts: typeof before) => new Map(drafts.map((draft) => [draft.id, draft]))
  expect(byId(await storedDrafts(page))).toEqual(byId(before))

  // Edited in a spreadsheet, a row with a new barcode and name still updates the draft it names.
  const draftAt = sheet.headers.indexOf('Catalog Desk draft')
  const target = sheet.rows.findIndex((row) => row[state] !== 'Synced' && !row[problems])
  const edited = sheet.rows.map((row, i) =>
    i === target
      ? row.map((cell, column) =>
          sheet.headers[column] === 'Barcode'
            ? '4006381333931'
            : sheet.headers[column] === 'Product name'
              ? 'Renamed in a sheet'
              : cell,
        )
      : row,
  )
  await writeFile(file, await writeXlsx([sheet.headers, ...edited]))
  await page.getByRole('button', { name: 'Import another file' }).click()
  await page.getByLabel('Choose a file').setInputFiles(file)
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await page.getByRole('checkbox', { name: /^Also import the .* rows with errors/ }).check()
  await expect(page.getByText('199 unchanged')).toBeVisible()
  await page.getByRole('radio', { name: /^Update existing/ }).check()
  await page.getByRole('button', { name: /^Import 200 rows/ }).click()
  await expect(
    page.getByRole('heading', { name: '0 drafts imported, 1 updated, 199 unchanged' }),
  ).toBeVisible()
  const after = byId(await storedDrafts(page))
  expect(after.size).toBe(200)
  const renamed = after.get(sheet.rows[target]![draftAt]!)!
  expect([renamed.barcode, renamed.productName]).toEqual(['4006381333931', 'Renamed in a sheet'])
})

test('barcodes filled into an export come back: its rows are the drafts they name, and “Update existing” is chosen for them', async ({
  page,
}, testInfo) => {
  // A tryout's catalog manager filled barcodes into an export of drafts without any, imported it
  // with the preselected "Skip them", and lost them all: "the barcode is already taken".
  await createDraft(page, 'Aviator Gold', 'Northwind')
  await createDraft(page, 'Round Blue', 'Northwind')
  await page.getByRole('link', { name: 'All SKUs' }).click()
  await page.getByRole('checkbox', { name: 'Select the drafts on screen' }).check()
  const sheet = parseCsvText((await exportAs(page, 'Spreadsheet (CSV)')).bytes.toString('utf8'))
  const barcodeAt = sheet.headers.indexOf('Barcode')
  const nameAt = sheet.headers.indexOf('Product name')
  const barcodes: Record<string, string> = { 'Aviator Gold': '4006381333931', 'Round Blue': '7612345000299' }
  const filled = sheet.rows.map((row) =>
    row.map((cell, i) => (i === barcodeAt ? barcodes[row[nameAt]!]! : cell)),
  )
  const file = join(tmpdir(), `catalog-desk-barcodes-filled-${testInfo.workerIndex}.csv`)
  const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`
  await writeFile(file, [sheet.headers, ...filled].map((row) => row.map(quote).join(',')).join('\n'))

  const importFile = async () => {
    await page.getByRole('link', { name: 'Import' }).click()
    await page.getByLabel('Choose a file').setInputFiles(file)
    await page.getByRole('button', { name: 'Check the rows' }).click()
  }
  await importFile()
  const choice = page.getByRole('group', { name: 'Drafts you already have' })
  await expect(choice).toContainText(
    '2 rows are drafts you have: this file is a Catalog Desk export, and its draft column names them, whatever their barcode.',
  )
  await expect(choice).toContainText('No other draft holds a barcode of the file, and none appears twice.')
  await expect(choice).not.toContainText('without a barcode')
  await expect(choice.getByRole('radio', { name: /^Update existing/ })).toBeChecked()
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'export-barcodes-filled-dry-run')

  // "Skip them", chosen, stands when the rows are checked again, and leaves the drafts as they
  // are, saying why of each row.
  await choice.getByRole('radio', { name: /^Skip them/ }).check()
  await page.getByRole('button', { name: 'Back to the mapping' }).click()
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(choice.getByRole('radio', { name: /^Skip them/ })).toBeChecked()
  await page.getByRole('button', { name: /^Import 2/ }).click()
  await expect(page.getByRole('heading', { name: '0 drafts imported' })).toBeVisible()
  await expect(page.getByText(/^2 rows skipped: they name drafts you have/)).toBeVisible()
  await expect(page.getByText(/the barcode is already taken/)).toHaveCount(0)
  expect((await storedDrafts(page)).map((draft) => draft.barcode)).toEqual(['', ''])

  await page.getByRole('button', { name: 'Import another file' }).click()
  await page.getByLabel('Choose a file').setInputFiles(file)
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('radio', { name: /^Update existing/ })).toBeChecked()
  await page.getByRole('button', { name: /^Import 2/ }).click()
  await expect(page.getByRole('heading', { name: '0 drafts imported, 2 updated' })).toBeVisible()
  const stored = await storedDrafts(page)
  expect(Object.fromEntries(stored.map((draft) => [draft.productName, draft.barcode]))).toEqual(barcodes)
})
