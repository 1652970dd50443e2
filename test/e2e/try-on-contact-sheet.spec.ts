import { readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { PNG } from 'pngjs'
import { seedDrafts, type SeededDraft } from '../../bench/seed-drafts.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { docsPicture } from './harness/docs-pictures.ts'
import { bulkButton, grid, lede, selected, selectFirst } from './harness/list-page.ts'
import { startAssetServer, type AssetServer } from './harness/preview-page.ts'

// "Try on" from the list (issue #39): the selected drafts on every sample face, a tile each, drawn
// by one preview worker (Chromium's software WebGL) from the faces the real landmark worker found,
// each tile a link to its draft, and the whole sheet saved as a PNG.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const sampleGlb = readFileSync(join(repoRoot, 'resources/preview/sample-glasses.glb'))

interface SampleFace {
  id: string
  file: string
  label: string
  width: number
  height: number
  marks: { rightPupil: [number, number]; leftPupil: [number, number]; noseBridge: [number, number] }
}
const faces = JSON.parse(readFileSync(join(repoRoot, 'resources/faces/faces.json'), 'utf8')) as SampleFace[]

/** The tiles' width (contact-sheet.ts), each as tall as its face's picture at that width. */
const TILE_WIDTH = 240
/** A pixel is part of the frame when one of its channels differs from the bare picture by more than this. */
const CHANGED = 24
/** The face model loads in a worker on a shared two-core machine, and every tile is drawn in software. */
const SLOW = { timeout: 120_000 }

let assets: AssetServer
/** Opens the slow model's answer: until then its download hangs, as a slow CDN's would. */
let releaseSlow: () => void = () => undefined

// The sample glasses served from this computer, as a CDN would serve a SKU's model.
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  assets = await startAssetServer({
    '/models/frame.glb': { bytes: sampleGlb, type: 'model/gltf-binary' },
    '/models/slow.glb': {
      bytes: sampleGlb,
      type: 'model/gltf-binary',
      wait: () => new Promise<void>((release) => (releaseSlow = release)),
    },
  })
})

test.afterAll(async () => {
  await assets.close()
})

const sheetOf = (page: Page) => page.getByRole('dialog', { name: /^Try on:/ })
const tileOf = (sheet: Locator, draft: SeededDraft, face: SampleFace) =>
  sheet
    .getByTestId('sheet-tile')
    .filter({ has: sheet.page().locator('.sheet-tile__sku', { hasText: draft.productName }) })
    .filter({ has: sheet.page().locator('.sheet-tile__face', { hasText: face.label }) })

/**
 * Where a drawn tile differs from its face's bare picture (fetched from the app and drawn at the
 * tile's size in the page): the share of its pixels that changed and their centre, in the
 * picture's own pixels.
 */
async function frameOnTile(tile: Locator, face: SampleFace) {
  return tile.locator('canvas').evaluate(
    async (element, { file, width, changed }) => {
      // The page's own types, as much of them as is read here (this file is typed for Node).
      interface Pixels {
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray }
        drawImage(image: unknown, x: number, y: number, w: number, h: number): void
      }
      interface Canvas {
        width: number
        height: number
        getContext(kind: '2d'): Pixels
      }
      const page = globalThis as unknown as {
        document: { baseURI: string }
        OffscreenCanvas: new (width: number, height: number) => Canvas
        createImageBitmap(blob: Blob): Promise<unknown>
      }
      const canvas = element as unknown as Canvas
      const response = await fetch(new URL(`./faces/${file}`, page.document.baseURI))
      const bare = new page.OffscreenCanvas(canvas.width, canvas.height).getContext('2d')
      bare.drawImage(await page.createImageBitmap(await response.blob()), 0, 0, canvas.width, canvas.height)
      const before = bare.getImageData(0, 0, canvas.width, canvas.height).data
      const after = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
      let count = 0
      let sumX = 0
      let sumY = 0
      for (let i = 0; i < after.length; i += 4) {
        if (![0, 1, 2].some((c) => Math.abs(after[i + c]! - before[i + c]!) > changed)) continue
        count += 1
        sumX += (i / 4) % canvas.width
        sumY += Math.floor(i / 4 / canvas.width)
      }
      const scale = width / canvas.width
      return {
        share: count / (canvas.width * canvas.height),
        centre: [(sumX / count) * scale, (sumY / count) * scale],
        height: canvas.height,
      }
    },
    { file: face.file, width: face.width, changed: CHANGED },
  )
}

