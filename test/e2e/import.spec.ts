import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { seedDrafts, type SeededDraft } from '../../bench/seed-drafts.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { convertSheet } from '#shared/sheet/rows.ts'
import writeXlsxFile from 'write-excel-file/universal'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { sheetDeclaring, xlsxBomb } from '../unit/sheet/xlsx-bombs.ts'
import { axe, expect, screenshot, test, type PageProblems } from './harness/fixtures.ts'
import {
  holdDraftWrites,
  releaseDraftWrites,
  storedDraftCount,
  storedDrafts,
} from './harness/stored-drafts.ts'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures')

/** Opens the list with `count` seeded drafts (draft 1 already sent), then goes to the import page. */
async function openImport(page: Page, pageProblems: PageProblems, count = 5): Promise<SeededDraft[]> {
  // Seeded drafts point at product photos on a host the tests do not answer; the list shows tiles.
  pageProblems.allow(/Failed to load resource/)
  await page.route('https://images.catalog-desk.test/**', (route) => route.fulfill({ status: 404, body: '' }))
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const seeded = count ? await seedDrafts(page, count, { sent: [1] }) : []
  await page.reload()
  await page.getByRole('link', { name: 'Import' }).click()
  await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible()
  return seeded
}

const fileInput = (page: Page) => page.getByLabel('Choose a file')
const csvFile = (name: string, lines: string[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(lines.join('\r\n') + '\r\n'),
})

/**
 * Imports `count` new rows over 20 seeded drafts and holds the import's writes once part of it is
 * stored (`holdDraftWrites`); returns the drafts as they were before it.
 */
async function importHeldMidway(page: Page, pageProblems: PageProblems, count: number, firstBarcode: number) {
  await openImport(page, pageProblems, 20)
  const before = await storedDrafts(page)
  const lines = ['productName,brand,barcode,category,subCategory,isActive']
  for (let i = 0; i < count; i++)
    lines.push(`Generated ${i},Litware,${firstBarcode + i},eyewear,sunglasses,true`)
  await fileInput(page).setInputFiles(csvFile('large.csv', lines))
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await page
    .getByRole('button', { name: `Import ${count.toLocaleString('en-US')} valid rows` })
    .click({ timeout: 90_000 })
  await expect
    .poll(() => storedDraftCount(page), { timeout: 60_000, intervals: [100] })
    .toBeGreaterThan(before.length + 1000)
  const written = await holdDraftWrites(page)
  expect(written).toBeGreaterThan(before.length)
  expect(written).toBeLessThan(before.length + count)
  return before
}

