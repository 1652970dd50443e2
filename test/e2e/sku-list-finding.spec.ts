import type { Locator, Page } from '@playwright/test'
import { seedDrafts, type SeededDraft } from '../../bench/seed-drafts.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { grid, lede, rowAt, said, selected, selectFirst } from './harness/list-page.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

// Finding and moving in the SKU list (issue #37, item 4): a barcode found by a part inside it,
// an undo that takes what it removed out of the selection, the columns a 1024 px window shows,
// the undo's words, and one name for the list.

/** Opens the list on `count` seeded drafts (barcode of draft i: 8901000000000 + i). */
async function openCatalogue(page: Page, count: number): Promise<SeededDraft[]> {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const drafts = await seedDrafts(page, count)
  await page.reload()
  await expect(lede(page)).toHaveText(`${count.toLocaleString('en-US')} drafts on this computer`)
  return drafts
}

/** How many pixels of the cell's text do not show (cut with an ellipsis). */
const cutBy = (cell: Locator) => cell.evaluate((el) => Math.max(0, el.scrollWidth - el.clientWidth))

test.describe('Finding and moving in the SKU list', () => {
  test('finds a barcode by four digits inside it, at its end, and from its start', async ({ page }) => {
    const drafts = await openCatalogue(page, 1000)
    const search = page.getByLabel('Search SKUs')

    // "0042" is inside 8901000000042 and 890100000042x, never at a start.
    const inside = drafts.filter((draft) => draft.barcode.includes('0042'))
    expect(inside.length).toBe(11)
    await search.fill('0042')
    await expect(lede(page)).toContainText(`1,000 drafts on this computer · ${inside.length} match`)
    await expect(rowAt(page, 0)).toContainText(inside[0]!.barcode)
    // The grid draws its rows once it is laid out (the first frame after it mounts): wait for all.
    const barcodeCells = grid(page).locator('[role="gridcell"].sku-cell--barcode')
    await expect(barcodeCells).toHaveCount(inside.length)
    const barcodes = await barcodeCells.allTextContents()
    expect(barcodes.map((text) => text.trim()).sort()).toEqual(inside.map((draft) => draft.barcode).sort())

    // The last digits of one barcode (an odd place in it) and a longer run across the middle.
    await search.fill('0777')
    await expect(lede(page)).toContainText('· 1 match')
    await expect(rowAt(page, 0)).toContainText('8901000000777')
    await search.fill('1000000123')
    await expect(lede(page)).toContainText('· 1 match')
    await expect(rowAt(page, 0)).toContainText('8901000000123')
    // With another word, both count.
    const name = drafts[123]!.productName.split(' ')[0]!
    await search.fill(`${name.toLowerCase()} 0123`)
    await expect(rowAt(page, 0)).toContainText('8901000000123')
    // Three digits find a barcode by its start only, and the empty list says how to find more.
    await search.fill('123')
    await expect(page.getByText('No draft matches “123”.')).toContainText(
      'A barcode is found by its first digits, or by 4 digits or more from anywhere in it.',
    )
    // Digits that are in no barcode find nothing.
    await search.fill('4242')
    await expect(page.getByText('No draft matches “4242”.')).toHaveText('No draft matches “4242”.')
    // Nothing matching: the lede offers to clear, and nothing after it.
    await expect(lede(page)).toHaveText(/ · 0 matching ·\s+Clear search and filters\s*$/)

    // A name that is there, hidden by a filter: the words say the filters too (a tryout read
    // "No draft matches “Aviator”." over six Aviators the Checks filter hid).
    const published = drafts.find((draft) => draft.status === 'PUBLISHED')!
    await search.fill(published.barcode)
    await expect(lede(page)).toContainText('· 1 match')
    await page.getByLabel('Status').selectOption('DRAFT')
    await expect(page.getByText(`No draft matches “${published.barcode}” with these filters.`)).toBeVisible()
  })

  test('an undo that removes the copies takes them out of the selection, and says so in words', async ({
    page,
  }) => {
    await openCatalogue(page, 20)
    await selectFirst(page, 2)
    await page.keyboard.press('ControlOrMeta+d')
    await expect(said(page, '2 drafts duplicated; the copies are selected.')).toBeVisible()
    await expect(selected(page)).toContainText('2 selected')
    await expect(lede(page)).toHaveText('22 drafts on this computer')

    await page.locator('body').press('ControlOrMeta+z')
    await expect(lede(page)).toHaveText('20 drafts on this computer')
    // Nothing is selected any more: the copies are gone.
    await expect(selected(page)).not.toContainText('selected', { useInnerText: true })
    await expect(said(page, '2 drafts it added were removed.')).toBeVisible()

    // Delete now acts on the row the keyboard is on, not on two drafts that are no longer there.
    await rowAt(page, 0).focus()
    await page.keyboard.press('Delete')
    await expect(said(page, '1 draft deleted.')).toBeVisible()
    await expect(page.getByText(/no longer existed/)).toHaveCount(0)
    expect(await storedDrafts(page)).toHaveLength(19)
  })

  // A tryout read "PUBLISH…" in the Status column at 1280 px.
  test('at 1280 px the Status column shows PUBLISHED whole, and the grid does not scroll sideways', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 820 })
    const drafts = await openCatalogue(page, 12)
    const published = drafts.findIndex((draft) => draft.status === 'PUBLISHED')
    const status = rowAt(page, published).locator('.sku-cell--status')
    await expect(status).toHaveText('PUBLISHED')
    expect(await cutBy(status)).toBe(0)
    expect(await grid(page).evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)
  })

  test('at 1024×768 the list shows Brand and Category whole, and a column chooser shows the rest', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 })
    await openCatalogue(page, 40)
    for (const name of ['Brand', 'Category']) {
      await expect(grid(page).getByRole('columnheader', { name })).toBeVisible()
    }
    await expect(grid(page).getByRole('columnheader', { name: 'Status' })).toHaveCount(0)
    // The longest brand and category of the catalogue show whole in the first rows.
    for (let i = 0; i < 8; i++) {
      expect(await cutBy(rowAt(page, i).locator('.sku-cell--brand')), `row ${i}'s brand`).toBe(0)
      expect(await cutBy(rowAt(page, i).locator('.sku-cell--category')), `row ${i}'s category`).toBe(0)
    }
    expect(await grid(page).evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)

    // The chooser, from the keyboard: a dialog, focus on its first box, Space shows Status.
    const columns = page.getByRole('button', { name: 'Columns' })
    await columns.focus()
    await page.keyboard.press('Enter')
    const chooser = page.getByRole('dialog', { name: 'Columns' })
    await expect(chooser).toBeVisible()
    await expect(chooser.getByRole('checkbox', { name: 'Brand' })).toBeFocused()
    await expect(chooser.getByRole('checkbox', { name: 'Status' })).not.toBeChecked()
    await expect(chooser.getByRole('checkbox', { name: 'Product' })).toHaveCount(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sku-list-columns-1024')
    await chooser.getByRole('checkbox', { name: 'Status' }).focus()
    await page.keyboard.press('Space')
    await expect(grid(page).getByRole('columnheader', { name: 'Status' })).toBeVisible()
    await chooser.getByRole('checkbox', { name: 'Barcode' }).focus()
    await page.keyboard.press('Space')
    await expect(grid(page).getByRole('columnheader', { name: 'Barcode' })).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(chooser).toBeHidden()
    await expect(columns).toBeFocused()

    // Kept after a restart (a reload of the page reads the choice again).
    await page.reload()
    await expect(grid(page).getByRole('columnheader', { name: 'Status' })).toBeVisible()
    await expect(grid(page).getByRole('columnheader', { name: 'Barcode' })).toHaveCount(0)
    await expect(grid(page)).toHaveAttribute('aria-colcount', '8')

    // Default columns again: they follow the window's width.
    await columns.click()
    await chooser.getByRole('button', { name: 'Default columns' }).click()
    await expect(grid(page).getByRole('columnheader', { name: 'Barcode' })).toBeVisible()
    await expect(grid(page).getByRole('columnheader', { name: 'Status' })).toHaveCount(0)
  })

  test('the side bar and the page call the list by one name', async ({ page }) => {
    await openCatalogue(page, 3)
    await expect(
      page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'SKUs' }),
    ).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('SKUs')
    await expect(page).toHaveTitle('SKUs · Catalog Desk')
  })
})
