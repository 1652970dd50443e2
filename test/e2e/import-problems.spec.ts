import { readFile } from 'node:fs/promises'
import type { Locator, Page } from '@playwright/test'
import { gtinCheckDigit } from '#shared/values/gtin.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'

/**
 * Issue #17: a 300-row sheet with 2,000-odd problems. The dry run groups them by column and kind,
 * errors first, then the rows the send gates hold back (issue #35), then the warnings; each group
 * opens to its rows.
 */

const ROWS = 300
const BAD_INTENSITY = new Map([
  [40, 'high'],
  [150, 'n/a'],
  [275, 'strong'],
])
const BAD_ACTIVE = new Map([
  [90, 'maybe'],
  [220, 'sometimes'],
])
const NO_NAME = [120, 260]
const NO_BARCODE = [130, 280]
/** Rows with a brand: every other row lacks one (a warning each). */
const BRANDED = 5

/** A right EAN-13 from its first 12 digits: the check digits are not what this sheet is about. */
const ean13 = (twelve: string) => `${twelve}${gtinCheckDigit(twelve)}`

/** The sheet, written in the test: row n is the file's n-th data row, line n + 1 of a spreadsheet. */
function sheet(): Buffer {
  const lines = ['Product name,Brand,Barcode,Category,Sub category,Active,Intensity']
  for (let row = 1; row <= ROWS; row++) {
    lines.push(
      [
        NO_NAME.includes(row) ? '' : `Frame ${row}`,
        row <= BRANDED ? 'Northwind Optics' : '',
        NO_BARCODE.includes(row) ? '' : ean13(String(500_000_010_000 + row)),
        'eyewear',
        'sunglasses',
        BAD_ACTIVE.get(row) ?? 'yes',
        BAD_INTENSITY.get(row) ?? '0.8',
      ].join(','),
    )
  }
  return Buffer.from(lines.join('\r\n') + '\r\n')
}

const problemsRegion = (page: Page) => page.getByRole('region', { name: /^Problems:/ })
/** The groups as listed, each by its disclosure button. */
const groupButtons = (page: Page) => problemsRegion(page).getByRole('listitem').getByRole('button')
const group = (page: Page, name: RegExp) =>
  problemsRegion(page).getByRole('listitem').filter({ hasText: name })
const rowsOf = (item: Locator) => item.getByRole('table').locator('tbody tr')

