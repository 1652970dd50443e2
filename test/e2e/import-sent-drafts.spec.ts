import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import type { Sandbox } from '#node/sandbox/server.ts'
import { parseCsvText, toCsv } from '#shared/sheet/csv.ts'
import { saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { openSync } from './harness/sync-page.ts'
import { seedForSync } from './harness/sync-setup.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

/**
 * Issue #38, item 3: a sheet re-imported with "Update existing" reaches drafts already sent, as the
 * editor does. SKUs created on the Sandbox are exported, two of them edited in the sheet, and the
 * sheet imported again: the dry run says how many will change on the Sandbox, the drafts change,
 * the rows that change nothing are unchanged, and the Sync page offers exactly the edited two as
 * updates, which send only the edited field.
 */

const NEW_BRANDS = ['Northwind Optics Revised', 'Contoso Vision Revised']

const skusPanel = (page: Page) => page.getByRole('region', { name: 'SKUs to send' })
const updatesPanel = (page: Page) => page.getByRole('region', { name: 'Changed since created on Sandbox' })

async function logSays(page: Page, line: string) {
  await expect(page.getByRole('log')).toContainText(line, { timeout: 20_000 })
}

/** The list's selection exported as CSV with the app's columns (its draft), as a person would. */
async function exportAll(page: Page, n: number): Promise<string> {
  await page.getByRole('link', { name: 'SKUs', exact: true }).click()
  await page.getByRole('checkbox', { name: 'Select the drafts on screen' }).check()
  await expect(page.getByText(`${n} selected`)).toBeVisible()
  await page.getByRole('button', { name: 'Export…' }).click()
  const dialog = page.getByRole('dialog', { name: /^Export/ })
  await dialog.getByRole('radio', { name: 'Spreadsheet (CSV)' }).check()
  const downloading = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()
  const file = await downloading
  await expect(dialog).toBeHidden()
  return readFile((await file.path())!, 'utf8')
}

/** The SKUs the sandbox holds, by barcode, with the bodies of their updates. */
function storedByBarcode(sandbox: Sandbox) {
  return new Map(
    sandbox.received().skus.map((entry) => [(entry.sku as { barcode: string }).barcode, entry] as const),
  )
}

test('a sheet of drafts created on the Sandbox, edited and imported again, updates them: the Sync page offers the edited ones as updates', async ({
  page,
  pageProblems,
  sandbox,
}) => {
  const seeded = await seedForSync(page, pageProblems, 4)
  await openSync(page)
  await skusPanel(page).getByRole('button', { name: 'Create 4 new on Sandbox' }).click()
  await logSays(page, 'Done: 4 synced, 0 rejected, 0 failed, 0 unknown.')
  const created = storedByBarcode(sandbox)
  expect(created.size).toBe(4)
  await expect(updatesPanel(page)).toHaveCount(0)

  // The export, with two rows' brand edited in the "spreadsheet"; the other two as they went out.
  const sheet = parseCsvText((await exportAll(page, 4)).replace(/^\uFEFF/, ''))
  const draftColumn = sheet.headers.indexOf('Catalog Desk draft')
  const brandColumn = sheet.headers.indexOf('Brand')
  expect([draftColumn, brandColumn].every((column) => column >= 0)).toBe(true)
  const edited = seeded.slice(0, 2)
  const rows = sheet.rows.map((row) => {
    const at = edited.findIndex((draft) => draft.id === row[draftColumn])
    return at < 0 ? row : row.map((cell, column) => (column === brandColumn ? NEW_BRANDS[at]! : cell))
  })
  const before = new Map((await storedDrafts(page)).map((draft) => [draft.id, draft]))

  await page.getByRole('link', { name: 'Import' }).click()
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'sandbox-skus.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(toCsv(sheet.headers, rows)),
  })
  await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeVisible()
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()

  // The dry run: two rows change nothing, and the two edited drafts will change on the Sandbox.
  await expect(page.getByText('2 unchanged')).toBeVisible()
  await page.getByRole('radio', { name: /^Update existing/ }).check()
  const sent = page.getByRole('list', { name: 'What updating does to drafts already sent' })
  await expect(sent.getByRole('listitem')).toHaveText([
    '2 drafts sent to Sandbox will change: the Sync page will offer them as updates.',
  ])
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-sent-drafts-dry-run')

  await page.getByRole('button', { name: 'Import 4 valid rows' }).click()
  await expect(page.getByRole('heading', { name: '0 drafts imported, 2 updated, 2 unchanged' })).toBeVisible()
  await expect(
    page.getByText('2 drafts sent to Sandbox changed: the Sync page offers them as updates.'),
  ).toBeVisible()
  await expect(page.getByText(/skipped/)).toHaveCount(0)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'import-sent-drafts-done')

  // The edited drafts hold the sheet's brand; the unchanged ones were not written at all.
  const after = new Map((await storedDrafts(page)).map((draft) => [draft.id, draft]))
  edited.forEach((draft, i) => expect(after.get(draft.id)!.brand).toBe(NEW_BRANDS[i]))
  for (const draft of seeded.slice(2)) expect(after.get(draft.id)).toEqual(before.get(draft.id))

  // The Sync page offers exactly the two as updates, each with the one field edited in the sheet.
  await page.getByRole('link', { name: 'Open Sync' }).click()
  await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible()
  const updates = updatesPanel(page)
  await expect(updates).toContainText('2 SKUs created on Sandbox changed since')
  await updates.getByText('What the updates send').click()
  for (const [i, draft] of edited.entries()) {
    // Each draft's own preview: the list's order is not the sheet's.
    const preview = updates.locator('details.sync-updates__preview', {
      has: page.getByText(`${draft.barcode}: 1 field changed`, { exact: true }),
    })
    await preview.getByText(`${draft.barcode}: 1 field changed`, { exact: true }).click()
    await expect(preview.getByRole('row', { name: /^brand/ })).toContainText(NEW_BRANDS[i]!)
  }
  await updates.getByRole('button', { name: 'Update 2 changed on Sandbox' }).click()
  await logSays(page, 'Done: 2 updated, 0 rejected, 0 failed, 0 unknown.')

  // What the platform holds: the two rebranded by one PUT each with only the brand, the rest as created.
  const now = storedByBarcode(sandbox)
  edited.forEach((draft, i) =>
    expect(now.get(draft.barcode)!.updates.map((entry) => entry.body)).toEqual([{ brand: NEW_BRANDS[i] }]),
  )
  for (const draft of seeded.slice(2)) expect(now.get(draft.barcode)!.updates).toEqual([])
  await expect(updatesPanel(page)).toHaveCount(0)
})

