import type { Locator, Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { grid, lede, rowAt } from './harness/list-page.ts'
import { storedApps } from './harness/app-setup.ts'
import { saved } from './harness/editor-page.ts'
import { seedForSync } from './harness/sync-setup.ts'
import { openSync } from './harness/sync-page.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

// The first hour's small stumbles (issue 21): a "New SKU" left empty stays behind, focus falls to
// the page body on entering and leaving the editor, the list does not fit 1024 px, and the Sync
// page names the drafts with errors in other words than the list.

const focusedRow = (page: Page): Locator => grid(page).locator('[role="row"]:focus')

test.describe('New drafts left untouched', () => {
  test('"New SKU" then Back leaves no empty draft; one typed into, even cleared again, is kept', async ({
    page,
  }) => {
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    await page.getByRole('button', { name: 'New SKU' }).click()
    await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
    await saved(page)
    await page.goBack()
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    expect(await storedDrafts(page)).toEqual([])

    // By the editor's own link as well.
    await page.getByRole('button', { name: 'New SKU' }).click()
    await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
    await page.getByRole('link', { name: '← All SKUs' }).click()
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    expect(await storedDrafts(page)).toEqual([])

    // Typed into and cleared: the person worked on it (and Undo in the editor knows that), kept.
    await page.getByRole('button', { name: 'New SKU' }).click()
    const name = page.getByLabel('Product name')
    await name.fill('Gone again')
    await saved(page)
    await name.fill('')
    await saved(page)
    await page.goBack()
    await expect(lede(page)).toHaveText('1 draft on this computer')
    expect(await storedDrafts(page)).toHaveLength(1)

    // Leaving before the autosave's pause is over still counts the typing: the draft is kept.
    await page.getByRole('button', { name: 'New SKU' }).click()
    await page.getByLabel('Product name').fill('Typed fast')
    await page.getByRole('link', { name: '← All SKUs' }).click()
    await expect(lede(page)).toHaveText('2 drafts on this computer')
    expect((await storedDrafts(page)).map((draft) => draft.productName).sort()).toEqual(['', 'Typed fast'])
    // Nothing was said nor offered to undo about the discarded ones.
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0)
  })

  test('"New app" then Back leaves no empty app draft', async ({ page }) => {
    await page.goto('/#/apps')
    await expect(page.getByText('No app drafts yet.')).toBeVisible()
    await page.getByRole('button', { name: 'New app' }).click()
    await expect(page.getByRole('heading', { name: 'Untitled app' })).toBeVisible()
    await saved(page)
    await page.getByRole('link', { name: '← All apps' }).click()
    await expect(page.getByText('No app drafts yet.')).toBeVisible()
    expect(await storedApps(page)).toEqual([])
  })
})

test.describe('Keyboard focus between the list and the editor', () => {
  test('Enter focuses the editor’s heading; leaving focuses the row the person came from', async ({
    page,
    pageProblems,
  }) => {
    const drafts = await seedForSync(page, pageProblems, 30)
    await rowAt(page, 0).focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(focusedRow(page)).toContainText(drafts[3]!.productName)
    await page.keyboard.press('Enter')

    const heading = page.getByRole('heading', { name: drafts[3]!.productName, level: 1 })
    await expect(heading).toBeFocused()
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])

    // Back (Alt+Left, the browser's Back): the same row has focus, and the keys work on from it.
    await page.goBack()
    await expect(focusedRow(page)).toContainText(drafts[3]!.productName)
    await page.keyboard.press('ArrowDown')
    await expect(focusedRow(page)).toContainText(drafts[4]!.productName)

    // The editor's own link, reached from the keyboard, does the same.
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: drafts[4]!.productName, level: 1 })).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await expect(page.getByRole('link', { name: '← All SKUs' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(focusedRow(page)).toContainText(drafts[4]!.productName)
    expect(await axe(page)).toEqual([])
  })
})

