import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { seedDrafts } from '../../bench/seed-drafts.ts'
import { storedDraftCount } from './harness/stored-drafts.ts'
import { bulkButton, lede, openSeededList, rowAt, said, selectFirst, selected } from './harness/list-page.ts'

test.describe('Hands that cannot slip on the SKU list', () => {
  test('duplicating or deleting more than a few drafts asks first, and Space on a bulk button never acts', async ({
    page,
  }) => {
    await openSeededList(page, 60)
    await selectFirst(page, 42)

    // A click asks, naming how many; Cancel leaves every draft as it was.
    await bulkButton(page, 'Duplicate').click()
    const duplicating = page.getByRole('alertdialog', { name: 'Duplicate 42 drafts?' })
    await expect(duplicating).toBeVisible()
    await expect(duplicating.getByRole('button', { name: 'Cancel' })).toBeFocused()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sku-list-confirm-duplicate')
    await duplicating.getByRole('button', { name: 'Cancel' }).click()
    await expect(duplicating).toBeHidden()
    expect(await storedDraftCount(page)).toBe(60)

    // Space on the focused button (the slip of the issue: it duplicated all 42 at once) only asks;
    // a second, reflexive Space lands on Cancel.
    await bulkButton(page, 'Duplicate').focus()
    await page.keyboard.press('Space')
    await expect(duplicating).toBeVisible()
    expect(await storedDraftCount(page)).toBe(60)
    await page.keyboard.press('Space')
    await expect(duplicating).toBeHidden()
    await expect(bulkButton(page, 'Duplicate')).toBeFocused()
    await page.keyboard.press('Space')
    await expect(duplicating).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(duplicating).toBeHidden()
    expect(await storedDraftCount(page)).toBe(60)
    await expect(lede(page)).toHaveText('60 drafts on this computer')

    // Space on Delete asks too, even for one draft.
    await rowAt(page, 0).click()
    await expect(selected(page)).toContainText('1 selected')
    await bulkButton(page, 'Delete').focus()
    await page.keyboard.press('Space')
    const deletingOne = page.getByRole('alertdialog', { name: 'Delete 1 draft?' })
    await expect(deletingOne).toBeVisible()
    await page.keyboard.press('Space')
    await expect(deletingOne).toBeHidden()
    expect(await storedDraftCount(page)).toBe(60)

    // Confirmed, it acts.
    await selectFirst(page, 42)
    await bulkButton(page, 'Duplicate').click()
    await duplicating.getByRole('button', { name: 'Duplicate 42 drafts' }).click()
    await expect(said(page, '42 drafts duplicated')).toBeVisible()
    await expect(lede(page)).toHaveText('102 drafts on this computer')

    // The keyboard shortcuts ask the same way: the 42 copies are selected, Delete asks.
    await rowAt(page, 0).focus()
    await page.keyboard.press('Delete')
    const deleting = page.getByRole('alertdialog', { name: 'Delete 42 drafts?' })
    await expect(deleting).toBeVisible()
    expect(await axe(page)).toEqual([])
    await page.keyboard.press('Escape')
    await expect(deleting).toBeHidden()
    expect(await storedDraftCount(page)).toBe(102)
    await page.keyboard.press('ControlOrMeta+d')
    await expect(duplicating).toBeVisible()
    await duplicating.getByRole('button', { name: 'Cancel' }).click()
    expect(await storedDraftCount(page)).toBe(102)
    await rowAt(page, 0).focus()
    await page.keyboard.press('Delete')
    await deleting.getByRole('button', { name: 'Delete 42 drafts' }).click()
    await expect(said(page, '42 drafts deleted.')).toBeVisible()
    await expect(lede(page)).toHaveText('60 drafts on this computer')

    // A few drafts (five or fewer) go at once, as before.
    await selectFirst(page, 5)
    await bulkButton(page, 'Duplicate').click()
    await expect(said(page, '5 drafts duplicated')).toBeVisible()
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    await expect(lede(page)).toHaveText('65 drafts on this computer')
  })

  // A tryout was asked "Delete 6 drafts?" over six drafts, two of them sent, and got "4 drafts
  // deleted. 2 drafts skipped": the question now counts what the delete will do.
  test('the question before a delete counts the drafts it deletes, and says the sent ones are kept', async ({
    page,
  }) => {
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    await seedDrafts(page, 20, { sent: [1, 3], sentTo: 'https://catalog-api.example' })
    await page.reload()
    await expect(lede(page)).toHaveText('20 drafts on this computer')
    await selectFirst(page, 8)
    await bulkButton(page, 'Delete').click()
    const deleting = page.getByRole('alertdialog', { name: 'Delete 6 drafts?' })
    await expect(deleting).toContainText(
      '6 drafts will be deleted from this computer. 2 drafts sent beyond the Sandbox are kept, so they are never created twice.',
    )
    await screenshot(page, 'sku-list-confirm-delete-sent')
    await deleting.getByRole('button', { name: 'Delete 6 drafts' }).click()
    await expect(said(page, '6 drafts deleted.')).toBeVisible()
    await expect(lede(page)).toHaveText('14 drafts on this computer')
  })

  // A tryout could not clean up drafts it had only tried on the built-in Sandbox: "0 drafts deleted.
  // 2 drafts skipped: sent drafts are kept".
  test('drafts only tried on the built-in Sandbox can be deleted, and undone', async ({ page }) => {
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    await seedDrafts(page, 10, { sent: [0, 1] })
    await page.reload()
    await expect(lede(page)).toHaveText('10 drafts on this computer')
    await selectFirst(page, 2)
    await rowAt(page, 0).focus()
    await page.keyboard.press('Delete')
    await expect(said(page, '2 drafts deleted.')).toBeVisible()
    await expect(lede(page)).toHaveText('8 drafts on this computer')
    await page.keyboard.press('ControlOrMeta+z')
    await expect(lede(page)).toHaveText('10 drafts on this computer')
  })

  test('Ctrl+Z undoes the last action after its snackbar went and after a reload, and says when there is nothing', async ({
    page,
  }) => {
    await openSeededList(page, 20)
    await page.locator('body').press('ControlOrMeta+z')
    await expect(said(page, 'Nothing to undo.')).toBeVisible()

    await rowAt(page, 0).click()
    await rowAt(page, 2).click({ modifiers: ['Shift'] })
    // The range is read from the indexes: the bar says when it is in (a CI run deleted 1 before).
    await expect(selected(page)).toContainText('3 selected')
    await bulkButton(page, 'Delete').click()
    const deleted = said(page, '3 drafts deleted.')
    await expect(deleted).toBeVisible()
    await deleted.getByRole('button', { name: 'Dismiss' }).click()
    await expect(deleted).toBeHidden()
    await expect(lede(page)).toHaveText('17 drafts on this computer')

    // The undo is kept with the drafts: a reload (a restart) does not lose it.
    await page.reload()
    await expect(lede(page)).toHaveText('17 drafts on this computer')
    await page.locator('body').press('ControlOrMeta+z')
    await expect(said(page, '3 drafts restored.')).toBeVisible()
    await expect(lede(page)).toHaveText('20 drafts on this computer')
    expect(await storedDraftCount(page)).toBe(20)

    await page.locator('body').press('ControlOrMeta+z')
    await expect(said(page, 'Nothing to undo.')).toBeVisible()
    await expect(lede(page)).toHaveText('20 drafts on this computer')
  })

  test('the empty list offers Import, the templates and New SKU, says where syncing goes, and nothing to filter or select', async ({
    page,
  }) => {
    await page.goto('/#/skus')
    const start = page.locator('.list-start')
    await expect(start.getByRole('heading', { name: 'No SKU drafts yet' })).toBeVisible()
    await expect(start.getByRole('link', { name: 'Import' })).toBeVisible()
    await expect(start.getByRole('button', { name: 'CSV template' })).toBeVisible()
    await expect(start.getByRole('button', { name: 'XLSX template' })).toBeVisible()
    await expect(start).toContainText(
      'Syncing goes to Sandbox, the sandbox built into this app: you can try everything, syncing included, without a token.',
    )
    // Nothing to search, filter or select yet: no search box, filters, selection bar or keys.
    await expect(page.getByRole('searchbox', { name: 'Search SKUs' })).toHaveCount(0)
    await expect(page.getByRole('combobox')).toHaveCount(0)
    await expect(page.getByRole('region', { name: 'Selected drafts' })).toHaveCount(0)
    await expect(page.getByText('the row’s problems')).toHaveCount(0)
    // Offered once: the header's Import and New SKU move into the empty state.
    await expect(page.getByRole('button', { name: 'New SKU' })).toHaveCount(1)
    await expect(page.getByRole('link', { name: 'Import' })).toHaveCount(1)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sku-list-empty')

    const downloading = page.waitForEvent('download')
    await start.getByRole('button', { name: 'CSV template' }).click()
    expect((await downloading).suggestedFilename()).toBe('catalog-desk-template.csv')

    await start.getByRole('button', { name: 'New SKU' }).click()
    await expect(page).toHaveURL(/#\/skus\/[0-9a-f-]+$/)
  })
})
