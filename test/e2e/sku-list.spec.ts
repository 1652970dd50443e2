import type { Locator, Page } from '@playwright/test'
import { seedDrafts, type SeededDraft, type SeedOptions } from '../../bench/seed-drafts.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { startAssetServer, type AssetServer } from './harness/preview-page.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

const COUNT = 1000

/** A small product picture for each of the 24 photo addresses the seeded drafts share. */
function picture(n: number): Buffer {
  const hue = (n * 47) % 360
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72"><rect width="72" height="72" fill="hsl(${hue} 55% 93%)"/><g fill="none" stroke="hsl(${hue} 40% 32%)" stroke-width="4" stroke-linecap="round"><circle cx="23" cy="38" r="11"/><circle cx="49" cy="38" r="11"/><path d="M34 36q2-3 4 0M12 35l-5-7M60 35l5-7"/></g></svg>`,
  )
}

// The list's photos come through main's thumbnail route from a server on this computer standing
// in for a CDN, so "Allow local addresses" is on, as in the preview tests. One photo address is
// broken, as some in a real catalogue are (a 404): its rows say so.
let photos: AssetServer
test.use({ allowLocalAddresses: true })
test.beforeAll(async () => {
  photos = await startAssetServer(
    Object.fromEntries(
      Array.from({ length: 24 }, (_, n) => n)
        .filter((n) => n !== 9)
        .map((n) => [`/sku/${n}.svg`, { bytes: picture(n), type: 'image/svg+xml' }]),
    ),
  )
})
test.afterAll(async () => {
  await photos.close()
})

/** Opens the list on a catalogue of 1,000 drafts written straight into the page's IndexedDB. */
async function openCatalogue(page: Page, options: SeedOptions = {}): Promise<SeededDraft[]> {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  const drafts = await seedDrafts(page, COUNT, { photos: photos.url, ...options })
  await page.reload()
  await expect(page.getByText('1,000 drafts on this computer')).toBeVisible()
  return drafts
}

const grid = (page: Page) => page.getByRole('grid', { name: 'SKUs' })
/** Body rows in the DOM (the header row is row 1). */
const bodyRows = (page: Page) => grid(page).locator('[role="row"]:not([aria-rowindex="1"])')
const rowAt = (page: Page, position: number) =>
  grid(page).locator(`[role="row"][aria-rowindex="${position + 2}"]`)
const rowNamed = (page: Page, name: string) => grid(page).getByRole('row', { name })
const selected = (page: Page) => page.getByRole('region', { name: 'Selected drafts' })
const lede = (page: Page) => page.locator('.page__lede')

async function namesOnScreen(page: Page, count: number): Promise<string[]> {
  const names: string[] = []
  for (let i = 0; i < count; i++)
    names.push((await rowAt(page, i).locator('.sku-name').textContent())?.trim() ?? '')
  return names
}

/** Presses Tab until a row of the list has focus (at once when one has). */
async function tabUntilInGrid(page: Page): Promise<void> {
  const inGrid = () => page.locator('[role="row"]:focus').count()
  for (let i = 0; i < 12 && (await inGrid()) === 0; i++) await page.keyboard.press('Tab')
  if ((await inGrid()) === 0) throw new Error('Tab never reached the list')
}

/** The little of the page the first-rows test reads, typed by hand (no DOM types here). */
interface FirstRowsGlobals {
  document: {
    querySelectorAll(
      selector: string,
    ): ArrayLike<{ getBoundingClientRect(): { top: number; bottom: number } }>
  }
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void
    disconnect(): void
  }
  innerHeight: number
  firstRows?: number
}

const focusedRow = (page: Page): Locator => grid(page).locator('[role="row"]:focus')

