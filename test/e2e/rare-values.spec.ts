import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { lede, said, snackbar } from './harness/list-page.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

/**
 * Issue #38: "Eyewaer" on 5 rows and "sunglases" on 3, beside 60 "eyewear" and 62 "sunglasses",
 * imported as valid and ready without a word. The dry run asks "did you mean…?" with the lines;
 * once imported, the list asks again and changes the 5 drafts in one step, which one undo takes
 * back. Nothing changes until the person says so.
 */

const sheet = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/sheets/rare-values.csv')

/** The stored drafts' values of `field`, counted. */
async function valuesOf(page: Page, field: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const draft of await storedDrafts(page)) {
    const value = String(draft.payload[field])
    counts[value] = (counts[value] ?? 0) + 1
  }
  return counts
}

const asked = (page: Page) => page.getByRole('region', { name: 'Did you mean…?' })

test('a typo of a common category: asked in the dry run and the list, changed in one step, undone in one', async ({
  page,
}) => {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  await page.getByRole('link', { name: 'Import' }).first().click()
  await page.getByLabel('Choose a file').setInputFiles(sheet)
  await page.getByRole('button', { name: 'Check the rows' }).click()
  await expect(page.getByRole('heading', { name: 'What the file holds' })).toBeFocused()

  // The dry run asks, with the lines, and still counts every row ready to send.
  const questions = page.getByRole('list', { name: 'Did you mean…?' })
  await expect(questions.getByRole('listitem')).toHaveText([
    'Category “Eyewaer” on 5 rows (lines 7, 19, 33, 48, 61): did you mean “eyewear” (60 rows)?',
    'Sub-category “sunglases” on 3 rows (lines 12, 30, 53): did you mean “sunglasses” (62 rows)?',
  ])
  await expect(page.locator('.import-counts')).toHaveText(/^Rows65Ready to send65/)
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'rare-values-dry-run')

  // Imported as written: a question changes nothing by itself.
  await page.getByRole('button', { name: 'Import 65 valid rows' }).click()
  await expect(page.getByRole('heading', { name: '65 drafts imported' })).toBeVisible()
  expect(await valuesOf(page, 'category')).toEqual({ eyewear: 60, Eyewaer: 5 })

  // The list asks too, for the drafts.
  await page.getByRole('link', { name: 'SKUs' }).first().click()
  await expect(lede(page)).toContainText('65 drafts on this computer')
  await expect(asked(page).getByRole('listitem')).toHaveCount(2)
  await expect(asked(page)).toContainText(
    'Category “Eyewaer” on 5 drafts: did you mean “eyewear” (60 drafts)?',
  )
  await expect(asked(page)).toContainText(
    'Sub-category “sunglases” on 3 drafts: did you mean “sunglasses” (62 drafts)?',
  )
  expect(await axe(page)).toEqual([])
  await screenshot(page, 'rare-values-list')

  // "Show them": the list's own filter, on the rare value.
  await asked(page)
    .getByRole('button', { name: /^Show them: the 5 drafts with “Eyewaer”/ })
    .click()
  await expect(lede(page)).toContainText('5 matching')

  // One click changes the five, and the question goes.
  await asked(page).getByRole('button', { name: 'Change 5 drafts to “eyewear”' }).click()
  await expect(said(page, 'Category set on 5 drafts.')).toBeVisible()
  await expect(asked(page).getByRole('listitem')).toHaveCount(1)
  await expect(asked(page)).not.toContainText('Eyewaer')
  await expect.poll(() => valuesOf(page, 'category')).toEqual({ eyewear: 65 })
  expect(await valuesOf(page, 'subCategory')).toEqual({ sunglasses: 62, sunglases: 3 })

  // One undo brings the five back, and the question with them.
  await snackbar(page).getByRole('button', { name: 'Undo' }).click()
  await expect.poll(() => valuesOf(page, 'category')).toEqual({ eyewear: 60, Eyewaer: 5 })
  await expect(asked(page)).toContainText('Category “Eyewaer” on 5 drafts')

  // Kept as it is, a value is not asked about again, after a reload too.
  await asked(page).getByRole('button', { name: 'Keep “sunglases”' }).click()
  await expect(asked(page)).not.toContainText('sunglases')
  await page.reload()
  await expect(asked(page)).toContainText('Category “Eyewaer” on 5 drafts')
  await expect(asked(page)).not.toContainText('sunglases')
  expect(await valuesOf(page, 'subCategory')).toEqual({ sunglasses: 62, sunglases: 3 })
})
