import type { Page } from '@playwright/test'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { lede, selected, snackbar } from './harness/list-page.ts'
import { openSync } from './harness/sync-page.ts'
import { seedForSync } from './harness/sync-setup.ts'
import { putDrafts, storedDrafts, type StoredDraft } from './harness/stored-drafts.ts'

/**
 * Issue #38: bulk edits reach every field a sheet holds, the 3D asset's address included, and sent
 * drafts too; find and replace moves a catalogue's models to another CDN in one undoable step; a
 * barcode or product name changes in bulk only after a question naming the risk and the count.
 */

const COUNT = 1000
const OLD_CDN = 'https://old-cdn.example.com/'
const NEW_CDN = 'https://cdn.example.net/'

/** Draft i's model, on the old CDN. */
const modelPath = (i: number) => `models/${String(i).padStart(4, '0')}/frame.glb`

/** 1,000 drafts (no photo), each with one model on the old CDN, written straight into the page's IndexedDB. */
async function openCatalogue(page: Page): Promise<string[]> {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const payloads = Array.from({ length: COUNT }, (_, i) => {
    const payload = newSkuPayload()
    return {
      ...payload,
      productName: `Aviator ${String(i).padStart(4, '0')}`,
      brand: 'Northwind Optics',
      barcode: String(4_006_381_000_000 + i),
      category: 'eyewear',
      subCategory: 'sunglasses',
      arEffect: { ...payload.arEffect, effectAssets3D: [{ id: 'frame', url: OLD_CDN + modelPath(i) }] },
    }
  })
  const ids = await putDrafts(page, payloads)
  await page.reload()
  await expect(lede(page)).toHaveText('1,000 drafts on this computer')
  return ids
}

const modelOf = (draft: StoredDraft) =>
  (draft.payload.arEffect as { effectAssets3D: { url: string }[] }).effectAssets3D[0]!.url

/** The model address the editor shows for draft `id`, as a person would read it. */
async function editorModel(page: Page, id: string): Promise<string> {
  await page.goto(`/#/skus/${id}`)
  const field = page.getByLabel('Model address')
  await expect(field).toBeVisible()
  return field.inputValue()
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Find and replace' })

test.describe('Find and replace within a field', () => {
  test('moves 1,000 drafts’ models to a new CDN: preview, apply, undo in one step', async ({ page }) => {
    // A thousand drafts written, read back and opened in the editor twice: more than one default's worth.
    test.setTimeout(90_000)
    const ids = await openCatalogue(page)

    // Nothing selected: it works over every draft the list shows, and says so.
    await page.getByRole('button', { name: 'Find and replace…' }).click()
    const form = dialog(page)
    await expect(form).toContainText('In all 1,000 drafts')
    await expect(form.getByLabel('Field')).toHaveValue('arEffect.effectAssets3D.0.url')
    await form.getByLabel('Find').fill(OLD_CDN)
    await form.getByLabel('Replace with').fill(NEW_CDN)
    await form.getByLabel(/Only at the start/).check()
    // Enter previews: nothing is written before the count and the first changes are shown.
    await form.getByLabel('Replace with').press('Enter')
    await expect(form.getByRole('status')).toHaveText('1,000 drafts will change; the first 5 are below.')
    const rows = form.getByRole('table').getByRole('row')
    await expect(rows).toHaveCount(6)
    await expect(rows.nth(1)).toContainText(OLD_CDN + 'models/')
    await expect(rows.nth(1)).toContainText(NEW_CDN + 'models/')
    expect((await storedDrafts(page)).every((draft) => modelOf(draft).startsWith(OLD_CDN))).toBe(true)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'find-replace-preview')

    // A text nowhere in the field: nothing to replace, and nothing can be applied.
    await form.getByLabel('Find').fill('https://nowhere.example/')
    await form.getByRole('button', { name: 'Preview' }).click()
    await expect(form.getByRole('status')).toHaveText(
      'No draft’s Model address of 3D asset 1 starts with “https://nowhere.example/”: nothing to replace.',
    )
    await expect(form.getByRole('button', { name: /^Replace in/ })).toHaveAttribute('aria-disabled', 'true')

    await form.getByLabel('Find').fill(OLD_CDN)
    await form.getByRole('button', { name: 'Preview' }).click()
    await form.getByRole('button', { name: 'Replace in 1,000 drafts' }).click()
    await expect(form).toBeHidden()
    await expect(snackbar(page)).toContainText('Model address of 3D asset 1 changed on 1,000 drafts.')

    const moved = new Map((await storedDrafts(page)).map((draft) => [draft.id, modelOf(draft)]))
    expect([...moved.values()].filter((url) => url.startsWith(NEW_CDN))).toHaveLength(COUNT)
    for (const i of [0, 417, 999]) expect(await editorModel(page, ids[i]!)).toBe(NEW_CDN + modelPath(i))

    // One action in the history, undone in one step: every model back where it was.
    await page.goto('/#/skus')
    await expect(lede(page)).toHaveText('1,000 drafts on this computer')
    await page.getByRole('button', { name: 'History' }).click()
    const history = page.getByRole('dialog', { name: /history/i })
    await expect(history.locator('.undo-history__item')).toHaveCount(1)
    await expect(history).toContainText(
      `Replaced “${OLD_CDN}” with “${NEW_CDN}” at the start of Model address of 3D asset 1 on 1,000 drafts`,
    )
    await page.keyboard.press('Escape')
    await expect(history).toBeHidden()
    await page.keyboard.press('Control+z')
    await expect(snackbar(page)).toContainText('1,000 drafts restored.')
    const back = await storedDrafts(page)
    expect(back.filter((draft) => modelOf(draft).startsWith(OLD_CDN))).toHaveLength(COUNT)
    for (const i of [0, 417, 999]) expect(await editorModel(page, ids[i]!)).toBe(OLD_CDN + modelPath(i))
  })
})

