import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { PNG } from 'pngjs'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { docsPicture } from './harness/docs-pictures.ts'
import { pageFramesShown } from './harness/preview-page.ts'
import { labelled, newDraft, saved } from './harness/editor-page.ts'

// The try-on view beside the SKU editor (issue #39): the sample glasses on the sample portraits,
// found by the real face-landmark worker, drawn by the preview's worker (Chromium's software
// WebGL), and fitted by hand through the draft's transform fields.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

interface SampleFace {
  id: string
  label: string
  width: number
  marks: { rightPupil: [number, number]; leftPupil: [number, number]; noseBridge: [number, number] }
}
const faces = JSON.parse(readFileSync(join(repoRoot, 'resources/faces/faces.json'), 'utf8')) as SampleFace[]

/**
 * The sample glasses (resources/preview/generate.ts): 0.132 m across the front (end piece to end
 * piece), the bridge bar's middle 8.5 mm above the model's origin, which the try-on puts on the
 * nose bridge.
 */
const FRAME_WIDTH = 0.132
const BRIDGE_BAR_ABOVE_ORIGIN = 0.0085
const PUPILS = 0.063
/**
 * The drawn bridge within 7 mm (at the face's scale) of where the hand marks put it. The marks put
 * the nose bridge on the pupils' line; the try-on anchors on the mesh's point 168, which the model
 * puts about 5 mm above it (measured: 006's 168 is 10 px above its mark, at 107 px between the
 * pupils). Against the worker's own placement, the drawn bridge is within 2 mm (the bar is taken
 * as straight above the origin; the head's nod and tilt move it a little off that line).
 */
const BRIDGE_TOLERANCE = 0.007
const DRAWN_TOLERANCE = 0.002
/**
 * The drawn width within 12 % of the frame's real width at the marked pupils' scale: the face
 * model's pupils are up to 10 % off the hand marks (measured: Luciano's 10 % closer together,
 * 028's 8 % further apart, 001 and 006 within 3 %). Against the worker's own scale, within 3 %
 * (measured within 0.5 %).
 */
const WIDTH_TOLERANCE = 0.12
const DRAWN_WIDTH_TOLERANCE = 0.03
/** A pixel is part of the frame when one of its channels changes by more than this with the frame hidden. */
const CHANGED = 24
/** The face model loads in a worker on a shared two-core machine: seconds, not milliseconds. */
const SLOW = { timeout: 60_000 }

const stageOf = (page: Page) => page.getByRole('application', { name: 'Try-on: the frame on a face' })

/** Waits until the face is found, the model placed, and the worker says it is on screen. */
async function settled(page: Page) {
  const stage = stageOf(page)
  await expect(stage).toHaveAttribute('data-found', 'found', SLOW)
  await expect(stage).toHaveAttribute('data-busy', 'false', SLOW)
  await expect(stage).toHaveAttribute('data-drawn', 'true', SLOW)
  await pageFramesShown(page)
}

/**
 * The stage's pixels, cut from a shot of the whole window (an element's own shot has been caught
 * with the picture's lower part missing under the WebGL canvas in Chromium's software compositor),
 * and the stage's box in the window, in CSS pixels.
 */
async function stagePixels(page: Page, stage: Locator) {
  const box = (await stage.boundingBox())!
  const window = PNG.sync.read(await page.screenshot())
  const ratio = window.width / page.viewportSize()!.width
  const left = Math.ceil(box.x * ratio)
  const top = Math.ceil(box.y * ratio)
  const image = new PNG({
    width: Math.floor(box.width * ratio) - 1,
    height: Math.floor(box.height * ratio) - 1,
  })
  PNG.bitblt(window, image, left, top, image.width, image.height, 0, 0)
  return { image, box, left: left / ratio, top: top / ratio, ratio }
}

/**
 * Which of the stage's pixels the frame changes: two shots of the window, with the frame and with
 * "Show the frame" unticked, compared pixel by pixel.
 */
async function frameChanges(page: Page) {
  const stage = stageOf(page)
  await stage.scrollIntoViewIfNeeded()
  await settled(page)
  const { image: shown, box, left: x0, top: y0, ratio } = await stagePixels(page, stage)
  // Clicked where it is: Playwright's check() would scroll it into view, and the picture with it,
  // and the two shots would no longer line up.
  const toggle = page.getByLabel('Show the frame')
  await toggle.dispatchEvent('click')
  await expect(toggle).not.toBeChecked()
  await settled(page)
  const { image: bare, box: again } = await stagePixels(page, stage)
  expect(again, 'the picture stayed in place').toEqual(box)
  await toggle.dispatchEvent('click')
  await expect(toggle).toBeChecked()
  await settled(page)
  const changed = (x: number, y: number) => {
    const i = (y * shown.width + x) * 4
    const j = (y * bare.width + x) * 4
    return [0, 1, 2].some((c) => Math.abs(shown.data[i + c]! - bare.data[j + c]!) > CHANGED)
  }
  return {
    changed,
    width: Math.min(shown.width, bare.width),
    height: Math.min(shown.height, bare.height),
    box,
    x0,
    y0,
    ratio,
  }
}

