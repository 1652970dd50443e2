import { readFile } from 'node:fs/promises'
import type { Locator, Page } from '@playwright/test'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { putDrafts, standingOf, storedDrafts } from './harness/stored-drafts.ts'
import { seedForSync, seededValid, setSending } from './harness/sync-setup.ts'
import { openSync, progress, receivedBarcodes, syncStates } from './harness/sync-page.ts'

// Reconciliation without a read endpoint (issue #15): the service cannot say what it holds, so the
// person exports the undecided drafts, checks them on the platform, and brings back the list of
// barcodes the platform has; a list with the platform's ids gives SKUs created there theirs (issue #34).

const panel = (page: Page) => page.getByRole('region', { name: 'Check the platform' })

async function download(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const downloading = page.waitForEvent('download')
  await button.click()
  const file = await downloading
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) }
}

/** Gives the panel a file through the system's file chooser, as a person picks one. */
async function importList(page: Page, name: string, content: string | Buffer) {
  const choosing = page.waitForEvent('filechooser')
  await panel(page).getByText('Import a list from the platform…').click()
  await (await choosing).setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) })
}

test('the undecided drafts export to check, and the platform’s list marks them created and sends the rest again, once', async ({
  page,
  pageProblems,
  sandbox,
}) => {
  const seeded = await seedForSync(page, pageProblems, 20)
  const valid = seeded.filter((draft) => seededValid(draft.index))
  await setSending(page, 'sandbox', { batchSize: 6 })
  // First request: a 500 before processing (nothing stored). Second: stored, then the connection drops.
  sandbox.addFaults([
    { kind: 'server-error', stage: 'before', endpoint: 'skus' },
    { kind: 'reset', stage: 'after', endpoint: 'skus' },
  ])
  await openSync(page)
  await page.getByRole('button', { name: 'Create 18 new on Sandbox' }).click()
  await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
  expect(await syncStates(page)).toEqual({ synced: 6, failed: 6, unknown: 6, draft: 2 })
  // The tiles count every draft: the failed ones with the unknown ones (2 + 6 + 12 = 20).
  const tiles = page.getByRole('region', { name: 'SKUs to send' }).locator('.import-counts__item')
  await expect(tiles.filter({ hasText: 'Unknown or failed: your decision' })).toContainText('12')
  await expect(tiles.filter({ hasText: 'With errors: fix first' })).toContainText('2')
  await expect(tiles.filter({ hasText: 'Already synced here' })).toContainText('6')
  const failed = valid.slice(0, 6).map((draft) => draft.barcode)
  const unknown = valid.slice(6, 12).map((draft) => draft.barcode)

  await expect(panel(page)).toContainText(
    '12 drafts sent to Sandbox may or may not be there (6 unknown, 6 failed with a server error)',
  )
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'sync-reconcile-panel')

  // The export names each undecided draft as the platform would show it.
  const csv = await download(page, panel(page).getByRole('button', { name: 'Export as CSV' }))
  expect(csv.name).toMatch(/^catalog-desk-undecided-\d{12}\.csv$/)
  const sheet = parseCsvText(csv.bytes.toString('utf8'))
  expect(sheet.headers).toEqual([
    'barcode',
    'product name',
    'run',
    'time sent',
    'request id',
    'state',
    'message',
  ])
  expect(sheet.rows.map((row) => row[0])).toEqual([...failed, ...unknown])
  const byBarcode = new Map(sheet.rows.map((row) => [row[0]!, row]))
  for (const draft of valid.slice(0, 12)) {
    const [, name, run, sentAt, requestId, state, message] = byBarcode.get(draft.barcode)!
    expect(name).toBe(draft.productName)
    expect(run).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d · Sandbox$/)
    expect(sentAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d$/)
    expect(requestId).not.toBe('')
    expect(state).toBe(failed.includes(draft.barcode) ? 'failed' : 'unknown')
    expect(message).not.toBe('')
  }
  // The two batches: one request id each.
  expect(new Set(sheet.rows.map((row) => row[4])).size).toBe(2)
  const xlsx = await readXlsx(
    (await download(page, panel(page).getByRole('button', { name: 'Export as XLSX' }))).bytes,
  )
  expect(xlsx.headers).toEqual(sheet.headers)
  expect(xlsx.rows.map((row) => row[0])).toEqual([...failed, ...unknown])

  // A file that is not a list of barcodes is refused by name, and nothing changes.
  await importList(page, 'prices.csv', 'name,price\nAviator,10\n')
  await expect(panel(page).getByRole('alert')).toContainText(
    '“prices.csv” was refused: It has 2 columns and none is headed "barcode"',
  )
  await expect(panel(page).getByRole('alert')).toContainText('Nothing was changed.')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(await syncStates(page)).toEqual({ synced: 6, failed: 6, unknown: 6, draft: 2 })

  // What the platform has: exactly what the sandbox stored (the dropped answer's batch and the last).
  const platform = receivedBarcodes(sandbox)
  expect([...platform].sort()).toEqual(
    valid
      .slice(6, 18)
      .map((draft) => draft.barcode)
      .sort(),
  )
  const list = `${platform.join('\n')}\n`
  await importList(page, 'platform-barcodes.txt', list)
  const dialog = page.getByRole('dialog', { name: 'The platform’s list platform-barcodes.txt' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(
    '6 of the 12 undecided drafts are on the platform’s list: mark them created.',
  )
  await expect(dialog.getByRole('group', { name: 'Barcodes to mark created' })).toContainText(
    unknown.join(', '),
  )
  await expect(dialog.getByRole('group', { name: 'The other 6 are not on the list:' })).toBeVisible()
  await expect(dialog.getByRole('group', { name: 'Barcodes not on the list' })).toContainText(
    failed.join(', '),
  )
  await expect(dialog).toContainText('6 barcodes on the list are not among the undecided drafts')
  // Sending again may duplicate: never chosen for the person, and focus starts on their choice.
  const leave = dialog.getByRole('radio', { name: /Leave undecided/ })
  await expect(leave).toBeChecked()
  await expect(leave).toBeFocused()
  await expect(dialog.getByRole('button', { name: 'Mark 6 as created', exact: true })).toBeVisible()
  // Half the list matched: nothing suggests it is written differently.
  await expect(dialog.getByText('Is the list written as the platform shows it?')).toHaveCount(0)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'sync-reconcile-preview')
  // Tab goes from the choice to the buttons: the barcode lists are read, never a stop.
  await page.keyboard.press('Tab')
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()

  // Escape closes it: nothing changes until the person confirms, and focus is back where it was.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(panel(page).getByLabel('Import a list from the platform…')).toBeFocused()
  expect(await syncStates(page)).toEqual({ synced: 6, failed: 6, unknown: 6, draft: 2 })

  await importList(page, 'platform-barcodes.txt', list)
  await expect(dialog).toBeVisible()
  // From the keyboard: down to Send again with the arrows; the button says it is risky, and how.
  await expect(leave).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(dialog.getByRole('radio', { name: /Send again/ })).toBeChecked()
  const both = dialog.getByRole('button', { name: 'Mark 6 as created and send 6 again' })
  await expect(both).toHaveAccessibleDescription(
    /^All 6 failed with a server error: the service may have created any of them\. .* up to 6 duplicates\.$/,
  )
  await expect(both).toHaveCSS('background-color', 'rgb(180, 35, 24)')
  await both.press('Enter')
  await expect(dialog).toHaveCount(0)

  await expect(panel(page).getByRole('status').filter({ hasText: 'marked as created' })).toContainText(
    "6 drafts marked as created: on the platform's list platform-barcodes.txt. 6 drafts not on the list are sent again by a new run to Sandbox.",
  )
  await expect(page.getByRole('log')).toContainText('Done: 6 synced, 0 rejected, 0 failed, 0 unknown.', {
    timeout: 20_000,
  })
  await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Batches waiting for your decision' })).toHaveCount(0)
  expect(await syncStates(page)).toEqual({ synced: 18, draft: 2 })

  // Every valid draft is on the platform exactly once: nothing was created twice.
  const received = receivedBarcodes(sandbox)
  expect([...received].sort()).toEqual(valid.map((draft) => draft.barcode).sort())
  expect(new Set(received).size).toBe(received.length)

  // The listed drafts' items say which list; the old run's batches read as decided.
  const stored = await storedDrafts(page)
  const listed = stored.find((draft) => draft.barcode === unknown[0])!
  expect(listed.sync).toMatchObject({ 'embedded-sandbox': { state: 'synced' } })
  const oldRun = page.getByRole('region', { name: 'History' }).locator('details.sync-run').nth(1)
  if (!(await oldRun.evaluate((details) => (details as unknown as { open: boolean }).open)))
    await oldRun.locator('summary').first().click()
  await expect(oldRun).toContainText('You marked it as created.')
  await expect(oldRun).toContainText('You sent it again.')
  await expect(panel(page).getByRole('button', { name: 'Export as CSV' })).toHaveCount(0)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'sync-reconcile-done')
})

