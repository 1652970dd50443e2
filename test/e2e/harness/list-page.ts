import type { Page } from '@playwright/test'
import { seedDrafts } from '../../../bench/seed-drafts.ts'
import { expect } from './fixtures.ts'

/** The SKU list as the list specs read it: how they open it, and the parts they look at. */

export const grid = (page: Page) => page.getByRole('grid', { name: 'SKUs' })
/** The row at `position` from the top (0: the first under the header). */
export const rowAt = (page: Page, position: number) =>
  grid(page).locator(`[role="row"][aria-rowindex="${position + 2}"]`)
export const selected = (page: Page) => page.getByRole('region', { name: 'Selected drafts' })
export const lede = (page: Page) => page.locator('.page__lede')
export const bulkButton = (page: Page, name: string) =>
  selected(page).getByRole('button', { name, exact: true })
/** The notice at the foot of the list (what an action did, with Undo). */
export const snackbar = (page: Page) => page.locator('.snackbar')
/** A notice that says `text` (the snackbar's, or the list's announcement). */
export const said = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })

/** Opens the list on `count` seeded drafts (their photos at a host nobody answers: the tiles say so). */
export async function openSeededList(page: Page, count: number): Promise<void> {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  await seedDrafts(page, count)
  await page.reload()
  await expect(lede(page)).toHaveText(`${count} drafts on this computer`)
}

/** Selects the first `count` rows: a click on the first, then Shift+ArrowDown (the rows are a window). */
export async function selectFirst(page: Page, count: number): Promise<void> {
  await rowAt(page, 0).click()
  for (let i = 1; i < count; i++) await page.keyboard.press('Shift+ArrowDown')
  await expect(selected(page)).toContainText(`${count} selected`)
  // Back to the top, so the first rows are on screen again.
  await grid(page).evaluate((el) => (el.scrollTop = 0))
  await expect(rowAt(page, 0)).toBeVisible()
}