// A tryout changed a created SKU's barcode, not sent yet, and imported the shop's file again: the
// row with the old barcode became a new draft, ready, and the platform got the SKU twice.
test('a created SKU whose barcode is edited keeps its old barcode there until the update sends the new one: the file imported again creates nothing', async ({
  page,
  pageProblems,
  sandbox,
}) => {
  test.slow()
  const seeded = await seedForSync(page, pageProblems, 3)
  await openSync(page)
  await skusPanel(page).getByRole('button', { name: 'Create 3 new on Sandbox' }).click()
  await logSays(page, 'Done: 3 synced, 0 rejected, 0 failed, 0 unknown.')
  // The shop's file: the app's export without its draft column, as any sheet of these SKUs.
  const sheet = parseCsvText((await exportAll(page, 3)).replace(/^\uFEFF/, ''))
  const draftColumn = sheet.headers.indexOf('Catalog Desk draft')
  const shopFile = toCsv(
    sheet.headers.filter((_, column) => column !== draftColumn),
    sheet.rows.map((row) => row.filter((_, column) => column !== draftColumn)),
  )

  const rose = seeded[0]!
  const NEW_BARCODE = '4006381333931'
  await page.goto(`/#/skus/${rose.id}`)
  await page.getByLabel('Barcode', { exact: true }).fill(NEW_BARCODE)
  await saved(page)

  await page.getByRole('link', { name: 'SKUs', exact: true }).click()
  await page.getByRole('link', { name: 'Import' }).click()
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'shop.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(shopFile),
  })
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()
  await page.getByRole('button', { name: /^Import \d+ valid rows?$/ }).click()
  await expect(page.getByRole('heading', { name: /^1 draft imported/ })).toBeVisible()

  await openSync(page)
  await expect(page.locator('.sync-start__held')).toContainText(
    '1 draft with a barcode already created on Sandbox',
  )
  await expect(
    skusPanel(page).getByRole('button', { name: 'Nothing new to create on Sandbox' }),
  ).toBeDisabled()
  await screenshot(page, 'import-sent-drafts-old-barcode-held')

  // The update sends the new barcode: the old one is no longer the SKU's there.
  await updatesPanel(page).getByRole('button', { name: 'Update 1 changed on Sandbox' }).click()
  await logSays(page, 'Done: 1 updated, 0 rejected, 0 failed, 0 unknown.')
  expect(
    storedByBarcode(sandbox)
      .get(NEW_BARCODE)!
      .updates.map((entry) => entry.body),
  ).toEqual([{ barcode: NEW_BARCODE }])
  await expect(skusPanel(page).getByRole('button', { name: 'Create 1 new on Sandbox' })).toBeVisible()
  expect(sandbox.requests().filter((request) => request.method === 'POST')).toHaveLength(1)
})
