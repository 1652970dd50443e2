import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { grid, lede, selected, snackbar } from './harness/list-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import { LOADED, startAssetServer, sunsetPng, type AssetServer } from './harness/preview-page.ts'

// "Check assets" in the SKU editor, against real files on a server of the test's own: a textured
// Draco model (CC0, @pmndrs/assets) and a web page where the product photo should be.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const model = readFileSync(join(repoRoot, 'test/fixtures/assets/draco-textured.glb'))

const bulkRequest = JSON.parse(
  readFileSync(join(repoRoot, 'test/fixtures/bulk-upload-request.json'), 'utf8'),
) as {
  skus: Array<Record<string, unknown> & { arEffect: Record<string, unknown> }>
}

let assets: AssetServer
/** Holds every answer for /slow/ files until released: a check that is still going when Cancel is pressed. */
let releaseSlow: () => void = () => {}
let slowGate = Promise.resolve()

// The server stands in for a CDN on this computer, allowed as in preview.spec.ts.
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  const slow = Object.fromEntries(
    Array.from({ length: 40 }, (_, n) => [
      `/slow/${n}.glb`,
      { bytes: model, type: 'model/gltf-binary', wait: () => slowGate },
    ]),
  )
  assets = await startAssetServer({
    '/models/frame.glb': { bytes: model, type: 'model/gltf-binary' },
    // A download cut short, as a failed upload to a CDN leaves it.
    '/models/cut.glb': { bytes: model.subarray(0, Math.floor(model.length / 2)), type: 'model/gltf-binary' },
    '/photos/frame.png': { bytes: Buffer.from('<!doctype html><p>Moved</p>'), type: 'text/html' },
    '/photos/sunset.png': { bytes: sunsetPng(), type: 'image/png' },
    ...slow,
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

/**
 * SKUs as a bulk request names them (the contract's fixture, renamed), each naming a product
 * photo, an environment and one model on the test's server.
 */
function skus(rows: Array<{ name: string; photo?: string; model: string }>) {
  const template = bulkRequest.skus[0]!
  return rows.map(({ name, photo = '/photos/sunset.png', model: modelPath }, n) => ({
    ...template,
    productName: name,
    barcode: String(4_000_000_000_000 + n),
    productImage: `${assets.url}${photo}`,
    arEffect: {
      ...template.arEffect,
      envSettings: {
        ...(template.arEffect.envSettings as object),
        environmentImage: `${assets.url}/photos/sunset.png`,
      },
      effectAssets3D: [{ id: 'frame', url: `${assets.url}${modelPath}` }],
    },
  }))
}

/** Imports these SKUs from a JSON file, as a person would, and opens the list. */
async function importSkus(page: Page, rows: ReturnType<typeof skus>) {
  await page.goto('/#/import')
  await page.getByLabel('Choose a file').setInputFiles({
    name: 'frames.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ skus: rows })),
  })
  await page.getByRole('button', { name: `Import ${rows.length} valid rows` }).click()
  await expect(page.getByRole('heading', { name: `${rows.length} drafts imported` })).toBeVisible()
  await page.goto('/#/skus')
  await expect(page.getByText(`${rows.length} drafts on this computer`)).toBeVisible()
}

const rowNamed = (page: Page, name: RegExp) => grid(page).getByRole('row', { name })

test.describe('Asset checks in the list', () => {
  test('checks the selected drafts, filters by what it found, and the Sync page warns about the failed ones', async ({
    page,
  }) => {
    await importSkus(
      page,
      skus([
        { name: 'Sound Frame', model: '/models/frame.glb' },
        { name: 'Web Page Photo', photo: '/photos/frame.png', model: '/models/frame.glb' },
        { name: 'Cut Model', model: '/models/cut.glb' },
        { name: 'Left Alone', model: '/models/cut.glb' },
      ]),
    )
    await rowNamed(page, /Sound Frame/).click()
    await rowNamed(page, /Web Page Photo/).click({ modifiers: ['ControlOrMeta'] })
    await rowNamed(page, /Cut Model/).click({ modifiers: ['ControlOrMeta'] })
    await expect(selected(page)).toContainText('3 selected')
    // The list's thumbnails come from the same server, through main: once they are in (the photo
    // shown, the web page refused), what follows is the check's own downloads.
    await expect(
      rowNamed(page, /Web Page Photo/).getByRole('img', {
        name: 'Not loaded: a web page (HTML), not a picture',
      }),
    ).toBeVisible()
    await expect
      .poll(() =>
        rowNamed(page, /Sound Frame/)
          .getByRole('img', { name: 'Photo of Sound Frame' })
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBe(64)
    const before = assets.requests.length
    await selected(page).getByRole('button', { name: 'Check assets' }).click()
    await expect(snackbar(page)).toContainText(
      'Assets of 3 drafts checked: 2 with errors, 1 OK. The Asset check filter “With problems” lists them.',
      LOADED,
    )
    // Each file once, however many drafts name it: the model, the cut one, the photo, the web page.
    expect(assets.requests.slice(before).sort()).toEqual(
      ['/models/cut.glb', '/models/frame.glb', '/photos/frame.png', '/photos/sunset.png'].map(
        (path) => `GET ${path}`,
      ),
    )

    // Exact: the editor's "Asset checks" panel is labelled so too, and is still on screen in the
    // instant after Back before the list's page replaces it.
    const filter = page.getByLabel('Asset check', { exact: true })
    await filter.selectOption({ label: 'With problems' })
    await expect(grid(page).getByRole('row')).toHaveCount(3)
    await expect(rowNamed(page, /Web Page Photo/)).toBeVisible()
    await expect(rowNamed(page, /Cut Model/)).toBeVisible()
    await screenshot(page, 'asset-checks-list')
    expect(await axe(page)).toEqual([])
    await filter.selectOption({ label: 'Not checked' })
    await expect(grid(page).getByRole('row')).toHaveCount(2)
    await expect(rowNamed(page, /Left Alone/)).toBeVisible()

    // The editor shows the draft's results, checked from the list.
    await rowNamed(page, /Left Alone/).dblclick()
    await expect(summary(page)).toHaveText(
      'Not checked yet: Check assets downloads each file the SKU names and reads it.',
    )
    await page.goBack()
    await filter.selectOption({ label: 'With errors' })
    await rowNamed(page, /Cut Model/).dblclick()
    await expect(summary(page)).toContainText(': 2 ok, 1 with errors.')
    await expect(panel(page)).toContainText('Model address of 3D asset 1')

    // The pre-flight warns, and sends them all the same.
    await page.getByRole('link', { name: 'Sync' }).click()
    const warning = page.locator('.sync-start__assets')
    await expect(warning).toContainText(
      '2 drafts to send failed their last asset check (a file missing, broken or over a budget). A run sends them all the same',
    )
    await expect(page.getByRole('button', { name: 'Create 4 new on Sandbox' })).toBeEnabled()
    await screenshot(page, 'asset-checks-preflight')
    expect(await axe(page)).toEqual([])
    await warning.getByRole('button', { name: 'Show drafts with asset errors' }).click()
    await expect(page.getByLabel('Asset check', { exact: true })).toHaveValue('error')
    await expect(grid(page).getByRole('row')).toHaveCount(3)
  })

  test('checks the drafts a search matches with progress, and Cancel keeps what was checked', async ({
    page,
  }) => {
    slowGate = new Promise<void>((release) => (releaseSlow = release))
    await importSkus(
      page,
      skus(Array.from({ length: 40 }, (_, n) => ({ name: `Slow Frame ${n}`, model: `/slow/${n}.glb` }))),
    )
    await page.getByLabel('Search SKUs').fill('slow')
    await page.getByLabel('Search SKUs').press('Enter')
    await page.getByRole('button', { name: 'Check their assets' }).click()
    const bar = selected(page)
    await expect(bar).toContainText('Checking assets… 0 of 40 drafts')
    await expect(bar.getByRole('progressbar')).toBeVisible()
    expect(await axe(page)).toEqual([])
    await bar.getByRole('button', { name: 'Cancel' }).click()
    await expect(bar.getByRole('button', { name: 'Stopping…' })).toBeVisible()
    releaseSlow()
    await expect(snackbar(page)).toContainText(/Stopped after the assets of \d+ of 40 drafts/, LOADED)
    const message = (await snackbar(page).textContent()) ?? ''
    const checked = Number(/of (\d+) of 40/.exec(message)?.[1])
    expect(checked).toBeGreaterThan(0)
    expect(checked).toBeLessThan(40)
    await page.getByLabel('Asset check', { exact: true }).selectOption({ label: 'Not checked' })
    await expect(lede(page)).toContainText(`${40 - checked} match`)
  })
})