test.describe('Importing SKUs', () => {
  test('a CSV: map a column, read the problems and the report, update existing drafts', async ({
    page,
    pageProblems,
  }) => {
    const seeded = await openImport(page, pageProblems)
    expect(await axe(page)).toEqual([])
    const [existing, sent] = [seeded[0]!, seeded[1]!]
    await fileInput(page).setInputFiles(
      csvFile('spring-catalogue.csv', [
        'Product name,Brand,Barcode,Category,Sub category,Active,Intensity,Colour',
        `Aviator Imported,Northwind Optics,${existing.barcode},eyewear,sunglasses,yes,1.2,Smoke grey`,
        'Round Imported,Contoso Vision,5000000000002,eyewear,eyeglasses,no,high,Clear',
        'Oval Imported,Lumen Eyewear,5000000000003,eyewear,eyeglasses,true,0.5,Blue',
        `Sent Imported,Fabrikam,${sent.barcode},eyewear,sunglasses,true,1,Green`,
        'Oval Imported again,Lumen Eyewear,5000000000003,eyewear,eyeglasses,true,0.7,Teal',
      ]),
    )

    // The mapping screen: the matcher knows every header but "Colour".
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeFocused()
    const colour = page.getByLabel('Field for the column Colour')
    await expect(colour).toHaveValue('')
    const colourRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Colour' }) })
    await expect(colourRow).toContainText('Smoke grey')
    await expect(colourRow).toContainText('Not recognised')
    await expect(page.getByLabel('Field for the column Sub category')).toHaveValue('subCategory')
    await colour.selectOption({ label: 'Lens colour description' })
    await expect(colourRow).toContainText('Chosen by you')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-mapping')

    // Saved, the mapping is what the next file with this header gets.
    await page.getByRole('button', { name: 'Save this mapping' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Mapping saved' })).toBeVisible()

    // The dry run.
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
    const counts = page.locator('.import-counts')
    // Rows 3 and 5 share a barcode: the gates would hold both back, as the Sync page would their drafts.
    await expect(counts).toHaveText(/^Rows5Ready to send2Held back from sending2Errors1$/)
    await expect(page.locator('.import-preview tbody tr')).toHaveCount(5)
    await page.getByRole('button', { name: /^Error Intensity\s?: Intensity must be a number/ }).click()
    const problem = page.locator('.import-problems tbody tr').first()
    await expect(problem.locator('td').nth(0)).toHaveText('3')
    await expect(problem.locator('td').nth(1)).toHaveText('high')
    await expect(problem).toContainText('Intensity must be a number')
    await expect(page.locator('.import-duplicates__counts')).toHaveText(
      /2 barcodes already exist as drafts; 1 appears more than once in the file\./,
    )
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-dry-run')

    // The error report, as the user downloads it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the error report' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('spring-catalogue - problems.csv')
    const report = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')
    expect(report[0]).toBe('line,column,value,message')
    expect(report[1]).toMatch(/^3,Intensity,high,"?Intensity must be a number/)
    expect(report.some((line) => line.includes('Warning: '))).toBe(true)

    // Update existing drafts: the unsent one and the sent one change (as an edit would change it),
    // the file's last row wins.
    const before = await storedDrafts(page)
    await page.getByLabel(/Update existing/).check()
    await page.getByRole('button', { name: 'Import 4 valid rows' }).click()
    await expect(page.getByRole('heading', { name: '1 draft imported, 3 updated' })).toBeVisible()
    await expect(page.getByRole('region', { name: /skipped/ })).toHaveCount(0)
    expect(await axe(page)).toEqual([])

    const after = await storedDrafts(page)
    expect(after).toHaveLength(before.length + 1)
    const byBarcode = (barcode: string) => after.filter((draft) => draft.barcode === barcode)
    expect(byBarcode(existing.barcode).map((draft) => [draft.id, draft.productName])).toEqual([
      [existing.id, 'Aviator Imported'],
    ])
    // Where it was sent stays as it was: this seeded one kept no copy of what it sent, so nothing
    // says it changed since (import-sent-drafts.spec.ts has drafts that did).
    const sentBefore = before.find((draft) => draft.id === sent.id)!
    expect(byBarcode(sent.barcode).map((draft) => [draft.id, draft.productName, draft.sync])).toEqual([
      [sent.id, 'Sent Imported', sentBefore.sync],
    ])
    const oval = byBarcode('5000000000003')
    expect(oval).toHaveLength(1)
    expect(oval[0]).toMatchObject({ productName: 'Oval Imported again', sync: {} })
    expect(oval[0]!.payload).toMatchObject({
      isActive: true,
      arEffect: { envSettings: { intensity: 0.7 } },
      meta: { lensColorDescription: 'Teal' },
    })
    expect(byBarcode('5000000000002')).toEqual([])

    // In the list, with the import's undo in the snackbar.
    await page.getByRole('link', { name: 'Go to the SKU list' }).click()
    await expect(page.getByText('6 drafts on this computer')).toBeVisible()
    await expect(page.getByRole('row', { name: /Oval Imported again/ })).toBeVisible()
    await expect(page.getByRole('row', { name: /Aviator Imported/ })).toBeVisible()
    await expect(page.locator('.snackbar')).toContainText('1 draft imported, 3 updated.')
    await page.locator('.snackbar').getByRole('button', { name: 'Undo' }).click()
    await expect(page.getByText('5 drafts on this computer')).toBeVisible()
    expect(await storedDrafts(page)).toEqual(before)

    // The saved mapping is applied to the next file with a "Colour" column.
    await page.getByRole('link', { name: 'Import' }).click()
    await fileInput(page).setInputFiles(csvFile('more.csv', ['Product name,Colour', 'Round,Amber']))
    await expect(page.getByLabel('Field for the column Colour')).toHaveValue('meta.lensColorDescription')
    await expect(
      page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Colour' }) }),
    ).toContainText('Your saved mapping')
  })

  test('an Excel workbook and a JSON bulk request', async ({ page, pageProblems }) => {
    await openImport(page, pageProblems, 0)
    // Two sheets, as people's workbooks often have: the SKUs, then a sheet of notes.
    const skus = [
      ['productName', 'brand', 'barcode', 'category', 'subCategory', 'arEffect.envSettings.intensity'],
      ['Workbook Aviator', 'Northwind Optics', '7000000000001', 'eyewear', 'sunglasses', '1.5'],
      ['Workbook Round', 'Contoso Vision', '7000000000002', 'eyewear', 'eyeglasses', '0.8'],
    ]
    const cells = (rows: string[][]) => rows.map((row) => row.map((value) => ({ value })))
    const workbook = await (
      await writeXlsxFile([
        { sheet: 'SKUs', data: cells(skus) },
        { sheet: 'How to fill', data: cells([['One row a SKU']]) },
      ]).toBlob()
    ).arrayBuffer()
    await fileInput(page).setInputFiles({
      name: 'workbook.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(workbook),
    })
    await expect(page.getByLabel('Field for the column arEffect.envSettings.intensity')).toHaveValue(
      'arEffect.envSettings.intensity',
    )
    await expect(
      page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'productName' }) }),
    ).toContainText('Workbook Aviator')
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.locator('.import-counts')).toHaveText(
      /^Rows2Ready to send\dHeld back from sending\dErrors0$/,
    )
    await expect(
      page.getByText(
        'The workbook has 2 sheets: the first, “SKUs”, is read; “How to fill” is not. To import another, move it first, or save it alone as CSV.',
      ),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Import 2 valid rows' }).click()
    await expect(page.getByRole('heading', { name: '2 drafts imported' })).toBeVisible()
    const fromWorkbook = await storedDrafts(page)
    expect(fromWorkbook.map((draft) => draft.productName).sort()).toEqual([
      'Workbook Aviator',
      'Workbook Round',
    ])
    expect(fromWorkbook.find((draft) => draft.barcode === '7000000000001')!.payload).toMatchObject({
      arEffect: { envSettings: { intensity: 1.5 } },
    })

    // JSON needs no mapping: straight to the check.
    await page.getByRole('button', { name: 'Import another file' }).click()
    await fileInput(page).setInputFiles(join(fixtures, 'bulk-upload-request.json'))
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeVisible()
    await expect(page.getByText('A bulk upload request.')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Map the columns' })).toHaveCount(0)
    await expect(page.locator('.import-counts')).toContainText('Rows2')
    expect(await axe(page)).toEqual([])
    await page.getByRole('button', { name: 'Import 2 valid rows' }).click()
    await expect(page.getByRole('heading', { name: '2 drafts imported' })).toBeVisible()
    const request = JSON.parse(await readFile(join(fixtures, 'bulk-upload-request.json'), 'utf8')) as {
      skus: Array<{ barcode: string }>
    }
    const stored = await storedDrafts(page)
    expect(stored).toHaveLength(4)
    for (const sku of request.skus)
      expect(stored.find((draft) => draft.barcode === sku.barcode)?.payload).toEqual(sku)
  })

  test('rows imported with their errors stay invalid drafts that say what is wrong', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems, 0)
    await fileInput(page).setInputFiles({
      name: 'odd.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify([{ notes: 'not a SKU field' }, { productName: 'Shortened', barcode: '8.90123E+12' }]),
      ),
    })
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeVisible()
    await page.getByLabel(/Also import the 2 rows with errors/).check()
    await page.getByRole('button', { name: 'Import 2 rows' }).click()
    await expect(page.getByRole('heading', { name: '2 drafts imported' })).toBeVisible()
    const stored = await storedDrafts(page)
    expect(stored.map((draft) => draft.validity)).toEqual(['invalid', 'invalid'])

    const notSku = stored.find((draft) => draft.payload.notes !== undefined)!
    await page.goto(`/#/skus/${notSku.id}`)
    await expect(page.getByRole('alert').filter({ hasText: 'this is not a SKU' })).toBeVisible()
    await expect(page.getByText('1 error')).toBeVisible()
    const shortened = stored.find((draft) => draft.barcode === '8.90123E+12')!
    await page.goto(`/#/skus/${shortened.id}`)
    await expect(page.getByText(/was shortened to a number by a spreadsheet/)).toBeVisible()
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
  })

  test('cancelling a large import midway leaves the drafts exactly as they were', async ({
    page,
    pageProblems,
  }) => {
    test.setTimeout(180_000)
    await openImport(page, pageProblems, 50)
    const before = await storedDrafts(page)
    const lines = ['productName,brand,barcode,category,subCategory,isActive']
    // A fifth of the rows reuse barcodes of existing drafts, which 'update' overwrites.
    for (let i = 0; i < 20_000; i++) {
      const barcode = i % 5 === 0 ? String(8_901_000_000_000 + (i % 50)) : String(6_000_000_000_000 + i)
      lines.push(`Generated ${i},Litware,${barcode},eyewear,sunglasses,true`)
    }
    await fileInput(page).setInputFiles(csvFile('large.csv', lines))
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.locator('.import-counts')).toContainText('Rows20,000', { timeout: 90_000 })
    await page.getByLabel(/Update existing/).check()
    await page.getByRole('button', { name: 'Import 20,000 valid rows' }).click()
    await expect(page.getByRole('progressbar', { name: 'Importing' })).toBeVisible()

    // Midway: some chunks are in the database, not all.
    await expect
      .poll(() => storedDraftCount(page), { timeout: 60_000, intervals: [100] })
      .toBeGreaterThan(before.length + 1000)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(
      page.getByRole('status').filter({ hasText: 'Import cancelled. Nothing was changed' }),
    ).toBeVisible({
      timeout: 30_000,
    })
    expect(await storedDrafts(page)).toEqual(before)
    await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeVisible()
  })

  test('leaving the page mid-import asks first: staying goes on, leaving stops it and puts the drafts back', async ({
    page,
    pageProblems,
  }) => {
    test.setTimeout(180_000)
    // Held in the middle, whatever the machine's speed, while the person tries to leave.
    const before = await importHeldMidway(page, pageProblems, 20_000, 7_100_000_000_000)
    const sections = page.getByRole('navigation', { name: 'Sections' })

    // Escape is "Stay": the import goes on.
    await sections.getByRole('link', { name: 'SKUs' }).click()
    const asking = page.getByRole('alertdialog', { name: 'Stop the import?' })
    await expect(asking).toBeVisible()
    await axe(page)
    await screenshot(page, 'import-leave-asks')
    await page.keyboard.press('Escape')
    await expect(asking).toBeHidden()
    await expect(page.getByRole('progressbar', { name: 'Importing' })).toBeVisible()

    await sections.getByRole('link', { name: 'SKUs' }).click()
    await asking.getByRole('button', { name: 'Stop and leave' }).click()
    await releaseDraftWrites(page)
    await expect(page.getByRole('heading', { name: 'SKUs', exact: true, level: 1 })).toBeVisible({
      timeout: 30_000,
    })
    expect(await storedDrafts(page)).toEqual(before)
    await expect(page.getByText('Import stopped: the drafts are as they were before it.')).toBeVisible()
  })

  test('an import cut short by closing the window is rolled back when the app starts again', async ({
    page,
    pageProblems,
  }) => {
    test.setTimeout(180_000)
    // Held in the middle whatever the machine's speed, then the window goes away, as in a crash:
    // no cancel, no rollback in this page.
    const before = await importHeldMidway(page, pageProblems, 12_000, 7_000_000_000_000)
    await page.reload()
    // The app shows once the rollback is done (on the page it was on); the person opens the list.
    await expect(page.getByRole('heading', { name: 'Import SKUs', level: 1 })).toBeVisible({
      timeout: 30_000,
    })
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'SKUs' }).click()
    await expect(page.getByText('An import was interrupted when Catalog Desk last closed.')).toBeVisible()
    expect(await storedDrafts(page)).toEqual(before)
  })

  test('the templates have every contract column by its title, a help row and an example that imports cleanly', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems, 0)
    const save = async (name: string) => {
      const downloading = page.waitForEvent('download')
      await page.getByRole('button', { name }).click()
      return readFile((await (await downloading).path())!)
    }
    const csv = parseCsvText((await save('CSV template')).toString('utf8'))
    const xlsx = await readXlsx(await save('XLSX template'))
    for (const sheet of [csv, xlsx]) {
      expect(sheet.headers).toEqual(expect.arrayContaining(['Product name', 'Position X', 'Intensity']))
      expect(sheet.headers).not.toContain('arEffect.transform.position.x')
      expect(sheet.rows[0]?.[0]).toMatch(/^# help:/)
      const [example] = convertSheet(sheet)
      expect(example?.errors).toEqual([])
    }

    // Filled in and imported as it is, the template gives one valid draft.
    await fileInput(page).setInputFiles({
      name: 'template.xlsx',
      mimeType: 'application/octet-stream',
      buffer: await save('XLSX template'),
    })
    // A template filled in is a person's sheet, not an export: the defaults stay on, and it is not
    // called "a Catalog Desk export".
    await expect(page.getByLabel('Fill missing sections with the new-SKU defaults')).toBeChecked()
    await expect(page.getByText(/Catalog Desk export/)).toHaveCount(0)
    await page.getByRole('button', { name: 'Check the rows' }).click()
    await expect(page.getByRole('button', { name: 'Import 1 valid row' })).toBeVisible()
  })

  test('a file that is not a spreadsheet is refused plainly, and nothing changes', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    const before = await storedDrafts(page)
    // Dropped, as a person would from the file manager: the drop zone takes any file.
    const dataTransfer = await page.evaluateHandle(`(() => {
      const data = new DataTransfer()
      const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 1, 0])
      data.items.add(new File([bytes], 'photo.png', { type: 'image/png' }))
      return data
    })()`)
    await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer })
    await expect(page.getByRole('alert')).toHaveText(
      /“photo\.png” cannot be imported\. The file is not text: it looks like a binary file/,
    )
    await expect(page.getByLabel('Choose a file')).toBeEnabled()
    expect(await axe(page)).toEqual([])

    // An app creation request is JSON, but not SKUs.
    await fileInput(page).setInputFiles(join(fixtures, 'app-create-request.json'))
    await expect(page.getByRole('alert')).toHaveText(/is an app creation request, not SKUs/)
    expect(await storedDrafts(page)).toEqual(before)
  })

  test('a workbook that unpacks to more than the limit is refused by the worker, naming it and the limit', async ({
    page,
    pageProblems,
  }) => {
    await openImport(page, pageProblems)
    const before = await storedDrafts(page)
    // 160 MB of sheet in 0.56 MB: once with its entries saying so, once with them saying 5.2 KB.
    const bomb = await xlsxBomb(160)
    const advice = 'Save it as CSV UTF-8, which is read as it streams, whatever its size.'
    for (const [name, bytes, unpacks] of [
      ['catalogue.xlsx', bomb, 'unpacks to 160 MB'],
      [
        'lying.xlsx',
        sheetDeclaring(bomb, 2048),
        'unpacks to more than 100 MB, though its entries say 5.2 KB (it is damaged, or made to mislead)',
      ],
    ] as const) {
      await fileInput(page).setInputFiles({
        name,
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(bytes),
      })
      await expect(page.getByRole('alert')).toHaveText(
        `“${name}” cannot be imported. It could not be read as an Excel workbook: The workbook ${unpacks}, and a workbook is read whole, up to 100 MB unpacked. ${advice}`,
      )
    }
    expect(await storedDrafts(page)).toEqual(before)
  })
})