test('a 300-row sheet: problems grouped by column and kind, errors first, each opening to its rows; the result names the rows left out and those with errors', async ({
  page,
}) => {
  await page.goto('/#/skus')
  await page.getByRole('link', { name: 'Import' }).click()
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'frames.csv', mimeType: 'text/csv', buffer: sheet() })
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()

  // The counts, and the groups: the two kinds of error, then the rows that would never be sent.
  const region = problemsRegion(page)
  // 2 rows without a name and 2 without a barcode held back; 300 without a product image and 295
  // without a brand are optional.
  await expect(region.getByRole('heading', { level: 2 })).toHaveText(
    'Problems: 5 errors, 4 held back from sending, 595 warnings',
  )
  const buttons = groupButtons(page)
  expect(await buttons.count()).toBeLessThan(12)
  await expect(buttons.nth(0)).toHaveAccessibleName(
    /^Error Intensity\s?: Intensity must be a number, .*\s?, on 3 rows$/,
  )
  await expect(buttons.nth(0)).toHaveAttribute('aria-expanded', 'false')
  await expect(buttons.nth(1)).toHaveAccessibleName(
    /^Error Active\s?: Active must be yes or no.*\s?, on 2 rows$/,
  )
  await expect(buttons.nth(2)).toHaveAccessibleName(
    /^Held back from sending (Product name|Barcode)\s?: No (product name|barcode)\s?, on 2 rows$/,
  )
  await expect(buttons.nth(3)).toHaveAccessibleName(
    /^Held back from sending (Product name|Barcode)\s?: No (product name|barcode)\s?, on 2 rows$/,
  )
  await expect(buttons.nth(4)).toHaveAccessibleName(
    /^Warning no column\s?: Product image is not filled \(optional\)\s?, on 300 rows$/,
  )
  await expect(buttons.nth(5)).toHaveAccessibleName(
    /^Warning Brand\s?: Brand is not filled \(optional\)\s?, on 295 rows$/,
  )
  await expect(region).not.toContainText(/\bis missing\b/)
  // Closed, a group names its first rows and the values found there.
  await expect(group(page, /Intensity must be a number/)).toContainText(
    'Lines 41 “high”, 151 “n/a”, 276 “strong”',
  )
  await expect(group(page, /Brand is not filled/)).toContainText('Lines 7, 8, 9, 10, 11 and 290 more')

  // Errors only: the holds' and the warnings' groups go, the errors' stay.
  const errorsOnly = region.getByRole('checkbox', { name: 'Errors only' })
  await errorsOnly.check()
  await expect(buttons).toHaveCount(2)
  await expect(buttons.filter({ hasText: /Warning|Held back/ })).toHaveCount(0)
  await expect(region).toContainText('4 held back and 595 warnings in 4 groups hidden.')

  // By keyboard: Space clears the filter, Tab reaches the first group, Enter opens it to its rows.
  await errorsOnly.press('Space')
  await expect(errorsOnly).not.toBeChecked()
  await expect(buttons.filter({ hasText: 'Warning' }).first()).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(buttons.nth(0)).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(buttons.nth(0)).toHaveAttribute('aria-expanded', 'true')
  const intensity = group(page, /Intensity must be a number/)
  await expect(rowsOf(intensity)).toHaveText([
    /^41\s*high\s*Intensity must be a number, not the text "high"$/,
    /^151\s*n\/a\s*Intensity must be a number, not the text "n\/a"$/,
    /^276\s*strong\s*Intensity must be a number, not the text "strong"$/,
  ])
  await page.keyboard.press('Enter')
  await expect(buttons.nth(0)).toHaveAttribute('aria-expanded', 'false')
  await expect(intensity.getByRole('table')).toHaveCount(0)

  // A big group lists its first 50 rows, then all of them, the focus going on where the list goes on.
  const brand = group(page, /Brand is not filled/)
  await brand.getByRole('button', { name: /Brand is not filled/ }).press('Space')
  await expect(rowsOf(brand)).toHaveCount(50)
  await expect(rowsOf(brand).first()).toHaveText(/^7\s*\(empty\)\s*Brand is not filled \(optional\)$/)
  await brand.getByRole('button', { name: 'Show all 295 rows' }).click()
  await expect(rowsOf(brand)).toHaveCount(295)
  await expect(rowsOf(brand).nth(50).locator('td').first()).toBeFocused()
  await expect(rowsOf(brand).last().locator('td').first()).toHaveText('301')

  expect(await axe(page)).toEqual([])
  await brand.getByRole('button', { name: /Brand is not filled/ }).click()
  await expect(brand.getByRole('table')).toHaveCount(0)

  // Open, the rows of no name and of no barcode; the screen as a person reads it.
  await buttons.nth(0).click()
  const noName = group(page, /No product name/)
  await noName.getByRole('button').click()
  await expect(rowsOf(noName).locator('td:first-child')).toHaveText(['121', '261'])
  await expect(rowsOf(noName).first()).toContainText('Held back from sending: No product name')
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-problems')

  // The report reads like the screen: errors by group, then the rows held back, each in row order.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    region.getByRole('button', { name: 'Download the error report' }).click(),
  ])
  const lines = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')
  expect(lines[0]).toBe('line,column,value,message')
  expect(lines.slice(1, 6).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
    '41,Intensity,high',
    '151,Intensity,n/a',
    '276,Intensity,strong',
    '91,Active,maybe',
    '221,Active,sometimes',
  ])
  expect(lines.slice(6, 10).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(
    expect.arrayContaining(['121,Product name', '261,Product name', '131,Barcode', '281,Barcode']),
  )
  expect(lines.slice(6, 10).every((line) => line.includes('Held back from sending: No '))).toBe(true)
  expect(lines.slice(10).every((line) => line === '' || line.includes('Warning: '))).toBe(true)

  // The result names its rows: the five with errors were left out, each by its row.
  await page.getByRole('button', { name: 'Import 295 valid rows' }).click()
  await expect(page.getByRole('heading', { name: '295 drafts imported' })).toBeFocused()
  const leftOut = page.getByRole('region', { name: '5 rows not imported: they have errors' })
  await expect(leftOut.getByRole('listitem')).toHaveText([
    'Line 41',
    'Line 91',
    'Line 151',
    'Line 221',
    'Line 276',
  ])
  // The problems stay, each row now a link to the draft it became (or saying it was not imported).
  const afterIntensity = group(page, /Intensity must be a number/)
  await afterIntensity.getByRole('button', { name: /Intensity must be a number/ }).click()
  await expect(afterIntensity).toContainText('not imported')
  const afterNoName = group(page, /No product name/)
  await afterNoName.getByRole('button', { name: /No product name/ }).click()
  await expect(afterNoName.getByRole('link')).toHaveCount(2)
  expect(await axe(page)).toEqual([])

  // Undone, and imported again with the rows with errors: those are named, each a link to its draft.
  await page.getByRole('button', { name: 'Undo this import' }).click()
  await expect(page.getByText(/Import undone: 295 drafts removed/)).toBeVisible()
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'frames.csv', mimeType: 'text/csv', buffer: sheet() })
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await page.getByRole('checkbox', { name: /^Also import the 5 rows with errors/ }).check()
  await page.getByRole('button', { name: 'Import 300 rows' }).click()
  await expect(page.getByRole('heading', { name: '300 drafts imported' })).toBeFocused()
  const withErrors = page.getByRole('region', { name: /^5 rows imported with errors/ })
  await expect(withErrors.getByRole('link')).toHaveText(
    ['Line 41', 'Line 91', 'Line 151', 'Line 221', 'Line 276'].map((line) => `${line}: open its draft`),
  )
  await screenshot(page, 'import-result-rows')
  await withErrors.getByRole('link', { name: /^Line 151\b/ }).click()
  await expect(page.getByLabel('Intensity', { exact: true })).toHaveValue('n/a')
  await expect(page.getByLabel('Product name', { exact: true })).toHaveValue('Frame 150')
})