/**
 * The frame as drawn, found from the pixels alone: what changes on the picture when the frame is
 * hidden. Returned in the picture's own pixels: the outer left and right of the frame, and the
 * middle of the bridge bar (the changed pixels in the frame's middle columns, between the lenses).
 */
async function drawnFrame(page: Page, face: SampleFace) {
  const { changed, width, height, box, x0, y0, ratio } = await frameChanges(page)
  let left = Infinity
  let right = -Infinity
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!changed(x, y)) continue
      left = Math.min(left, x)
      right = Math.max(right, x)
    }
  }
  expect(right, 'the frame changes pixels on the picture').toBeGreaterThan(left)
  const middle = Math.round((left + right) / 2)
  const bar: number[] = []
  for (let x = middle - 1; x <= middle + 1; x++) {
    for (let y = 0; y < height; y++) if (changed(x, y)) bar.push(y)
  }
  expect(bar.length, 'the bridge bar is drawn between the lenses').toBeGreaterThan(0)
  // From the shot's pixels to the picture's: the stage shows the whole picture across its width.
  const scale = face.width / box.width
  const across = (x: number) => (x / ratio + x0 - box.x) * scale
  const down = (y: number) => (y / ratio + y0 - box.y) * scale
  return {
    left: across(left),
    right: across(right + 1),
    bridge: [across(middle + 0.5), down(bar.reduce((sum, y) => sum + y + 0.5, 0) / bar.length)] as const,
  }
}

/** Share of the stage's pixels that the frame changes. */
async function changedShare(page: Page): Promise<number> {
  const { changed, width, height } = await frameChanges(page)
  let count = 0
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (changed(x, y)) count += 1
  return count / (width * height)
}

const pupilDistance = ({ marks }: SampleFace) =>
  Math.hypot(marks.leftPupil[0] - marks.rightPupil[0], marks.leftPupil[1] - marks.rightPupil[1])

async function openTryOn(page: Page) {
  await newDraft(page)
  await page.getByLabel(labelled('Category')).fill('eyewear')
  await saved(page)
  await page.getByRole('radio', { name: 'Try on' }).check()
  await expect(stageOf(page)).toBeVisible()
}