test.describe('Bulk edits of sent drafts and of what identifies a product', () => {
  test('setting the model address on drafts created on the Sandbox makes them changed since sent there', async ({
    page,
    pageProblems,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 3)
    await openSync(page)
    await page
      .getByRole('region', { name: 'SKUs to send' })
      .getByRole('button', { name: 'Create 3 new on Sandbox' })
      .click()
    await expect(page.getByRole('log')).toContainText('Done: 3 synced, 0 rejected, 0 failed, 0 unknown.', {
      timeout: 20_000,
    })

    await page.goto('/#/skus')
    await page.getByRole('grid', { name: 'SKUs' }).getByRole('row').nth(1).click()
    await page.keyboard.press('Control+a')
    await expect(selected(page)).toContainText('3 selected')
    await selected(page).getByRole('button', { name: 'Set field…' }).click()
    const setField = page.getByRole('dialog', { name: 'Set a field on 3 drafts' })
    await expect(setField).toContainText('Drafts already sent change too')
    await setField.getByLabel('Field').selectOption({ label: 'Model address of 3D asset 1' })
    await setField.getByLabel('New value').fill(`${NEW_CDN}models/frame.glb`)
    expect(await axe(page)).toEqual([])
    await setField.getByRole('button', { name: 'Set Model address of 3D asset 1' }).click()
    await expect(snackbar(page)).toContainText(
      'Model address of 3D asset 1 set on 3 drafts. 3 drafts sent before are now changed since sent: the Sync page offers them as updates.',
    )

    await page.goto(`/#/skus/${seeded[1]!.id}`)
    await expect(page.locator('.sent-banner')).toContainText(
      'Changed since it was created on Sandbox: Update sends the changed fields.',
    )
    await openSync(page)
    const updates = page.getByRole('region', { name: 'Changed since created on Sandbox' })
    await expect(updates).toContainText('3 SKUs created on Sandbox changed since')
    await expect(updates.getByRole('button', { name: 'Update 3 changed on Sandbox' })).toBeEnabled()
  })

  test('a bulk barcode asks first, naming the risk and the count, and a no changes nothing', async ({
    page,
    pageProblems,
  }) => {
    await seedForSync(page, pageProblems, 12)
    const before = (await storedDrafts(page)).map((draft) => draft.barcode)
    await page.getByRole('grid', { name: 'SKUs' }).getByRole('row').nth(1).click()
    await page.keyboard.press('Control+a')
    await expect(selected(page)).toContainText('12 selected')
    await selected(page).getByRole('button', { name: 'Set field…' }).click()
    const setField = page.getByRole('dialog', { name: 'Set a field on 12 drafts' })
    await setField.getByLabel('Field').selectOption({ label: 'Barcode' })
    await setField.getByLabel('New value').fill('4006381333931')
    await setField.getByRole('button', { name: 'Set Barcode' }).click()

    const question = page.getByRole('alertdialog', { name: 'Set the barcode of 12 drafts to one value?' })
    await expect(question).toContainText('Barcodes identify products')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'bulk-barcode-question')
    // Focus starts on Cancel: Enter declines.
    await page.keyboard.press('Enter')
    await expect(question).toBeHidden()
    await expect(snackbar(page)).toBeHidden()
    expect((await storedDrafts(page)).map((draft) => draft.barcode)).toEqual(before)
  })
})
