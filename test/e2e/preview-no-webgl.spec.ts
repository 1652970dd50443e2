import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { CHROMIUM_ARGS, chromiumExecutable } from './harness/chromium.ts'
import { newDraft } from './harness/editor-page.ts'

// The AR preview where the browser has no WebGL (locked-down machines, some remote desktops). The
// preview draws in a worker, out of an init script's reach, so this file has a browser of its own
// without any: no GPU (the suite's --disable-gpu) and no software renderer either. (Chromium's
// --disable-webgl leaves WebGL on in workers.)
const executablePath = chromiumExecutable()
test.use({
  launchOptions: {
    ...(executablePath ? { executablePath } : {}),
    args: [...CHROMIUM_ARGS, '--disable-software-rasterizer'],
  },
})

test.describe('AR preview without WebGL', () => {
  test('says so in words and lists the settings it would apply', async ({ page }) => {
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
