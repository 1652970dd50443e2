import { appVersion, axe, expect, screenshot, test, type AppWindow } from './harness/fixtures.ts'

test.describe('app shell', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/')
  })

  test('shows the navigation and the version it got from main', async ({ page }) => {
    const navigation = page.getByRole('navigation')
    for (const name of ['SKUs', 'Apps', 'Sync', 'Settings']) {
      await expect(navigation.getByRole('link', { name })).toBeVisible()
    }
    // The renderer reads this through window.api.getAppInfo(): bridge → dispatcher → handler map.
    await expect(page.getByText(`Catalog Desk ${appVersion}`)).toBeVisible()
    await screenshot(page, 'shell')
  })

  test('opens only https links outside the app', async ({ page, openedExternally }) => {
    const outcome = (url: string) =>
      page.evaluate(
        (target) =>
          (globalThis as AppWindow).api.openExternal(target).then(
            () => 'resolved',
            (error: Error) => `rejected: ${error.message}`,
          ),
        url,
      )

    // The contract allows https only; main's error message reaches the page with the rejection.
    expect(await outcome('http://insecure.example')).toMatch(/^rejected: .*openExternal/)
    expect(await outcome('https://example.com')).toBe('resolved')
    // The browser is handed the parsed address that was checked, not the page's spelling of it.
    expect(openedExternally).toEqual(['https://example.com/'])
  })

  test('has no serious or critical accessibility violations', async ({ page }) => {
    await expect(page.getByRole('navigation')).toBeVisible()
    expect(await axe(page)).toEqual([])
  })
})

test('says the app is starting until it shows, instead of a blank window', async ({ page }) => {
  // The app's script held back, as while an interrupted import is rolled back before it mounts.
  await page.route(/\/assets\/index-[^/]+\.js$/, () => {})
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.getByRole('status')).toHaveText('Starting Catalog Desk…')
  await expect(page.getByRole('navigation')).toHaveCount(0)
})
