import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import { LOADED, startAssetServer, type AssetServer } from './harness/preview-page.ts'

// "Check assets" in the SKU editor, against real files on a server of the test's own: a textured
// Draco model (CC0, @pmndrs/assets) and a web page where the product photo should be.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const model = readFileSync(join(repoRoot, 'test/fixtures/assets/draco-textured.glb'))

let assets: AssetServer

// The server stands in for a CDN on this computer, allowed as in preview.spec.ts.
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  assets = await startAssetServer({
    '/models/frame.glb': { bytes: model, type: 'model/gltf-binary' },
    '/photos/frame.png': { bytes: Buffer.from('<!doctype html><p>Moved</p>'), type: 'text/html' },
  })
})

test.afterAll(async () => {
  await assets.close()
})

const summary = (page: Page) => page.getByTestId('asset-checks-summary')
const panel = (page: Page) => page.getByRole('region', { name: 'Asset checks' })

test.describe('Asset checks in the editor', () => {
  test('checks the files a draft names, keeps what it found, and says when the addresses changed', async ({
    page,
  }) => {
    await newDraft(page)
    await expect(summary(page)).toHaveText('The SKU names no files to check yet.')
    await expect(panel(page).getByRole('button', { name: 'Check assets' })).toBeDisabled()

    await page.getByLabel('Product image').fill(`${assets.url}/photos/frame.png`)
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')
    await page.getByLabel('Model address').fill(`${assets.url}/models/frame.glb`)
    await saved(page)
    await expect(summary(page)).toHaveText(
      'Not checked yet: Check assets downloads each file the SKU names and reads it.',
    )

    await panel(page).getByRole('button', { name: 'Check assets' }).click()
    await expect(summary(page)).toContainText(': 1 ok, 1 with errors.', LOADED)
    const items = panel(page)
      .getByRole('listitem')
      .filter({ has: page.locator('.badge') })
    await expect(items).toHaveCount(2)
    await expect(items.nth(0)).toContainText('Error')
    await expect(items.nth(0)).toContainText('Product image')
    await expect(items.nth(0)).toContainText('It is a web page (HTML), not a picture.')
    await expect(items.nth(1)).toContainText('OK')
    await expect(items.nth(1)).toContainText('Model address of 3D asset 1')
    await screenshot(page, 'asset-checks-editor')
    expect(await axe(page)).toEqual([])

    // Kept with the draft: there after a reload.
    await page.reload()
    await expect(summary(page)).toContainText(': 1 ok, 1 with errors.', LOADED)

    // Another model address: the check no longer describes the draft, and says so.
    await page.getByLabel('Model address').fill(`${assets.url}/models/other.glb`)
    await expect(summary(page)).toContainText('The SKU’s file addresses changed since the check of')
    await panel(page).getByRole('button', { name: 'Check assets' }).click()
    await expect(summary(page)).toContainText(': 2 with errors.', LOADED)
    await expect(panel(page)).toContainText('the server answered HTTP 404 (Not Found)')
  })
})