test('a list whose barcodes lost their leading zeros matches none: nothing is sent again unless chosen, and the dialog says why', async ({
  page,
  sandbox,
}) => {
  // Twelve drafts whose barcodes start with zeros, as a UPC read as an EAN-13 does.
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const barcodes = Array.from({ length: 12 }, (_, i) => `00${4_000_000_000_001 + i}`)
  await putRounds(page, barcodes)
  await page.reload()
  await setSending(page, 'sandbox', { batchSize: 6 })
  sandbox.addFaults([
    { kind: 'server-error', stage: 'before', endpoint: 'skus' },
    { kind: 'reset', stage: 'after', endpoint: 'skus' },
  ])
  await openSync(page)
  await page.getByRole('button', { name: 'Create 12 new on Sandbox' }).click()
  await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
  expect(await syncStates(page)).toEqual({ failed: 6, unknown: 6 })

  // The platform has the six whose answer was lost; the spreadsheet they went through dropped the zeros.
  const platform = receivedBarcodes(sandbox)
  expect(platform).toHaveLength(6)
  const list = `barcode\n${platform.map((barcode) => barcode.replace(/^0+/, '')).join('\n')}\n`
  await importList(page, 'platform-export.csv', list)
  const dialog = page.getByRole('dialog', { name: 'The platform’s list platform-export.csv' })
  await expect(dialog).toContainText('None of the 12 undecided drafts is on the platform’s list.')
  await expect(dialog).toContainText(
    `6 of the drafts not on the list are on it written differently: the list has ${platform[0]!.replace(/^0+/, '')} where the draft has ${platform[0]}. A spreadsheet most likely dropped the leading zeros.`,
  )
  await expect(dialog.getByRole('radio', { name: /Leave undecided/ })).toBeChecked()
  await expect(dialog.getByRole('button', { name: 'Nothing to change' })).toHaveAttribute(
    'aria-disabled',
    'true',
  )
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'sync-reconcile-leading-zeros')

  // Sending them all again is the person's choice, said as the risk it is.
  await dialog.getByRole('radio', { name: /Send again/ }).check()
  const resend = dialog.getByRole('button', { name: 'Send 12 again' })
  await expect(resend).toHaveAccessibleDescription(
    'Of these 12, 6 had no answer (outcome unknown) and 6 failed with a server error: the service may have created any of them. Sent to Sandbox once more, each that is there after all (a list that is incomplete or written differently) would be created a second time: up to 12 duplicates.',
  )
  await expect(resend).toHaveCSS('background-color', 'rgb(180, 35, 24)')
  await screenshot(page, 'sync-reconcile-leading-zeros-resend')

  // Cancel: nothing sent, nothing decided, and focus back on the way to import a corrected list.
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(panel(page).getByLabel('Import a list from the platform…')).toBeFocused()
  expect(await syncStates(page)).toEqual({ failed: 6, unknown: 6 })
  expect(receivedBarcodes(sandbox)).toHaveLength(6)
})