test("a row is named by the line a spreadsheet shows it on: the header line 1, a cell's line breaks and the help row counted as a spreadsheet counts them", async ({
  page,
}) => {
  // Line 1 the header; line 2 a row whose note holds line breaks (one line of a spreadsheet all
  // the same); line 3 the template's help row; line 4 the row with the error.
  const csv =
    'Product name,Barcode,Intensity,Notes\r\n' +
    `Aviator,${ean13('500000020001')},1.2,"first line\r\nsecond line\r\nthird line"\r\n` +
    '# help: the columns. (This row is help: the importer skips it.),,,\r\n' +
    `Kids Round,${ean13('500000020002')},high,\r\n`
  await page.goto('/#/skus')
  await page.getByRole('link', { name: 'Import' }).click()
  await page
    .getByLabel('Choose a file')
    .setInputFiles({ name: 'lines.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()

  // The preview names each row by its line: the help row (line 3) is skipped, not renumbered.
  const preview = page.getByRole('region', { name: 'The rows' }).getByRole('table')
  await expect(preview.getByRole('columnheader').first()).toHaveText('Line')
  await expect(preview.locator('tbody tr td:first-child')).toHaveText(['2', '4'])

  const intensity = group(page, /Intensity must be a number/)
  await expect(intensity).toContainText('Line 4 “high”')
  await expect(problemsRegion(page)).toContainText(
    'each row is named by its line, as your spreadsheet app numbers it',
  )
  await intensity.getByRole('button', { name: /Intensity must be a number/ }).click()
  await expect(intensity.getByRole('columnheader').first()).toHaveText('Line')
  await expect(rowsOf(intensity)).toHaveText([/^4\s*high\s*Intensity must be a number, not the text "high"$/])
  expect(await axe(page)).toEqual([])

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    problemsRegion(page).getByRole('button', { name: 'Download the error report' }).click(),
  ])
  const lines = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')
  expect(lines[0]).toBe('line,column,value,message')
  expect(lines[1]).toBe('4,Intensity,high,"Intensity must be a number, not the text ""high"""')
})