test.describe('Try-on contact sheet', () => {
  test('draws the selected drafts on every sample face, each tile opening its draft, and saves the sheet as a PNG', async ({
    page,
  }) => {
    test.setTimeout(300_000)
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    const model = `${assets.url}/models/frame.glb`
    // Drafts 0–2 eyewear with the sample glasses, 3 jewellery, 4 accessories (with a model, still
    // not eyewear), 5 eyewear without a 3D asset.
    const seeded = await seedDrafts(page, 6, { models: { 0: model, 1: model, 2: model, 4: model, 5: '' } })
    await page.reload()
    await expect(lede(page)).toHaveText('6 drafts on this computer')
    await selectFirst(page, 6)
    await bulkButton(page, 'Try on…').click()

    const sheet = sheetOf(page)
    await expect(sheet).toBeVisible()
    await expect(sheet).toHaveAttribute('data-stage', 'done', SLOW)
    const total = seeded.length * faces.length
    await expect(sheet.getByRole('status')).toHaveText(`${total} tiles drawn.`)
    await expect(sheet.getByTestId('sheet-tile')).toHaveCount(total)
    // A row per draft, its name as the row's header, and the faces' labels across the top.
    for (const face of faces)
      await expect(sheet.getByRole('columnheader', { name: face.label })).toBeVisible()
    for (const draft of seeded)
      await expect(sheet.getByRole('rowheader', { name: draft.productName })).toHaveCount(1)

    const eyewearWithModel = seeded.filter((draft) => [0, 1, 2].includes(draft.index))
    for (const draft of seeded) {
      for (const face of faces) {
        const tile = tileOf(sheet, draft, face)
        await expect(tile, `${draft.productName} on ${face.label}`).toHaveCount(1)
        if (eyewearWithModel.includes(draft)) {
          await expect(tile).toHaveAttribute('data-state', 'drawn')
          // The frame is drawn on the face, around the marked nose bridge: the placement is the
          // try-on view's (its pixel test holds it to the marks closely; a tile is a small copy).
          const drawn = await frameOnTile(tile, face)
          expect(drawn.share, `${draft.productName} on ${face.label}: the frame's share`).toBeGreaterThan(
            0.01,
          )
          const [x, y] = face.marks.noseBridge
          const off = Math.hypot(drawn.centre[0]! - x, drawn.centre[1]! - y)
          expect(off / face.width, `${face.label}: the frame's centre off the nose bridge`).toBeLessThan(0.06)
          expect(drawn.height).toBe(Math.round((TILE_WIDTH * face.height) / face.width))
        } else {
          await expect(tile).toHaveAttribute('data-state', 'message')
        }
      }
    }
    const says = (index: number, text: string) =>
      expect(tileOf(sheet, seeded[index]!, faces[0]!)).toContainText(text)
    await says(3, 'Eyewear only: this SKU’s category is “jewellery”.')
    await says(4, 'Eyewear only: this SKU’s category is “accessories”.')
    await says(5, 'No 3D model: this SKU has no 3D asset.')
    await screenshot(page, 'try-on-contact-sheet')
    await docsPicture(page, 'try-on-contact-sheet')
    expect(await axe(page)).toEqual([])

    // Save as picture: one PNG of the whole sheet, a row per draft and a column per face.
    const downloading = page.waitForEvent('download')
    await sheet.getByRole('button', { name: 'Save as picture' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('try-on-contact-sheet.png')
    const bytes = await readFile((await download.path())!)
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const picture = PNG.sync.read(bytes)
    const tallest = Math.max(...faces.map((face) => Math.round((TILE_WIDTH * face.height) / face.width)))
    expect(picture.width).toBeGreaterThanOrEqual(faces.length * TILE_WIDTH)
    expect(picture.width).toBeLessThan(faces.length * TILE_WIDTH + 400)
    expect(picture.height).toBeGreaterThanOrEqual(seeded.length * tallest)
    expect(picture.height).toBeLessThan(seeded.length * (tallest + 20) + 200)
    expect(bytes.length, 'the tiles are in it, not a blank page').toBeGreaterThan(100_000)

    // A tile is a link to its draft's editor, from the keyboard too.
    const first = seeded[0]!
    const tile = tileOf(sheet, first, faces[1]!)
    await tile.focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`#/skus/${first.id}$`))
    await expect(page.getByRole('heading', { level: 1 })).toContainText(first.productName)
    await expect(sheet).toHaveCount(0)
  })

  test('counts the tiles as they are drawn, and Cancel stops before the next', async ({ page }) => {
    test.setTimeout(180_000)
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    // Two eyewear drafts: the first's model answers at once, the second's hangs until released.
    const seeded = await seedDrafts(page, 2, {
      models: { 0: `${assets.url}/models/frame.glb`, 1: `${assets.url}/models/slow.glb` },
    })
    await page.reload()
    await selectFirst(page, 2)
    await bulkButton(page, 'Try on…').click()
    const sheet = sheetOf(page)
    const total = 2 * faces.length
    await expect(sheet.getByRole('status')).toHaveText(`Drawing… ${faces.length} of ${total} tiles`, SLOW)
    await expect(sheet.getByRole('progressbar', { name: 'Tiles drawn' })).toHaveAttribute(
      'value',
      String(faces.length),
    )
    await sheet.getByRole('button', { name: 'Cancel' }).click()
    releaseSlow()
    await expect(sheet).toHaveAttribute('data-stage', 'cancelled', SLOW)
    await expect(sheet.getByRole('status')).toHaveText(`Cancelled: ${faces.length} of ${total} tiles drawn.`)
    for (const face of faces) {
      await expect(tileOf(sheet, seeded[0]!, face)).toHaveAttribute('data-state', 'drawn')
      await expect(tileOf(sheet, seeded[1]!, face)).toHaveAttribute('data-state', 'waiting')
    }
    await expect(sheet.getByRole('button', { name: 'Cancel' })).toHaveCount(0)
  })

  test('shows at most 50 drafts, and says so', async ({ page }) => {
    test.setTimeout(120_000)
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    // No 3D asset on any: every tile says so at once, and the cap is what is tested.
    const models = Object.fromEntries(Array.from({ length: 53 }, (_, i) => [i, '']))
    await seedDrafts(page, 53, { models })
    await page.reload()
    await expect(lede(page)).toHaveText('53 drafts on this computer')
    await selectFirst(page, 1)
    await page.keyboard.press('Control+a')
    await expect(selected(page)).toContainText('53 selected')
    await bulkButton(page, 'Try on…').click()
    const sheet = sheetOf(page)
    await expect(sheet).toHaveAttribute('data-stage', 'done', SLOW)
    await expect(sheet).toContainText('the first 50 of 53 drafts: a sheet shows at most 50.')
    await expect(sheet.getByRole('heading', { name: 'Try on: 50 drafts on the sample faces' })).toBeVisible()
    await expect(sheet.getByTestId('sheet-tile')).toHaveCount(50 * faces.length)
    await sheet.getByRole('button', { name: 'Close' }).click()
    await expect(sheet).toBeHidden()
    await expect(grid(page)).toBeVisible()
  })
})
