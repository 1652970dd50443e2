import type { Page } from '@playwright/test'
import { appNameBox, namedApp, storedApps } from './harness/app-setup.ts'
import { labelled, newDraft, saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { grid } from './harness/list-page.ts'
import { settingsDrawn } from './harness/settings-page.ts'
import { putDrafts, storedDrafts } from './harness/stored-drafts.ts'

// Issue #37, item 4: moving in and out of the editors. Escape and Alt+← leave an editor for the
// list the person came from, its row focused, nothing typed lost; an error badge takes focus to
// its field; the first fields show at 1024×768; every page opens at its top.

const DESKTOP = { width: 1440, height: 900 }
const SMALL = { width: 1024, height: 768 }

test.use({ actionTimeout: 10_000, viewport: DESKTOP })

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name: labelled(name) })
const row = (page: Page, name: string) => grid(page).getByRole('row').filter({ hasText: name })
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) })
/** The window's scroll offset. */
const scrollY = (page: Page) => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)
const scrollToBottom = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as {
      scrollTo(x: number, y: number): void
      document: { documentElement: { scrollHeight: number } }
    }
    g.scrollTo(0, g.document.documentElement.scrollHeight)
  })

/** Three drafts on the list, opened from the list: the editor of the second. */
async function openSecondDraft(page: Page): Promise<string> {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const [, second] = await putDrafts(page, [
    { productName: 'Aviator One', barcode: '5000000000001' },
    { productName: 'Round Two', barcode: '5000000000002' },
    { productName: 'Cat Eye Three', barcode: '5000000000003' },
  ])
  await page.reload()
  await grid(page).getByRole('link', { name: 'Round Two' }).click()
  await expect(page.getByRole('heading', { name: 'Round Two' })).toBeVisible()
  await saved(page)
  return second!
}

test.describe('Leaving an editor', () => {
  test('Escape goes back to the SKU list with the row opened focused, and what was just typed is kept', async ({
    page,
  }) => {
    const id = await openSecondDraft(page)
    // Typed and left at once, before the pause that saves: the leaving writes it first.
    await textbox(page, 'Brand').fill('Northwind')
    await page.keyboard.press('Escape')
    await expect(grid(page)).toBeVisible()
    await expect(row(page, 'Round Two')).toBeFocused()
    await expect(row(page, 'Round Two')).toContainText('Northwind')
    expect((await storedDrafts(page)).find((draft) => draft.id === id)!.payload.brand).toBe('Northwind')
    // Gone back, not forward to a new list: Alt+→ returns to the editor.
    await page.keyboard.press('Alt+ArrowRight')
    await expect(page.getByRole('heading', { name: 'Round Two' })).toBeVisible()
    await expect(textbox(page, 'Brand')).toHaveValue('Northwind')
  })

  test('Alt+← is Back, from a field too, and the row opened has focus on the list', async ({ page }) => {
    const id = await openSecondDraft(page)
    // An open list's field (a combobox: its suggestions are a datalist).
    await page.getByLabel('Category', { exact: true }).fill('eyewear')
    await page.keyboard.press('Alt+ArrowLeft')
    await expect(row(page, 'Round Two')).toBeFocused()
    expect((await storedDrafts(page)).find((draft) => draft.id === id)!.payload.category).toBe('eyewear')

    // On a page opened from the side bar, Back is the page before it.
    await page.getByRole('link', { name: 'Settings' }).click()
    await expect(page.getByRole('heading', { name: 'Service profiles' })).toBeVisible()
    await page.keyboard.press('Alt+ArrowLeft')
    await expect(grid(page)).toBeVisible()
  })

  // With a dialog open, Escape only closes it: app-editor-fields.spec.ts presses it in "Create on …".
  test('Escape leaves the app editor for the app list, the app’s row focused, what was typed kept', async ({
    page,
  }) => {
    const id = await namedApp(page, 'Glow Check')
    await page.getByRole('link', { name: '← All apps' }).click()
    await page.getByRole('link', { name: 'Glow Check' }).click()
    await expect(page.getByRole('heading', { name: 'Glow Check' })).toBeVisible()

    await appNameBox(page).fill('Glow Check Pro')
    await page.keyboard.press('Escape')
    const link = page.getByRole('link', { name: 'Glow Check Pro' })
    await expect(link).toBeFocused()
    expect((await storedApps(page)).find((app) => app.id === id)!.payload.name).toBe('Glow Check Pro')
    expect(await axe(page)).toEqual([])
  })
})

