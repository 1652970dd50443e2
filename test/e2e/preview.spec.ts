import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import type { PNG } from 'pngjs'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import {
  canvasPixels,
  changed,
  environmentCaption,
  framesOf,
  LOADED,
  modelCaption,
  settled,
  stageOf,
  startAssetServer,
  sunsetPng,
  VISIBLE_CHANGE,
  type AssetServer,
} from './harness/preview-page.ts'

// The AR preview beside the SKU editor, in the browser harness: real WebGL (Chromium's software
// renderer), assets through the real main-process loader, and a web server of the test's own.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const sampleGlb = readFileSync(join(repoRoot, 'resources/preview/sample-glasses.glb'))

/** Loopback web server: the sample model under another name, a sunset; anything else is missing. */
const startServer = () =>
  startAssetServer({
    '/models/aviator.glb': { bytes: sampleGlb, type: 'model/gltf-binary' },
    '/env/sunset.png': { bytes: sunsetPng(), type: 'image/png' },
  })

let assets: AssetServer

// The asset server stands in for a CDN on this computer: allowed, as a person testing with files
// served from their own machine would allow it (sku-editor.spec.ts shows the refusal first).
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  assets = await startServer()
})

test.afterAll(async () => {
  await assets.close()
})

/** Share of pixels dark enough to be the frame or its shadow, not the light studio backdrop. */
function darkShare(image: PNG): number {
  let dark = 0
  for (let i = 0; i < image.data.length; i += 4) {
    const luma = 0.2126 * image.data[i]! + 0.7152 * image.data[i + 1]! + 0.0722 * image.data[i + 2]!
    if (luma < 110) dark += 1
  }
  return dark / (image.width * image.height)
}