test('SKUs created by answers that named no id get their platform ids from a list, and the panel says so', async ({
  page,
  sandbox,
}) => {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const barcodes = ['8901000000011', '8901000000028', '8901000000035']
  await putRounds(page, barcodes)
  await page.reload()
  // A service whose bulk answer names no ids: the app cannot know what to update.
  sandbox.changeSettings({ answerIds: false })
  await openSync(page)
  await page.getByRole('button', { name: 'Create 3 new on Sandbox' }).click()
  await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
  expect(await syncStates(page)).toEqual({ synced: 3 })
  expect((await storedDrafts(page)).map((draft) => standingOf(draft)?.remoteId)).toEqual([
    undefined,
    undefined,
    undefined,
  ])
  await expect(panel(page)).toContainText(
    '3 SKUs created on Sandbox have no platform id: they cannot be updated until you import a list from the platform with their ids.',
  )
  // Nothing is undecided: only the way to import the list is offered.
  await expect(panel(page).getByRole('button', { name: 'Export as CSV' })).toHaveCount(0)
  expect(await axe(page)).toEqual([])

  // The platform's list: each SKU's barcode and the id the platform gave it.
  const platform = sandbox
    .received()
    .skus.map((entry) => [(entry.sku as { barcode: string }).barcode, entry._id!])
  expect(platform).toHaveLength(3)
  await importList(
    page,
    'platform-ids.csv',
    `barcode,_id\n${platform.map((row) => row.join(',')).join('\n')}\n`,
  )
  const dialog = page.getByRole('dialog', { name: 'The platform’s list platform-ids.csv' })
  await expect(dialog).toContainText('3 barcodes on the list, 3 with a platform id (column “_id”)')
  await expect(dialog).toContainText(
    '3 SKUs get their platform id from the list: they can be updated from then on.',
  )
  await expect(dialog.getByRole('group', { name: 'Barcodes given their platform id' })).toContainText(
    barcodes.join(', '),
  )
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'sync-reconcile-ids')
  // From the keyboard: focus starts on Cancel, the next stop is the confirmation.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(dialog.getByRole('button', { name: 'Record 3 platform ids' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)

  await expect(panel(page).getByRole('status')).toContainText(
    '3 SKUs on Sandbox got their platform id from the list: they can be updated.',
  )
  await expect(panel(page)).not.toContainText('have no platform id')
  const ids = new Map(platform.map(([barcode, id]) => [barcode, id]))
  for (const draft of await storedDrafts(page))
    expect(standingOf(draft)?.remoteId).toBe(ids.get(draft.barcode))
  expect(await axe(page)).toEqual([])
})

/** Sunglasses drafts "Round 1"… with these barcodes, stored as the app stores them. */
async function putRounds(page: Page, barcodes: readonly string[]): Promise<void> {
  await putDrafts(
    page,
    barcodes.map((barcode, i) => ({
      ...newSkuPayload(),
      productName: `Round ${i + 1}`,
      barcode,
      brand: 'Northwind Optics',
      category: 'eyewear',
      subCategory: 'sunglasses',
    })),
  )
}
