import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import {
  FAKE_DEVICES,
  FAKE_YES,
  fakeCameraVideo,
  launchWith,
  openTryOnPicker,
  trackStates,
} from './harness/fake-camera.ts'

// The try-on's live camera (issue #39), with Chromium's fake device playing a sample portrait: off
// until the person turns it on, on after (a live video track, shown in the picker), off again when
// the view is left or the camera turned off. What the person reads when the camera is refused or
// missing: try-on-camera-denied.spec.ts and try-on-no-camera.spec.ts (the browser's flags are a
// file's). Main's permission handler, which decides in the app, has its unit tests
// (test/unit/main/permissions.test.ts); here Chromium's flags stand in for it.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The fake camera shows a sample portrait (400 × 400), made into a .y4m when the tests load. */
const CAMERA_VIDEO = fakeCameraVideo(join(repoRoot, 'resources/faces/luciano.png'))
const CAMERA_SIZE = 400
/** The portrait's hand marks (resources/faces/faces.json): its nose bridge, and its pixels a millimetre. */
const { marks } = (
  JSON.parse(readFileSync(join(repoRoot, 'resources/faces/faces.json'), 'utf8')) as Array<{
    id: string
    marks: Record<'rightPupil' | 'leftPupil' | 'noseBridge', [number, number]>
  }>
).find((face) => face.id === 'luciano')!
const CAMERA_BRIDGE = marks.noseBridge
const CAMERA_MM =
  Math.hypot(marks.leftPupil[0] - marks.rightPupil[0], marks.leftPupil[1] - marks.rightPupil[1]) / 63
/** The editor, the try-on and a camera on a shared two-core machine: ceilings, never pauses. */
const SLOW = { timeout: 30_000 }

test.use({
  launchOptions: launchWith([FAKE_DEVICES, FAKE_YES, `--use-file-for-fake-video-capture=${CAMERA_VIDEO}`]),
})

test.describe('the try-on camera', () => {
  test.beforeEach(() => test.setTimeout(120_000))

  test('is off until turned on, live after, and stopped when the view is left', async ({
    page,
    cameraAllowed,
  }) => {
    const picker = await openTryOnPicker(page)
    const camera = picker.getByRole('figure').getByLabel('Camera')

    // Off: nothing asked of the camera, nor of main.
    await expect(picker.getByRole('button', { name: 'Turn camera on' })).toBeVisible()
    await expect(camera).toBeHidden()
    expect(await trackStates(page)).toEqual([])
    expect(cameraAllowed.count).toBe(0)
    expect(await axe(page, { include: '.face-picker' })).toEqual([])

    // On: main told first, then one live video track, playing the portrait the fake camera shows.
    await picker.getByRole('button', { name: 'Turn camera on' }).click()
    await expect(picker.getByRole('figure', { name: 'Camera on', exact: true })).toBeVisible(SLOW)
    expect(await trackStates(page)).toEqual(['video live'])
    expect(cameraAllowed.count).toBe(1)
    expect(
      await camera.evaluate((element) => {
        // Typed by hand: the test programme compiles without the DOM library.
        const video = element as unknown as { videoWidth: number; videoHeight: number; paused: boolean }
        return [video.videoWidth, video.videoHeight, video.paused]
      }),
    ).toEqual([CAMERA_SIZE, CAMERA_SIZE, false])
    await expect(picker.getByRole('button', { name: 'Turn camera off' })).toBeVisible()
    expect(await axe(page, { include: '.face-picker' })).toEqual([])
    // The view tries the frame on the camera's face: placed at the portrait's nose bridge (mesh 168
    // sits a few mm above the marks on the pupils' line: within 12 mm, at the pupils' 63 mm).
    const stage = page.getByRole('application', { name: 'Try-on: the frame on a face' })
    const placedOff = async () => {
      const [x, y] = await Promise.all(['x', 'y'].map((axis) => stage.getAttribute(`data-origin-${axis}`)))
      if (!x || !y) return Infinity
      return Math.hypot(Number(x) - CAMERA_BRIDGE[0], Number(y) - CAMERA_BRIDGE[1]) / CAMERA_MM
    }
    await expect.poll(placedOff, SLOW).toBeLessThan(12)
    await screenshot(page, 'try-on-camera')

    // Leaving the try-on for the studio preview stops the camera.
    await page.getByRole('radio', { name: 'Studio' }).check()
    await expect(picker).toBeHidden()
    await expect.poll(() => trackStates(page), SLOW).toEqual(['video ended'])
  })

  test('turned off, it stops and the chosen picture comes back; the next click asks again', async ({
    page,
    cameraAllowed,
  }) => {
    const picker = await openTryOnPicker(page)
    const sample = picker.getByRole('radio').nth(1)
    await sample.check()
    await picker.getByRole('button', { name: 'Turn camera on' }).click()
    await expect(picker.getByRole('figure', { name: 'Camera on', exact: true })).toBeVisible(SLOW)

    await picker.getByRole('button', { name: 'Turn camera off' }).click()
    await expect.poll(() => trackStates(page), SLOW).toEqual(['video ended'])
    await expect(picker.getByRole('figure')).toBeHidden()
    await expect(sample).toBeChecked()

    // Choosing a picture while the camera is on turns it off as well.
    await picker.getByRole('button', { name: 'Turn camera on' }).click()
    await expect(picker.getByRole('figure', { name: 'Camera on', exact: true })).toBeVisible(SLOW)
    expect(await trackStates(page)).toEqual(['video ended', 'video live'])
    expect(cameraAllowed.count).toBe(2)
    await picker.getByRole('radio').first().check()
    await expect.poll(() => trackStates(page), SLOW).toEqual(['video ended', 'video ended'])
    await expect(picker.getByRole('button', { name: 'Turn camera on' })).toBeVisible()
  })
})
