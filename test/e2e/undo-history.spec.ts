import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { storedDraftCount } from './harness/stored-drafts.ts'
import { bulkButton, lede, openSeededList, rowAt, said, selected, snackbar } from './harness/list-page.ts'

// Issue 21, "Undo that lasts": the last actions on drafts stay undoable from a visible history,
// after their snackbar went and after a restart, newest first.

const DESKTOP = { width: 1440, height: 900 }
const NARROW = { width: 1024, height: 768 }

const historyButton = (page: Page) => page.getByRole('button', { name: 'History', exact: true })
const history = (page: Page) => page.getByRole('dialog', { name: 'Undo history' })
const search = (page: Page) => page.getByLabel('Search SKUs')

/** What the list shows for a search: "No draft matches …" or the count of matches. */
async function searchFor(page: Page, text: string): Promise<void> {
  await search(page).fill(text)
  await search(page).press('Enter')
}

test.describe('Undo history', () => {
  test('three actions stay undoable after the snackbar and a reload: Ctrl+Z undoes the newest, the history an older one', async ({
    page,
  }) => {
    // The snackbar stays up ten seconds: waiting past it is part of what is tested.
    test.setTimeout(90_000)
    await page.setViewportSize(DESKTOP)
    await openSeededList(page, 20)

    // 1. Set Brand on three drafts.
    await rowAt(page, 0).click()
    await rowAt(page, 2).click({ modifiers: ['Shift'] })
    await expect(selected(page)).toContainText('3 selected')
    await page.getByRole('button', { name: 'Set field…' }).click()
    const setting = page.getByRole('dialog', { name: 'Set a field on 3 drafts' })
    await setting.getByLabel('Field').selectOption({ label: 'Brand' })
    await setting.getByLabel('New value').fill('Zephyrine')
    await setting.getByRole('button', { name: 'Set Brand' }).click()
    await expect(said(page, 'Brand set on 3 drafts.')).toBeVisible()

    // 2. Duplicate one draft (the copies are selected after: a click picks the one row).
    await rowAt(page, 5).click()
    await expect(selected(page)).toContainText('1 selected')
    await bulkButton(page, 'Duplicate').click()
    await expect(said(page, '1 draft duplicated')).toBeVisible()
    await expect(lede(page)).toHaveText('21 drafts on this computer')

    // 3. Delete two drafts.
    await rowAt(page, 10).click()
    await rowAt(page, 11).click({ modifiers: ['Shift'] })
    await expect(selected(page)).toContainText('2 selected')
    await bulkButton(page, 'Delete').click()
    await expect(said(page, '2 drafts deleted.')).toBeVisible()
    await expect(lede(page)).toHaveText('19 drafts on this computer')

    // The snackbar goes by itself; then a reload, as a restart.
    await expect(snackbar(page)).toBeHidden({ timeout: 15_000 })
    await page.reload()
    await expect(lede(page)).toHaveText('19 drafts on this computer')

    // The history lists the three, newest first, each with its time.
    await historyButton(page).click()
    await expect(history(page)).toBeVisible()
    const items = history(page).getByRole('listitem')
    await expect(items).toHaveCount(3)
    await expect(items.nth(0)).toContainText('Deleted 2 drafts')
    await expect(items.nth(1)).toContainText('Duplicated 1 draft')
    await expect(items.nth(2)).toContainText('Set Brand on 3 drafts')
    for (const i of [0, 1, 2])
      await expect(items.nth(i).locator('time')).toHaveAttribute('datetime', /\d{4}-/)
    await expect(items.nth(0).getByRole('button', { name: 'Undo', exact: true })).toBeVisible()
    await expect(items.nth(2).getByRole('button', { name: 'Undo back to here' })).toBeVisible()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'undo-history-1440')
    await page.setViewportSize(NARROW)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'undo-history-1024')
    await page.setViewportSize(DESKTOP)

    // Escape closes it; focus is back on the button that opened it.
    await page.keyboard.press('Escape')
    await expect(history(page)).toBeHidden()
    await expect(historyButton(page)).toBeFocused()

    // Ctrl+Z undoes the newest: the delete.
    await page.locator('body').press('ControlOrMeta+z')
    await expect(said(page, '2 drafts restored.')).toBeVisible()
    await expect(lede(page)).toHaveText('21 drafts on this computer')

    // From the history, by keyboard alone, back to the field set: the duplicate goes with it,
    // after asking. Focus starts on the heading, so a reflexive Enter undoes nothing.
    await historyButton(page).focus()
    await page.keyboard.press('Enter')
    await expect(items).toHaveCount(2)
    await expect(items.nth(0)).toContainText('Duplicated 1 draft')
    await expect(history(page).getByRole('heading', { name: 'Undo history' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(items.nth(0).getByRole('button', { name: 'Undo', exact: true })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(items.nth(1).getByRole('button', { name: 'Undo back to here' })).toBeFocused()
    await page.keyboard.press('Enter')
    const asking = page.getByRole('alertdialog', { name: 'Undo 2 actions?' })
    await expect(asking).toBeVisible()
    await expect(asking.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await expect(asking).toContainText('Duplicated 1 draft')
    await expect(asking).toContainText('Set Brand on 3 drafts')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'undo-history-confirm')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect(history(page)).toBeHidden()
    await expect(historyButton(page)).toBeFocused()
    await expect(
      said(page, '2 actions undone. 3 drafts restored. 1 draft they added was removed.'),
    ).toBeVisible()
    await expect(lede(page)).toHaveText('20 drafts on this computer')
    expect(await storedDraftCount(page)).toBe(20)

    // What a person sees: no draft has the brand any more, and the copy is gone.
    await searchFor(page, 'Zephyrine')
    await expect(page.getByText('No draft matches “Zephyrine”.')).toBeVisible()
    await searchFor(page, 'copy')
    await expect(page.getByText('No draft matches “copy”.')).toBeVisible()

    // Nothing is left to undo, in the history and for Ctrl+Z.
    await historyButton(page).click()
    await expect(history(page).getByText('Nothing to undo.')).toBeVisible()
    await history(page).getByRole('button', { name: 'Close' }).click()
    await expect(history(page)).toBeHidden()
    await page.locator('body').press('ControlOrMeta+z')
    await expect(said(page, 'Nothing to undo.')).toBeVisible()
  })
})
