import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import { LOADED, startAssetServer, type AssetServer } from './harness/preview-page.ts'

// Settings › Asset budgets: edited, checked as typed, kept by main, and what "Check assets" in the
// editor judges by. The model is a textured Draco GLB (CC0, @pmndrs/assets) on a server of the
// test's own, allowed as in asset-checks.spec.ts.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const model = readFileSync(join(repoRoot, 'test/fixtures/assets/draco-textured.glb'))

let assets: AssetServer
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  assets = await startAssetServer({ '/models/frame.glb': { bytes: model, type: 'model/gltf-binary' } })
})

test.afterAll(async () => {
  await assets.close()
})

const budgetsPanel = (page: Page) => page.getByRole('form', { name: 'Asset budgets' })
const budget = (page: Page, title: string) =>
  budgetsPanel(page).getByRole('group', { name: title, exact: true })

async function openBudgets(page: Page) {
  await page.goto('/#/settings')
  await expect(budget(page, 'Triangles a model').getByLabel('Recommended')).toHaveValue('100000')
}

test.describe('Asset budgets in Settings', () => {
  test('are edited in the units people use, checked as typed, kept by main and restored to the defaults', async ({
    page,
  }) => {
    await openBudgets(page)
    const panel = budgetsPanel(page)
    await expect(panel).toContainText('Shopify')
    await expect(panel).toContainText("Apple's AR Quick Look")
    await expect(panel).toContainText("Google's Scene Viewer")
    const modelSize = budget(page, 'Model size (MB)')
    await expect(modelSize.getByLabel('Recommended')).toHaveValue('15')
    await expect(modelSize.getByLabel('Maximum')).toHaveValue('50')
    await expect(modelSize).toContainText('Default: 15 MB recommended, 50 MB maximum.')

    // A maximum below the recommended is named as typed, and cannot be saved.
    const triangles = budget(page, 'Triangles a model')
    await triangles.getByLabel('Maximum').fill('5000')
    const error = triangles.getByRole('alert')
    await expect(error).toHaveText('Triangles a model: the maximum is below the recommended.')
    await expect(triangles.getByLabel('Maximum')).toHaveAttribute('aria-invalid', 'true')
    await expect(triangles.getByLabel('Maximum')).toHaveAccessibleDescription(
      'Default: 100,000 recommended, 500,000 maximum. Triangles a model: the maximum is below the recommended.',
    )
    const save = panel.getByRole('button', { name: 'Save budgets' })
    await expect(save).toBeDisabled()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-asset-budgets-error')

    // Typed to the end, saved by the keyboard (Enter in a field submits), and kept across a reload.
    await triangles.getByLabel('Recommended').fill('2000')
    await expect(error).toHaveCount(0)
    await modelSize.getByLabel('Recommended').fill('2.5')
    await modelSize.getByLabel('Recommended').press('Enter')
    await expect(panel.getByRole('status')).toContainText('Budgets saved')
    await page.reload()
    await expect(triangles.getByLabel('Recommended')).toHaveValue('2000')
    await expect(triangles.getByLabel('Maximum')).toHaveValue('5000')
    await expect(modelSize.getByLabel('Recommended')).toHaveValue('2.5')
    await screenshot(page, 'settings-asset-budgets')

    // Changes not saved are asked about before leaving.
    await budget(page, 'Draw calls a model').getByLabel('Maximum').fill('40')
    await page.getByRole('link', { name: 'SKUs' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' })
    await expect(ask).toContainText('Draw calls a model of the asset budgets was changed and not saved.')
    await expect(ask).toContainText('To keep it, stay and press “Save budgets”.')
    await ask.getByRole('button', { name: 'Stay to save them' }).click()
    await expect(budget(page, 'Draw calls a model').getByLabel('Maximum')).toHaveValue('40')

    // Restore defaults fills them in; saving keeps them.
    await panel.getByRole('button', { name: 'Restore defaults' }).click()
    await expect(triangles.getByLabel('Recommended')).toHaveValue('100000')
    await expect(budget(page, 'Draw calls a model').getByLabel('Maximum')).toHaveValue('100')
    await expect(panel.getByRole('status')).toHaveText('The defaults are filled in: Save budgets keeps them.')
    await save.click()
    await expect(panel.getByRole('status')).toContainText('Budgets saved')
    await page.reload()
    await expect(triangles.getByLabel('Recommended')).toHaveValue('100000')
    await expect(modelSize.getByLabel('Recommended')).toHaveValue('15')
    // Nothing left unsaved: leaving asks nothing.
    await page.getByRole('link', { name: 'SKUs' }).click()
    await expect(page).toHaveURL(/#\/skus$/)
  })

  // As for a token (settings-first-hour.spec.ts): the page once asked about what it was saving.
  test('being saved, are no question when the page is left, and are kept', async ({ page, heldAnswers }) => {
    await openBudgets(page)
    heldAnswers.hold('setAssetBudgets')
    await budget(page, 'Draw calls a model').getByLabel('Maximum').fill('40')
    await budgetsPanel(page).getByRole('button', { name: 'Save budgets' }).click()
    await heldAnswers.answered('setAssetBudgets')
    await page.getByRole('link', { name: 'SKUs' }).click()
    await expect(page.getByRole('heading', { name: 'SKUs', level: 1 })).toBeVisible()
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    heldAnswers.release('setAssetBudgets')
    await openBudgets(page)
    await expect(budget(page, 'Draw calls a model').getByLabel('Maximum')).toHaveValue('40')
  })

  test('are what Check assets judges by, from the next check on', async ({ page }) => {
    await newDraft(page)
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')
    await page.getByLabel('Model address').fill(`${assets.url}/models/frame.glb`)
    await saved(page)
    const editor = page.url()
    const panel = page.getByRole('region', { name: 'Asset checks' })
    const summary = page.getByTestId('asset-checks-summary')
    await panel.getByRole('button', { name: 'Check assets' }).click()
    await expect(summary).toContainText(': 1 ok.', LOADED)

    await openBudgets(page)
    await budget(page, 'Triangles a model').getByLabel('Recommended').fill('1')
    await budgetsPanel(page).getByRole('button', { name: 'Save budgets' }).click()
    await expect(budgetsPanel(page).getByRole('status')).toContainText('Budgets saved')

    await page.goto(editor)
    await panel.getByRole('button', { name: 'Check assets' }).click()
    await expect(summary).toContainText(': 1 with warnings.', LOADED)
    const item = panel.getByRole('listitem').filter({ has: page.locator('.badge') })
    await expect(item).toContainText('Warning')
    await expect(item).toContainText(/The model has [\d,]+ triangles, over the recommended 1\./)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'asset-budgets-check')
  })
})
