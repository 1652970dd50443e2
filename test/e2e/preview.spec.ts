import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { newDraft, saved } from './harness/editor-page.ts'

// The AR preview beside the SKU editor, in the browser harness: real WebGL (Chromium's software
// renderer), assets through the real main-process loader, and a web server of the test's own.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const sampleGlb = readFileSync(join(repoRoot, 'resources/preview/sample-glasses.glb'))

/** A small warm sunset as an equirectangular PNG: bright orange sky, dark ground. */
function sunsetPng(): Buffer {
  const png = new PNG({ width: 64, height: 32 })
  for (let y = 0; y < 32; y++) {
    for (let x = 0; x < 64; x++) {
      const sky = y < 16
      const i = (y * 64 + x) * 4
      png.data[i] = sky ? 255 : 60
      png.data[i + 1] = sky ? 140 - y * 4 : 40
      png.data[i + 2] = sky ? 40 : 30
      png.data[i + 3] = 255
    }
  }
  return PNG.sync.write(png)
}

interface AssetServer {
  url: string
  requests: string[]
  close(): Promise<void>
}

/** Loopback web server: a missing model, the sample model under another name, a sunset. */
async function startAssetServer(): Promise<AssetServer> {
  const requests: string[] = []
  const sunset = sunsetPng()
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    if (request.url === '/models/aviator.glb') {
      response.writeHead(200, { 'content-type': 'model/gltf-binary', 'content-length': sampleGlb.length })
      response.end(sampleGlb)
    } else if (request.url === '/env/sunset.png') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': sunset.length })
      response.end(sunset)
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('Not Found')
    }
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}

let assets: AssetServer

// The asset server stands in for a CDN on this computer: allowed, as a person testing with files
// served from their own machine would allow it (sku-editor.spec.ts shows the refusal first).
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  assets = await startAssetServer()
})

test.afterAll(async () => {
  await assets.close()
})

const stageOf = (page: Page) => page.getByRole('application', { name: '3D preview of the model' })
const modelCaption = (page: Page) => page.getByTestId('preview-model')
const environmentCaption = (page: Page) => page.getByTestId('preview-environment')
/** Waits until nothing is loading and any frame the last change asked for has been drawn. */
async function settled(page: Page) {
  await expect(stageOf(page)).toHaveAttribute('data-busy', 'false', LOADED)
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const raf = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number })
          .requestAnimationFrame
        raf(() => raf(() => done()))
      }),
  )
}

const framesOf = async (stage: Locator) => Number(await stage.getAttribute('data-frames'))

async function canvasPixels(page: Page): Promise<PNG> {
  return PNG.sync.read(await page.locator('.ar-preview__canvas').screenshot())
}

/** Share of pixels that differ visibly (pixelmatch's default perceptual threshold). */
function changed(before: PNG, after: PNG): number {
  expect([after.width, after.height]).toEqual([before.width, before.height])
  const differing = pixelmatch(before.data, after.data, undefined, before.width, before.height, {
    threshold: 0.1,
  })
  return differing / (before.width * before.height)
}

/** Share of pixels dark enough to be the frame or its shadow, not the light studio backdrop. */
function darkShare(image: PNG): number {
  let dark = 0
  for (let i = 0; i < image.data.length; i += 4) {
    const luma = 0.2126 * image.data[i]! + 0.7152 * image.data[i + 1]! + 0.0722 * image.data[i + 2]!
    if (luma < 110) dark += 1
  }
  return dark / (image.width * image.height)
}

const VISIBLE_CHANGE = 0.005
/** Loads go through main and the GPU is emulated in software: on a busy machine that takes seconds. */
const LOADED = { timeout: 15_000 }

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
          await p.getByRole('switch', { name: 'Use default environment' }).click()
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

  test('without WebGL, says so in words and lists the settings it would apply', async ({ page }) => {
    await page.addInitScript(() => {
      // Typed by hand: the test programme compiles without the DOM library.
      const canvas = (
        globalThis as unknown as {
          HTMLCanvasElement: { prototype: { getContext(type: string, ...rest: unknown[]): unknown } }
        }
      ).HTMLCanvasElement.prototype
      const original = canvas.getContext
      canvas.getContext = function (type: string, ...rest: unknown[]) {
        return type.startsWith('webgl') ? null : original.call(this, type, ...rest)
      }
    })
    await newDraft(page)
    await expect(page.getByRole('alert')).toContainText(
      'The 3D preview needs WebGL, which is not available here.',
    )
    await page.getByLabel('Tone mapping').fill('filmic')
    const settings = page.locator('.ar-preview__settings')
    await expect(settings).toHaveAttribute('open', '')
    await expect(settings).toContainText('Tone mapping')
    await expect(settings).toContainText('Khronos PBR Neutral')
    await expect(settings).toContainText('X 1, Y 1: listed only, the contract does not say what they do')
    await expect(page.getByText('Tone mapping "filmic" is not one the preview knows')).toBeVisible()
    await screenshot(page, 'preview-no-webgl')
    expect(await axe(page)).toEqual([])
  })
})
