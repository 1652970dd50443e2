import { expect, test } from './harness/fixtures.ts'
import { FAKE_YES, launchWith, NO_CAMERA, openTryOnPicker, trackStates } from './harness/fake-camera.ts'

// The try-on on a computer with no camera (issue #39): Chromium's fake devices with no camera
// among them, so no real camera is ever touched, whatever the computer.
test.use({ launchOptions: launchWith([NO_CAMERA, FAKE_YES]) })

test('the try-on camera says "No camera" plainly, and asks main for nothing', async ({
  page,
  cameraAllowed,
}) => {
  test.setTimeout(120_000)
  const picker = await openTryOnPicker(page)
  await picker.getByRole('button', { name: 'Turn camera on' }).click()
  await expect(picker.getByRole('alert')).toHaveText(/^No camera\. /, { timeout: 30_000 })
  expect(cameraAllowed.count).toBe(0)
  expect(await trackStates(page)).toEqual([])
  await expect(picker.getByRole('button', { name: 'Turn camera on' })).toBeVisible()
  await expect(picker.getByRole('radio').first()).toBeChecked()
})
