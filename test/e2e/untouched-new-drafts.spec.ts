import { appNameBox, storedApps } from './harness/app-setup.ts'
import { newDraft, saved } from './harness/editor-page.ts'
import { lede } from './harness/list-page.ts'
import { expect, test } from './harness/fixtures.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

// A new SKU or app left untouched is not left behind when its window goes (or another window starts).

const DESKTOP = { width: 1440, height: 900 }

test.use({ actionTimeout: 10_000, viewport: DESKTOP })
test.describe('New drafts left untouched when the window goes', () => {
  test('closing the window on a new SKU or app leaves no draft; one typed into stays', async ({
    page,
    context,
  }) => {
    await newDraft(page)
    await saved(page)
    await page.close()
    let next = await context.newPage()
    await next.goto('/#/skus')
    await expect(next.getByText('No SKU drafts yet')).toBeVisible()
    expect(await storedDrafts(next)).toEqual([])

    await next.goto('/#/apps')
    await next.getByRole('button', { name: 'New app' }).click()
    await expect(appNameBox(next)).toBeVisible()
    await saved(next)
    await next.close()
    next = await context.newPage()
    await next.goto('/#/apps')
    await expect(next.getByText('No app drafts yet.')).toBeVisible()
    expect(await storedApps(next)).toEqual([])

    // Typed into: kept, whatever happens to the window.
    await newDraft(next)
    await next.getByLabel('Product name').fill('Kept')
    await saved(next)
    await next.close()
    next = await context.newPage()
    await next.goto('/#/skus')
    await expect(lede(next)).toHaveText('1 draft on this computer')
    expect((await storedDrafts(next)).map((draft) => draft.productName)).toEqual(['Kept'])
  })

  test('a reload keeps the new SKU in its editor, and leaving it then discards it', async ({ page }) => {
    await newDraft(page)
    await saved(page)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
    await expect(page.getByText('This draft does not exist any more.')).toHaveCount(0)
    await page.getByRole('link', { name: '← All SKUs' }).click()
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    expect(await storedDrafts(page)).toEqual([])
  })

  test("another window's new SKU, still open, is left alone by this window's start", async ({
    page,
    context,
  }) => {
    await newDraft(page)
    await saved(page)
    const other = await context.newPage()
    await other.goto('/#/skus')
    await expect(lede(other)).toHaveText('1 draft on this computer')
    // The first window's editor still works on it.
    await page.getByLabel('Product name').fill('Still here')
    await saved(page)
    expect((await storedDrafts(other)).map((draft) => draft.productName)).toEqual(['Still here'])
  })
})
