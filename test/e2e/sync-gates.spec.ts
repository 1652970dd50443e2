import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { putDrafts, stateOf, storedDrafts } from './harness/stored-drafts.ts'
import { seedForSync } from './harness/sync-setup.ts'
import { openSync, receivedBarcodes } from './harness/sync-page.ts'

// The gates before sending, as the tryout met them: questionable drafts among sound ones.

/** A SKU as a shop's sheet gives it: sound unless a field is overridden. */
const sku = (barcode: string, productName: string, extra: Record<string, unknown> = {}) => ({
  ...newSkuPayload(),
  productName,
  barcode,
  brand: 'Northwind Optics',
  category: 'eyewear',
  subCategory: 'sunglasses',
  ...extra,
})

test.describe('Gates before sending', () => {
  test('an empty, a nameless, a barcode-less draft and two sharing a barcode are held back and named; only the sound ones reach the sandbox', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 4)
    // A person's hands: "New SKU" and nothing typed; then drafts a sheet left half-filled.
    await page.getByRole('button', { name: 'New SKU' }).click()
    await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
    await expect(page.getByText('Not sent: Empty')).toBeVisible()
    await putDrafts(page, [
      sku('5000000000001', ''),
      sku('', 'Round Without Barcode'),
      sku('5000000000009', 'Twin Aviator'),
      sku(' 5000000000009', 'Twin Aviator (copy)'),
      sku('5000000000010', 'No Category', { category: '' }),
    ])
    await page.goto('/#/skus')
    await openSync(page)

    const start = page.getByRole('region', { name: 'SKUs to send' })
    await expect(start.getByRole('button', { name: 'Sync 4 drafts to Sandbox' })).toBeVisible()
    const held = start.locator('.sync-start__held')
    await expect(held).toContainText('1 draft empty (nothing filled in)')
    await expect(held).toContainText('2 drafts without a product name or barcode')
    await expect(held).toContainText('2 drafts sharing a barcode with another SKU to be sent')
    await expect(held).toContainText('1 draft missing a field this profile requires')
    await expect(start.locator('.import-counts')).toContainText('Invalid or held back: fix first6')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-gates')

    // One click shows the drafts concerned, in the list, with the filter that found them.
    await held.getByRole('button', { name: /Show them \(sharing a barcode/ }).click()
    const grid = page.getByRole('grid', { name: 'SKU drafts' })
    await expect(page.getByLabel('Held back')).toHaveValue('duplicate')
    await expect(grid.getByRole('row').filter({ hasText: 'Twin Aviator' })).toHaveCount(2)
    await expect(grid.getByRole('row').filter({ hasText: 'Round Without Barcode' })).toHaveCount(0)
    await screenshot(page, 'sync-gates-list')

    // The category is this profile's own requirement: Settings lets it go.
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('checkbox', { name: 'Category', exact: true }).uncheck()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled()
    await openSync(page)
    await expect(start.getByRole('button', { name: 'Sync 5 drafts to Sandbox' })).toBeVisible()

    await start.getByRole('button', { name: 'Sync 5 drafts to Sandbox' }).click()
    await expect(page.getByRole('log')).toContainText(
      '5 drafts held back: 1 empty (nothing filled in), 2 without a product name or barcode, 2 sharing a barcode with another SKU to be sent.',
    )
    await expect(page.getByRole('log')).toContainText('Done: 5 synced', { timeout: 20_000 })
    expect(receivedBarcodes(sandbox).sort()).toEqual(
      [...seeded.map((draft) => draft.barcode), '5000000000010'].sort(),
    )
    const stored = await storedDrafts(page)
    expect(stored.filter((draft) => stateOf(draft) === 'synced')).toHaveLength(5)
    expect(stored.filter((draft) => stateOf(draft) === 'draft')).toHaveLength(5)

    // A draft given a barcode already created there is held back too, naming the draft that has it.
    await putDrafts(page, [sku(seeded[0]!.barcode, 'Same Barcode, New Name')])
    await page.reload()
    await expect(page.locator('.sync-start__held')).toContainText(
      '1 draft with a barcode already created there',
    )
    await expect(start.getByRole('button', { name: 'Nothing to sync to Sandbox' })).toBeVisible()
  })
})