test.describe('The list at 1024 px', () => {
  /** Whether the element's box lies inside the grid's visible part (not scrolled off to the side). */
  async function insideGrid(page: Page, cell: Locator): Promise<boolean> {
    const box = await cell.boundingBox()
    const area = await grid(page).evaluate((el) => {
      const rect = el.getBoundingClientRect()
      return { left: rect.left + el.clientLeft, right: rect.left + el.clientLeft + el.clientWidth }
    })
    return !!box && box.x >= area.left - 0.5 && box.x + box.width <= area.right + 0.5
  }

  /** How much of the select's chosen text would not show: its width beyond the room inside the box. */
  const clippedBy = (select: Locator) =>
    select.evaluate((el) => {
      const box = el as unknown as { selectedOptions: ArrayLike<{ text: string }>; clientWidth: number }
      const window = globalThis as unknown as {
        getComputedStyle(of: unknown): { font: string; paddingLeft: string; paddingRight: string }
        document: {
          createElement(name: 'canvas'): {
            getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } }
          }
        }
      }
      const style = window.getComputedStyle(el)
      const context = window.document.createElement('canvas').getContext('2d')
      context.font = style.font
      const text = context.measureText(box.selectedOptions[0]!.text).width
      // Chromium draws its own arrow inside the right padding or beside it: 20 px are kept for it.
      const room =
        box.clientWidth - parseFloat(style.paddingLeft) - Math.max(parseFloat(style.paddingRight), 20)
      return Math.max(0, Math.ceil(text - room))
    })

  for (const size of [
    { width: 1024, height: 768 },
    { width: 1440, height: 900 },
  ]) {
    test(`at ${size.width} px every default column shows and no filter's choice is cut`, async ({
      page,
      pageProblems,
    }) => {
      await page.setViewportSize(size)
      await seedForSync(page, pageProblems, 40)
      // Below 1280 px Status and Last edit start hidden (the Columns button shows them), so that
      // Brand and Category are not cut (issue #37; sku-list-finding.spec.ts).
      const wide = size.width >= 1280
      for (const name of [
        /^Product/,
        /^Brand/,
        /^Barcode/,
        /^Category/,
        ...(wide ? [/^Status/] : []),
        'Checks',
        /^Sync/,
        ...(wide ? [/^Last edit/] : []),
      ]) {
        const header = grid(page).getByRole('columnheader', { name })
        await expect(header).toBeVisible()
        expect(await insideGrid(page, header), `the ${String(name)} column shows`).toBe(true)
      }
      const row = rowAt(page, 0)
      const last = row.locator(wide ? '.sku-cell--edited' : '.sku-cell--sync')
      expect(await insideGrid(page, last), 'a row’s last cell shows').toBe(true)
      // The grid does not scroll sideways.
      expect(await grid(page).evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)

      for (const label of [
        'Category',
        'Sub-category',
        'Status',
        'Checks',
        'Sync: Sandbox',
        'Synced on',
        'Held back',
        'Asset check',
      ]) {
        const select = page.getByLabel(label, { exact: true })
        expect(await clippedBy(select), `“${label}” shows its choice whole`).toBe(0)
      }
      expect(await axe(page)).toEqual([])
      await screenshot(page, `sku-list-${size.width}`)
      // A long choice chosen shows whole as well.
      await page.getByLabel('Asset check', { exact: true }).selectOption({ label: 'With problems' })
      expect(await clippedBy(page.getByLabel('Asset check', { exact: true }))).toBe(0)
      await page.getByLabel('Held back', { exact: true }).selectOption({ index: 1 })
      expect(await clippedBy(page.getByLabel('Held back', { exact: true }))).toBe(0)
      await screenshot(page, `sku-list-${size.width}-filtered`)
    })
  }
})

test.describe('The Sync page’s words', () => {
  test('names the drafts with errors as the list’s Checks filter does, and says the Sandbox is one', async ({
    page,
    pageProblems,
  }) => {
    await seedForSync(page, pageProblems, 20)
    // The list's filter for them.
    const checks = page.getByLabel('Checks', { exact: true })
    await expect(checks.locator('option', { hasText: 'Errors' })).toHaveCount(1)

    await openSync(page)
    const start = page.getByRole('region', { name: 'SKUs to send' })
    await expect(
      start.getByText(
        'Sandbox: a service on this computer that behaves like the platform; nothing reaches the real platform.',
      ),
    ).toBeVisible()
    await expect(start.locator('.import-counts__item', { hasText: 'With errors: fix first' })).toContainText(
      '2',
    )
    await expect(start).toContainText(
      '2 drafts with errors are left out until fixed (SKU list, filter “Checks: Errors”).',
    )
    await expect(page.getByRole('region', { name: 'Apps to create' })).not.toContainText('Sandbox: a service')
    await expect(page.getByText('Invalid', { exact: false })).toHaveCount(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-sandbox-first')

    // Followed, the link and the filter it names show those two drafts.
    await start.getByRole('link', { name: 'SKU list' }).click()
    await page.getByLabel('Checks', { exact: true }).selectOption({ label: 'Errors' })
    await expect(lede(page)).toContainText('2 matching')
  })
})
