import { axe, expect, test } from './harness/fixtures.ts'
import { FAKE_DEVICES, FAKE_NO, launchWith, openTryOnPicker, trackStates } from './harness/fake-camera.ts'

// The try-on's camera refused (issue #39): a camera is there, and Chromium's stand-in for the
// person answers no, as when someone says no or the system's privacy settings block the app.
test.use({ launchOptions: launchWith([FAKE_DEVICES, FAKE_NO]) })

test('the try-on camera says "Camera denied" plainly, and holds no track', async ({
  page,
  cameraAllowed,
}) => {
  test.setTimeout(120_000)
  const picker = await openTryOnPicker(page)
  await picker.getByRole('button', { name: 'Turn camera on' }).click()
  await expect(picker.getByRole('alert')).toHaveText(/^Camera denied\. .*privacy settings/, {
    timeout: 30_000,
  })
  expect(cameraAllowed.count).toBe(1)
  expect(await trackStates(page)).toEqual([])
  await expect(picker.getByRole('button', { name: 'Turn camera on' })).toBeVisible()
  // The picture stays.
  await expect(picker.getByRole('radio').first()).toBeChecked()
  expect(await axe(page, { include: '.face-picker' })).toEqual([])
})