test.describe('SKU list at catalogue scale', () => {
  test('keeps only a window of rows in the page, and scrolling reaches the last draft', async ({ page }) => {
    const drafts = await openCatalogue(page)
    await expect(grid(page)).toHaveAttribute('aria-rowcount', '1001')
    await expect(rowAt(page, 0)).toContainText(drafts[0]!.productName)
    const inDom = await bodyRows(page).count()
    expect(inDom).toBeGreaterThan(5)
    expect(inDom).toBeLessThan(60)

    // Photos: loaded lazily with alt text; a neutral tile where there is none, and one that says
    // why where it fails.
    const withPhoto = rowNamed(page, drafts[0]!.productName)
    await expect(withPhoto.getByRole('img', { name: `Photo of ${drafts[0]!.productName}` })).toBeVisible()
    await expect(withPhoto.locator('img')).toHaveAttribute('loading', 'lazy')
    const noPhoto = drafts.find((d) => d.index % 13 === 5)!
    await expect(rowNamed(page, noPhoto.productName).locator('img')).toHaveCount(0)
    await expect(rowNamed(page, noPhoto.productName).getByRole('img', { name: 'No photo' })).toBeVisible()
    const broken = drafts.find((d) => d.index % 24 === 9)!
    await expect(
      rowNamed(page, broken.productName).getByRole('img', {
        name: 'Not loaded: the server answered HTTP 404 (Not Found)',
      }),
    ).toBeVisible()

    expect(await axe(page)).toEqual([])

    await grid(page).evaluate((el) => (el.scrollTop = el.scrollHeight))
    const last = drafts.at(-1)!
    await expect(rowNamed(page, last.productName)).toBeVisible()
    await expect(rowAt(page, COUNT - 1)).toContainText(last.barcode)
    expect(await bodyRows(page).count()).toBeLessThan(60)
  })

  test('opens with every row on screen drawn at once, never one row and then the rest', async ({ page }) => {
    await openCatalogue(page)
    // How many rows the list held the moment its first row appeared, in the page opened again.
    await page.addInitScript(() => {
      const g = globalThis as unknown as FirstRowsGlobals
      const seen = new g.MutationObserver(() => {
        const rows = g.document.querySelectorAll('[role="row"][data-id]').length
        if (rows === 0) return
        seen.disconnect()
        g.firstRows = rows
      })
      seen.observe(g.document, { childList: true, subtree: true })
    })
    await page.reload()
    await expect(rowAt(page, 0)).toBeVisible()
    const { first, onScreen } = await grid(page).evaluate((el) => {
      const g = globalThis as unknown as FirstRowsGlobals
      const box = el.getBoundingClientRect()
      const rows = Array.from(g.document.querySelectorAll('[role="row"][data-id]')).filter((row) => {
        const { top, bottom } = row.getBoundingClientRect()
        return bottom > box.top && top < Math.min(box.bottom, g.innerHeight)
      })
      return { first: g.firstRows, onScreen: rows.length }
    })
    expect(onScreen).toBeGreaterThan(5)
    expect(first).toBeGreaterThanOrEqual(onScreen)
  })

  test('searches, filters and sorts as a person would', async ({ page }) => {
    const drafts = await openCatalogue(page)
    const search = page.getByLabel('Search SKUs')

    const contoso = drafts.filter((d) => d.brand === 'Contoso Vision')
    await search.fill('contoso')
    await expect(lede(page)).toContainText(`1,000 drafts on this computer · ${contoso.length} match`)
    await expect(grid(page)).toHaveAttribute('aria-rowcount', String(contoso.length + 1))
    await expect(rowAt(page, 0)).toContainText(contoso[0]!.productName)

    // Every word counts, by its start: the brand and a number from the name.
    const one = contoso[5]!
    await search.fill(`contoso ${one.productName.split(' ').at(-1)!.slice(0, 6)}`)
    await expect(bodyRows(page)).toHaveCount(1)
    await expect(rowAt(page, 0)).toContainText(one.productName)
    await search.fill('')

    const jewellery = drafts.filter((d) => d.category === 'jewellery' && d.status === 'PUBLISHED')
    await page.getByLabel('Category', { exact: true }).selectOption('jewellery')
    await page.getByLabel('Status').selectOption('PUBLISHED')
    await expect(lede(page)).toContainText(`· ${jewellery.length} match`)
    await expect(rowAt(page, 0)).toContainText(jewellery[0]!.productName)
    await expect(rowAt(page, 0)).toContainText('jewellery › ')

    await page.getByRole('button', { name: 'Clear search and filters' }).click()
    await page.getByLabel('Checks').selectOption({ label: 'Errors' })
    await expect(lede(page)).toContainText(`· ${drafts.filter((d) => d.index % 10 === 7).length} match`)
    await expect(rowAt(page, 0).getByText('1 error')).toBeVisible()
    await page.getByLabel('Checks').selectOption({ label: 'All' })
    await expect(lede(page)).toHaveText('1,000 drafts on this computer')

    // Sorting: by clicking a column header, which says how the list is sorted.
    const byName = [...drafts].sort((a, b) => (a.productName < b.productName ? -1 : 1))
    const header = page.getByRole('columnheader', { name: 'Product' })
    await expect(page.getByRole('columnheader', { name: 'Last edit' })).toHaveAttribute(
      'aria-sort',
      'descending',
    )
    await header.getByRole('button').click()
    await expect(header).toHaveAttribute('aria-sort', 'ascending')
    await expect(page.getByRole('columnheader', { name: 'Last edit' })).not.toHaveAttribute('aria-sort')
    // The header follows the click at once; the rows once the new query has read them.
    await expect.poll(() => namesOnScreen(page, 3)).toEqual(byName.slice(0, 3).map((d) => d.productName))
    await header.getByRole('button').click()
    await expect(header).toHaveAttribute('aria-sort', 'descending')
    await expect(rowAt(page, 0)).toContainText(byName.at(-1)!.productName)
    await page.getByRole('columnheader', { name: 'Brand' }).getByRole('button').click()
    await expect(rowAt(page, 0)).toContainText('Adatum Frames')
  })

  test('selects with click, Shift+click, Ctrl+click and all matching, and sets the brand on three drafts', async ({
    page,
  }) => {
    // Draft 1 has been sent: a bulk edit leaves it alone and says so.
    const drafts = await openCatalogue(page, { sent: [1] })
    await rowAt(page, 0).getByRole('gridcell').nth(3).click()
    await expect(selected(page)).toContainText('1 selected')
    await rowAt(page, 3)
      .getByRole('gridcell')
      .nth(4)
      .click({ modifiers: ['Shift'] })
    await expect(selected(page)).toContainText('4 selected')
    await rowAt(page, 1).click({ modifiers: ['ControlOrMeta'] })
    await expect(selected(page)).toContainText('3 selected')
    await expect(rowAt(page, 1)).toHaveAttribute('aria-selected', 'false')
    await rowAt(page, 1).getByRole('checkbox').click()
    await rowAt(page, 3).getByRole('checkbox').click()
    await expect(selected(page)).toContainText('3 selected')
    for (const [position, state] of [
      [0, 'true'],
      [1, 'true'],
      [2, 'true'],
      [3, 'false'],
    ] as const) {
      await expect(rowAt(page, position)).toHaveAttribute('aria-selected', state)
    }
    await expect(rowAt(page, 2).getByRole('checkbox')).toBeChecked()
    await expect(rowAt(page, 3).getByRole('checkbox')).not.toBeChecked()
    await screenshot(page, 'sku-list-selection')

    await page.getByRole('button', { name: 'Set field…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Set a field on 3 drafts' })
    await expect(dialog).toBeVisible()
    // A value the form would reject cannot be applied.
    await dialog.getByLabel('Field').selectOption({ label: 'Product image' })
    await dialog.getByLabel('New value').fill('cdn.example.com/a.png')
    await dialog.getByLabel('New value').press('Enter')
    await expect(
      dialog.getByText('Product image must be a web address starting with http:// or https://'),
    ).toBeVisible()
    await expect(dialog).toBeVisible()
    await dialog.getByLabel('Field').selectOption({ label: 'Intensity' })
    // Numbers are typed as text and read as the editor reads them (editor-values.spec.ts).
    await expect(dialog.getByLabel('New value')).toHaveAttribute('inputmode', 'decimal')
    await dialog.getByLabel('Field').selectOption({ label: 'Brand' })
    await dialog.getByLabel('New value').fill('Aurora Optics')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sku-bulk-edit-dialog')
    await dialog.getByRole('button', { name: 'Set Brand' }).click()
    await expect(dialog).toBeHidden()
    // The sent draft is edited too (what was sent is kept with its run), and stays synced there.
    await expect(page.getByRole('status').filter({ hasText: 'Brand set on 3 drafts.' })).not.toContainText(
      'skipped',
    )
    // Sorted by last edit, the three drafts just edited come first (once the list has re-read them).
    await expect
      .poll(async () => (await namesOnScreen(page, 3)).sort())
      .toEqual([drafts[0]!.productName, drafts[1]!.productName, drafts[2]!.productName].sort())
    await expect(rowNamed(page, drafts[1]!.productName)).toContainText('Aurora Optics')
    await expect(rowNamed(page, drafts[1]!.productName)).toContainText('Synced')

    await rowNamed(page, drafts[2]!.productName).getByRole('link').click()
    await expect(page.getByRole('heading', { name: drafts[2]!.productName })).toBeVisible()
    await expect(page.getByLabel('Brand')).toHaveValue('Aurora Optics')
    await page.getByRole('link', { name: 'All SKUs' }).click()

    // The selection survives the trip to the editor; then all matching, minus one.
    await expect(selected(page)).toContainText('3 selected')
    await page.getByRole('button', { name: 'Select all 1,000 matching' }).click()
    await expect(selected(page)).toContainText('1,000 selected')
    await rowAt(page, 4).click({ modifiers: ['ControlOrMeta'] })
    await expect(selected(page)).toContainText('999 selected')
    await page.getByRole('button', { name: 'Clear selection' }).click()
    await expect(selected(page)).not.toContainText('selected', { useInnerText: true })
  })

  test('a click that selects never moves the rows, at any window width, so a double-click opens the draft', async ({
    page,
  }) => {
    const drafts = await openCatalogue(page)
    const top = async () => (await rowAt(page, 0).boundingBox())?.y
    // The bar's buttons whole, above the rows, however many rows the grid is shrunk to show.
    const barAboveRows = async () => {
      const rows = await grid(page).boundingBox()
      const buttons = await selected(page).getByRole('button').all()
      const boxes = await Promise.all(buttons.map((button) => button.boundingBox()))
      const bottoms = boxes.map((box) => (box ? box.y + box.height : Infinity))
      return buttons.length > 0 && rows !== null && Math.max(...bottoms) <= rows.y
    }
    for (const width of [1440, 1280, 1024]) {
      await page.setViewportSize({ width, height: 768 })
      // The whole catalogue (the grid fills the window), then a search that shows a row or two.
      for (const search of ['', drafts[1]!.productName]) {
        const where = `${width} px wide, ${search ? 'a search' : 'all rows'}`
        await page.getByLabel('Search SKUs').fill(search)
        if (search) await expect(grid(page)).toHaveAttribute('aria-rowcount', /^[23]$/)
        else await expect(grid(page)).toHaveAttribute('aria-rowcount', '1001')
        const before = await top()
        await rowAt(page, 0).getByRole('gridcell').nth(3).click()
        await expect(selected(page)).toContainText('1 selected')
        expect(await top(), `${where}, one selected`).toBe(before)
        expect(await barAboveRows(), `${where}, one selected`).toBe(true)
        if (!search) {
          await page.getByRole('button', { name: 'Select all 1,000 matching' }).click()
          await expect(selected(page)).toContainText('1,000 selected')
          expect(await top(), `${where}, all selected`).toBe(before)
        }
        await page.keyboard.press('Escape')
        await expect(selected(page)).not.toContainText('selected', { useInnerText: true })
        expect(await top(), `${where}, none selected`).toBe(before)
      }
    }
    // The first click of the two selects the row; the second lands on it still.
    await rowNamed(page, drafts[1]!.productName).getByRole('gridcell').nth(3).dblclick()
    await expect(page.getByRole('heading', { name: drafts[1]!.productName })).toBeVisible()
  })

  test('duplicates, deletes and undoes exactly', async ({ page }) => {
    const drafts = await openCatalogue(page)
    await rowAt(page, 0).click()
    await rowAt(page, 1).click({ modifiers: ['ControlOrMeta'] })
    await page.getByRole('button', { name: 'Duplicate' }).click()
    await expect(page.getByRole('status').filter({ hasText: '2 drafts duplicated' })).toContainText(
      'Copies keep the barcode until you edit it.',
    )
    await expect(lede(page)).toHaveText('1,002 drafts on this computer')
    // The copies are the newest, selected, and share their originals' barcodes.
    const copies = [rowAt(page, 0), rowAt(page, 1)]
    for (const copy of copies) {
      await expect(copy).toContainText(' (copy)')
      await expect(copy).toHaveAttribute('aria-selected', 'true')
    }
    await expect(rowNamed(page, `${drafts[0]!.productName} (copy)`)).toContainText(drafts[0]!.barcode)

    const before = await storedDrafts(page)
    await rowAt(page, 2).click({ modifiers: ['ControlOrMeta'] })
    await page.getByRole('button', { name: 'Delete' }).click()
    const toast = page.getByRole('status').filter({ hasText: '3 drafts deleted.' })
    await expect(toast).toBeVisible()
    await expect(lede(page)).toHaveText('999 drafts on this computer')
    await screenshot(page, 'sku-list-deleted')
    await toast.getByRole('button', { name: 'Undo' }).click()
    await expect(page.getByRole('status').filter({ hasText: '3 drafts restored.' })).toBeVisible()
    await expect(lede(page)).toHaveText('1,002 drafts on this computer')
    const byId = (list: typeof before) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1))
    expect(byId(await storedDrafts(page))).toEqual(byId(before))

    // The same with the keyboard: Delete, then Ctrl+Z.
    await rowAt(page, 0).click()
    await page.keyboard.press('Delete')
    await expect(page.getByRole('status').filter({ hasText: '1 draft deleted.' })).toBeVisible()
    await expect(lede(page)).toHaveText('1,001 drafts on this computer')
    await page.keyboard.press('ControlOrMeta+z')
    await expect(lede(page)).toHaveText('1,002 drafts on this computer')
    expect(byId(await storedDrafts(page))).toEqual(byId(before))
  })

  test('works from the keyboard alone', async ({ page }) => {
    const drafts = await openCatalogue(page)
    await page.keyboard.press('/')
    await expect(page.getByLabel('Search SKUs')).toBeFocused()
    await tabUntilInGrid(page)
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '2')

    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(focusedRow(page)).toContainText(drafts[2]!.productName)
    await page.keyboard.press('Space')
    await expect(selected(page)).toContainText('1 selected')
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowDown')
    await expect(selected(page)).toContainText('3 selected')
    await expect(focusedRow(page)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Escape')
    await expect(selected(page)).not.toContainText('selected', { useInnerText: true })

    await page.keyboard.press('End')
    await expect(focusedRow(page)).toContainText(drafts.at(-1)!.productName)
    await page.keyboard.press('PageUp')
    await expect(focusedRow(page)).not.toContainText(drafts.at(-1)!.productName)
    await page.keyboard.press('Home')
    await expect(focusedRow(page)).toContainText(drafts[0]!.productName)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: drafts[1]!.productName })).toBeVisible()
    await page.goBack()
    // Back on the same row, which has focus again: the keys work on from it.
    await expect(focusedRow(page)).toContainText(drafts[1]!.productName)

    // Ctrl+D duplicates the row the keyboard is on; Delete deletes the selection; Ctrl+Z undoes.
    await page.keyboard.press('ControlOrMeta+d')
    await expect(page.getByRole('status').filter({ hasText: '1 draft duplicated' })).toBeVisible()
    await expect(lede(page)).toHaveText('1,001 drafts on this computer')
    await page.keyboard.press('Delete')
    await expect(page.getByRole('status').filter({ hasText: '1 draft deleted.' })).toBeVisible()
    await expect(lede(page)).toHaveText('1,000 drafts on this computer')
    await page.keyboard.press('ControlOrMeta+z')
    await expect(lede(page)).toHaveText('1,001 drafts on this computer')

    // ArrowUp from the first row reaches the column headers: sort without a mouse.
    await tabUntilInGrid(page)
    await page.keyboard.press('Home')
    await page.keyboard.press('ArrowUp')
    await expect(page.getByRole('button', { name: 'Last edit' })).toBeFocused()
    await page.keyboard.press('Home')
    await expect(page.getByRole('checkbox', { name: 'Select the drafts on screen' })).toBeFocused()
    await page.keyboard.press('ArrowRight')
    await expect(page.getByRole('button', { name: 'Product' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('columnheader', { name: 'Product' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    )
    await page.keyboard.press('ArrowDown')
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '2')

    await page.keyboard.press('ControlOrMeta+f')
    await expect(page.getByLabel('Search SKUs')).toBeFocused()
    // ArrowDown at once, before typing has paused long enough to search: the search is made, and
    // the focus goes down to the rows it finds. "/" comes back up.
    await page.keyboard.type('tailspin')
    await page.keyboard.press('ArrowDown')
    await expect(lede(page)).toContainText('match')
    await expect(focusedRow(page)).toHaveAttribute('aria-rowindex', '2')
    await expect(focusedRow(page)).toContainText(/tailspin/i)
    await page.keyboard.press('/')
    await expect(page.getByLabel('Search SKUs')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(lede(page)).toHaveText('1,001 drafts on this computer')

    // N makes a new draft and opens it.
    await tabUntilInGrid(page)
    await page.keyboard.press('n')
    await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
  })
})