test.describe('The errors badge', () => {
  test('names the SKU fields with errors, and each takes focus to its field', async ({ page }) => {
    await newDraft(page)
    await textbox(page, 'Product image').fill('not an address')
    await page.getByLabel('Intensity', { exact: true }).fill('high')
    const summary = page.locator('.summary')
    await expect(summary).toContainText('2 errors: Product image, Intensity')
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    )

    await summary.getByRole('button', { name: 'Go to Intensity' }).click()
    const intensity = page.getByLabel('Intensity', { exact: true })
    await expect(intensity).toBeFocused()
    await expect(intensity).toBeInViewport()
    await summary.getByRole('button', { name: 'Go to Product image' }).click()
    await expect(textbox(page, 'Product image')).toBeFocused()
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'editor-errors-badge')
  })

  test('in the app editor, opens the field’s tab and focuses it', async ({ page }) => {
    await namedApp(page, 'Glow Check')
    await tab(page, 'Report').click()
    await textbox(page, 'Logo').fill('logo.png')
    const summary = page.locator('.summary')
    await expect(summary).toContainText('1 error: Logo')
    await tab(page, 'Meta').click()

    await summary.getByRole('button', { name: 'Go to Logo' }).click()
    await expect(tab(page, 'Report')).toHaveAttribute('aria-selected', 'true')
    await expect(textbox(page, 'Logo')).toBeFocused()
  })
})

test.describe('At 1024×768', () => {
  test.use({ viewport: SMALL })

  test('the SKU editor opens with its first fields in sight, the preview beside them', async ({ page }) => {
    await newDraft(page)
    await expect(textbox(page, 'Product name')).toBeInViewport({ ratio: 1 })
    const preview = page.getByRole('complementary', { name: 'AR preview' })
    const form = (await page.locator('form.form').boundingBox())!
    expect(form.x + form.width).toBeLessThanOrEqual((await preview.boundingBox())!.x)
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'editor-1024')
  })

  test('the app editor opens with its first fields in sight', async ({ page }) => {
    await page.goto('/#/apps')
    await page.getByRole('button', { name: 'New app' }).click()
    await expect(appNameBox(page)).toBeInViewport({ ratio: 1 })
    await screenshot(page, 'app-editor-1024')
  })
})

test.describe('Scrolling between pages', () => {
  test.use({ viewport: SMALL })

  test('Settings opens at its top wherever the last page was scrolled, and Back returns to where Settings was', async ({
    page,
  }) => {
    await newDraft(page)
    await scrollToBottom(page)
    expect(await scrollY(page)).toBeGreaterThan(0)
    await page.getByRole('link', { name: 'Settings' }).click()
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeInViewport()
    expect(await scrollY(page)).toBe(0)

    // Scrolled before its panels had drawn, the page grew above the place read (a busy CI run).
    await settingsDrawn(page)
    await scrollToBottom(page)
    const where = await scrollY(page)
    expect(where).toBeGreaterThan(0)
    await page.getByRole('link', { name: 'Apps' }).click()
    await expect(page.getByRole('heading', { name: 'App drafts' })).toBeInViewport()
    expect(await scrollY(page)).toBe(0)
    await page.keyboard.press('Alt+ArrowLeft')
    await expect(page.getByRole('heading', { name: 'Service profiles' })).toBeAttached()
    await expect.poll(() => scrollY(page)).toBe(where)
  })
})