test.describe('AR preview', () => {
  test('follows the draft’s AR settings live, and nothing else', async ({ page }) => {
    test.setTimeout(90_000)
    await newDraft(page)
    const stage = stageOf(page)
    await expect(modelCaption(page)).toHaveText(
      'Showing the sample glasses: this SKU has no 3D asset yet.',
      LOADED,
    )
    await expect(environmentCaption(page)).toHaveText(
      'Lit by the default studio: the SKU has no environment image.',
      LOADED,
    )
    await settled(page)
    let before = await canvasPixels(page)
    // Never a blank box: the glasses are on screen.
    expect(darkShare(before)).toBeGreaterThan(0.01)
    await screenshot(page, 'preview-editor-sample')

    let brandEdits = 0
    /** Editing a field the preview does not read draws nothing and changes no pixel. */
    async function brandChangesNothing() {
      const frames = await framesOf(stage)
      brandEdits += 1
      await page.getByLabel('Brand').fill(`Northwind Optics ${brandEdits}`)
      await saved(page)
      await settled(page)
      expect(await framesOf(stage), 'frames drawn after editing Brand').toBe(frames)
      expect(changed(before, await canvasPixels(page)), 'pixels changed by editing Brand').toBe(0)
    }
    await brandChangesNothing()

    const edits: Array<[string, (page: Page) => Promise<void>]> = [
      ['Position Y', (p) => p.getByLabel('Position Y').fill('0.02')],
      ['Rotation Y', (p) => p.getByLabel('Rotation Y').fill('35')],
      ['Tone mapping', (p) => p.getByLabel('Tone mapping').fill('agx')],
      ['Shadow intensity', (p) => p.getByLabel('Shadow intensity').fill('1')],
      ['Intensity', (p) => p.getByLabel('Intensity', { exact: true }).fill('2.5')],
      [
        'Environment image',
        async (p) => {
          await p.getByLabel('Environment image').fill(`${assets.url}/env/sunset.png`)
          await expect(environmentCaption(p)).toHaveText(
            'Lit by sunset.png, the SKU’s environment image.',
            LOADED,
          )
        },
      ],
      [
        'Use default environment',
        async (p) => {
          await p.getByRole('combobox', { name: 'Use default environment' }).selectOption({ label: 'On' })
          await expect(environmentCaption(p)).toHaveText(
            'Lit by the default studio: “Use default environment” is Yes, so the environment image is not used.',
            LOADED,
          )
        },
      ],
    ]
    for (const [field, edit] of edits) {
      await edit(page)
      await settled(page)
      const after = await canvasPixels(page)
      expect(changed(before, after), `pixels changed by ${field}`).toBeGreaterThan(VISIBLE_CHANGE)
      before = after
      await brandChangesNothing()
    }
    await screenshot(page, 'preview-editor-settings')
    expect(assets.requests.filter((request) => request.includes('sunset'))).toEqual(['GET /env/sunset.png'])
  })

  test('shows the SKU’s 3D asset, and the sample with the reason when it cannot be loaded', async ({
    page,
  }) => {
    await newDraft(page)
    await expect(modelCaption(page)).toContainText('this SKU has no 3D asset yet', LOADED)
    await page.getByRole('button', { name: 'Add 3D asset' }).click()
    await page.getByLabel('Asset ID').fill('frame')
    await page.getByLabel('Model address').fill(`${assets.url}/missing/frame.glb`)
    await expect(modelCaption(page)).toHaveText(
      `Showing the sample glasses: the SKU’s 3D asset could not be loaded — Could not load ${assets.url}/missing/frame.glb: the server answered HTTP 404 (Not Found)`,
      LOADED,
    )
    await settled(page)
    expect(darkShare(await canvasPixels(page)), 'the sample glasses are drawn').toBeGreaterThan(0.01)
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible()
    await screenshot(page, 'preview-asset-missing')

    // Typed a character at a time: fetched once, when the typing pauses, not for every prefix.
    const address = page.getByLabel('Model address')
    await address.fill('')
    await address.pressSequentially(`${assets.url}/models/aviator.glb`)
    await expect(modelCaption(page)).toHaveText(
      'Showing aviator.glb (asset “frame”), the SKU’s first 3D asset.',
    )
    await settled(page)
    expect(darkShare(await canvasPixels(page))).toBeGreaterThan(0.01)
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0)
    const aviator = assets.requests.filter((request) => request.includes('aviator'))
    expect(aviator.filter((request) => request === 'GET /models/aviator.glb')).toHaveLength(1)
    // A stalled machine may pause half a second between two keys and fetch that prefix; never one a key.
    expect(aviator.length).toBeLessThanOrEqual(2)
    await screenshot(page, 'preview-asset-loaded')
    expect(await axe(page)).toEqual([])
  })

  test('turns and zooms with the keyboard, and Reset view brings the framing back', async ({ page }) => {
    await newDraft(page)
    await expect(modelCaption(page)).toContainText('Showing the sample glasses', LOADED)
    await settled(page)
    const framed = await canvasPixels(page)

    const stage = stageOf(page)
    await stage.focus()
    await page.keyboard.press('ArrowRight')
    await settled(page)
    expect(changed(framed, await canvasPixels(page)), 'turned by ArrowRight').toBeGreaterThan(VISIBLE_CHANGE)
    await page.keyboard.press('+')
    await page.keyboard.press('ArrowUp')
    await settled(page)
    expect(changed(framed, await canvasPixels(page))).toBeGreaterThan(VISIBLE_CHANGE)

    await page.getByRole('button', { name: 'Reset view' }).click()
    await settled(page)
    expect(changed(framed, await canvasPixels(page)), 'back to the first framing').toBeLessThan(0.001)
  })

  test('turns with the mouse and zooms with the wheel, without scrolling the page', async ({ page }) => {
    await newDraft(page)
    await expect(modelCaption(page)).toContainText('Showing the sample glasses', LOADED)
    await settled(page)
    const framed = await canvasPixels(page)
    const box = (await stageOf(page).boundingBox())!
    const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 }

    // A drag that ends outside the canvas still turns the model: the page holds the pointer.
    await page.mouse.move(middle.x, middle.y)
    await page.mouse.down()
    await page.mouse.move(middle.x + box.width * 0.4, middle.y, { steps: 4 })
    await page.mouse.move(box.x + box.width + 40, middle.y, { steps: 2 })
    await page.mouse.up()
    await settled(page)
    const turned = await canvasPixels(page)
    expect(changed(framed, turned), 'turned by dragging').toBeGreaterThan(VISIBLE_CHANGE)

    const scrolled = () => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)
    const scrollBefore = await scrolled()
    await page.mouse.move(middle.x, middle.y)
    await page.mouse.wheel(0, -400)
    await settled(page)
    expect(changed(turned, await canvasPixels(page)), 'zoomed by the wheel').toBeGreaterThan(VISIBLE_CHANGE)
    expect(await scrolled(), 'the page did not scroll').toBe(scrollBefore)

    await page.getByRole('button', { name: 'Reset view' }).click()
    await settled(page)
    expect(changed(framed, await canvasPixels(page)), 'back to the first framing').toBeLessThan(0.001)
  })

  test('a model placed out of view says so, and Frame it brings it back into view', async ({ page }) => {
    await newDraft(page)
    await expect(modelCaption(page)).toContainText('Showing the sample glasses', LOADED)
    await settled(page)
    const outOfView = page.getByTestId('preview-out-of-view')
    await expect(outOfView).toHaveCount(0)

    // A position in centimetres typed where the contract's unit reads as metres: 40 m to the side.
    await page.getByLabel('Position X').fill('40')
    await expect(outOfView).toHaveText(
      'The model is out of view: the SKU’s position or rotation puts it outside the camera’s view.',
    )
    await settled(page)
    expect(darkShare(await canvasPixels(page)), 'nothing of the glasses is drawn').toBeLessThan(0.001)
    await screenshot(page, 'preview-out-of-view')

    await page.getByRole('button', { name: 'Frame it' }).click()
    await expect(outOfView).toHaveCount(0)
    await settled(page)
    expect(darkShare(await canvasPixels(page)), 'the glasses are drawn where they are').toBeGreaterThan(0.01)
    // The new framing is the one Reset view returns to, and the position is as the SKU says.
    await page.getByRole('button', { name: 'Reset view' }).click()
    await settled(page)
    await expect(outOfView).toHaveCount(0)
    await expect(page.getByLabel('Position X')).toHaveValue('40')
    expect(await axe(page)).toEqual([])
  })
})