test.describe('Try on', () => {
  test('puts the sample glasses on each sample face, on the bridge and at the pupils’ scale', async ({
    page,
  }) => {
    test.setTimeout(240_000)
    await openTryOn(page)
    for (const face of faces) {
      await page.getByRole('radio', { name: face.label }).check()
      await settled(page)
      const frame = await drawnFrame(page, face)
      const perMetre = pupilDistance(face) / PUPILS
      // Drawn where the worker says it placed the model's origin (the bar is 8.5 mm above it).
      const stage = stageOf(page)
      const placed = [
        Number(await stage.getAttribute('data-origin-x')),
        Number(await stage.getAttribute('data-origin-y')),
      ]
      const placedPerMetre = Number(await stage.getAttribute('data-pixels-per-metre'))
      const drawnOff = Math.hypot(
        frame.bridge[0] - placed[0]!,
        frame.bridge[1] - (placed[1]! - BRIDGE_BAR_ABOVE_ORIGIN * placedPerMetre),
      )
      expect(
        drawnOff / placedPerMetre,
        `${face.label}: drawn bridge off the placement, in metres`,
      ).toBeLessThan(DRAWN_TOLERANCE)
      expect(
        Math.abs((frame.right - frame.left) / (FRAME_WIDTH * placedPerMetre) - 1),
        `${face.label}: drawn width against the placement's scale`,
      ).toBeLessThan(DRAWN_WIDTH_TOLERANCE)
      const [markX, markY] = face.marks.noseBridge
      const expectedBar = [markX, markY - BRIDGE_BAR_ABOVE_ORIGIN * perMetre]
      const off = Math.hypot(frame.bridge[0] - expectedBar[0]!, frame.bridge[1] - expectedBar[1]!)
      expect(off / perMetre, `${face.label}: bridge off the marked nose bridge, in metres`).toBeLessThan(
        BRIDGE_TOLERANCE,
      )
      const width = frame.right - frame.left
      expect(
        Math.abs(width / (FRAME_WIDTH * perMetre) - 1),
        `${face.label}: drawn width ${width.toFixed(1)} px against ${(FRAME_WIDTH * perMetre).toFixed(1)} px`,
      ).toBeLessThan(WIDTH_TOLERANCE)
    }
    await screenshot(page, 'try-on-view')
    // The README's picture: the try-on beside the form, as the window shows it.
    await docsPicture(page.getByRole('complementary', { name: 'AR preview' }), 'try-on')
    expect(await axe(page)).toEqual([])
  })

  test('moves with Position Y; a nudge key and a drag change the fields, which Ctrl+Z restores', async ({
    page,
  }) => {
    test.setTimeout(120_000)
    await openTryOn(page)
    const face = faces[0]!
    await expect(page.getByRole('radio', { name: face.label })).toBeChecked()
    await settled(page)
    const before = await drawnFrame(page, face)

    // One centimetre up, at the marked pupils' scale.
    await page.getByLabel('Position Y').fill('0.01')
    await saved(page)
    await settled(page)
    const raised = await drawnFrame(page, face)
    // At the face's scale as the worker found it (within 3 % of the hand marks' on this face).
    const stage = stageOf(page)
    const perMetre = Number(await stage.getAttribute('data-pixels-per-metre'))
    expect(Math.abs(perMetre / (pupilDistance(face) / PUPILS) - 1)).toBeLessThan(0.03)
    const expected = 0.01 * perMetre
    const moved = before.bridge[1] - raised.bridge[1]
    // Within a picture pixel and a half (the bar's middle is found from antialiased pixels).
    expect(
      Math.abs(moved - expected),
      `moved ${moved.toFixed(1)} px, expected ${expected.toFixed(1)} px`,
    ).toBeLessThan(1.5)
    expect(Math.abs(raised.bridge[0] - before.bridge[0])).toBeLessThan(1.5)

    // A nudge: ArrowUp on the picture moves it 1 mm up, in the field itself.
    const origin = Number(await stage.getAttribute('data-origin-y'))
    await stage.focus()
    await page.keyboard.press('ArrowUp')
    await expect(page.getByLabel('Position Y')).toHaveValue('0.011')
    await saved(page)
    await settled(page)
    expect(origin - Number(await stage.getAttribute('data-origin-y'))).toBeCloseTo(0.001 * perMetre, 1)
    await page.keyboard.press('Shift+ArrowRight')
    await expect(page.getByLabel('Position X')).toHaveValue('0.005')
    await saved(page)

    // Ctrl+Z takes back the last change: the field and the frame.
    await page.keyboard.press('Control+z')
    await expect(page.getByLabel('Position X')).toHaveValue('0')
    await saved(page)
    await page.keyboard.press('Control+z')
    await expect(page.getByLabel('Position Y')).toHaveValue('0.01')
    await saved(page)
    await settled(page)
    expect(Number(await stage.getAttribute('data-origin-y'))).toBeCloseTo(origin, 3)

    // A drag from the frame's bridge: the frame follows the pointer, in the fields.
    await stage.scrollIntoViewIfNeeded()
    const box = (await stage.boundingBox())!
    const perCss = face.width / box.width
    const from = {
      x: box.x + Number(await stage.getAttribute('data-origin-x')) / perCss,
      y: box.y + Number(await stage.getAttribute('data-origin-y')) / perCss,
    }
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move(from.x + 30, from.y - 20, { steps: 5 })
    await page.mouse.up()
    const metres = (css: number) => (css * perCss) / perMetre
    await expect
      .poll(async () => Number(await page.getByLabel('Position X').inputValue()))
      .toBeCloseTo(metres(30), 3)
    expect(Number(await page.getByLabel('Position Y').inputValue())).toBeCloseTo(0.01 + metres(20), 3)
    await saved(page)
    await settled(page)
    expect(Number(await stage.getAttribute('data-origin-x')) / perCss - (from.x - box.x)).toBeCloseTo(30, 0)
    await page.keyboard.press('Control+z')
    await expect(page.getByLabel('Position X')).toHaveValue('0')
    await expect(page.getByLabel('Position Y')).toHaveValue('0.01')
    expect(await axe(page)).toEqual([])
  })

  test('hides what is behind the head: a frame pushed into it is not drawn', async ({ page }) => {
    test.setTimeout(120_000)
    await openTryOn(page)
    const face = faces[0]!
    await settled(page)
    const drawn = await changedShare(page)
    expect(drawn, 'the frame on the face').toBeGreaterThan(0.02)
    // 8 cm back: inside the head the occluder stands for, so nothing of it is drawn over the face.
    await page.getByLabel('Position Z').fill('-0.08')
    await saved(page)
    await settled(page)
    expect(await changedShare(page), `${face.label}: frame inside the head`).toBeLessThan(drawn / 20)
  })

  test('says it shows eyewear only for another category', async ({ page }) => {
    await newDraft(page)
    await page.getByLabel(labelled('Category')).fill('makeup')
    await page.getByRole('radio', { name: 'Try on' }).check()
    await expect(page.getByTestId('try-on-category')).toHaveText(
      'The try-on shows eyewear only: this SKU’s category is “makeup”.',
    )
    await expect(
      page.getByText(/the app’s reading of the platform’s face anchor, not the platform’s own/),
    ).toBeVisible()
    // No frame is drawn, so none is said to be shown, to show or to move.
    await expect(page.getByTestId('try-on-model')).toHaveCount(0)
    await expect(page.getByRole('checkbox', { name: 'Show the frame' })).toHaveCount(0)
    await expect(page.getByText(/^Drag the frame/)).toHaveCount(0)
    expect(await axe(page)).toEqual([])
  })
})
