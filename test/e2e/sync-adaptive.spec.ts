import { expect, test } from './harness/fixtures.ts'
import { seedForSync, seededValid, setSending } from './harness/sync-setup.ts'
import { history, openSync, progress, receivedBarcodes } from './harness/sync-page.ts'

test.describe('Sync: adaptive concurrency', () => {
  test('starts one at a time, sends more at once while the service keeps up, never above the profile; the page says how many', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 24)
    await setSending(page, 'sandbox', { batchSize: 2, concurrency: 3 })
    // The service serves two at once, 250 ms each; a third at once is answered 429.
    sandbox.setCapacity({ latencyMs: 250, slots: 2, retryAfterSeconds: 1 })
    await openSync(page)
    await expect(page.locator('.sync-start__target').first()).toContainText('2 a request, up to 3 at a time.')

    await page.getByRole('button', { name: 'Create 22 new on Sandbox' }).click()
    const inUse = progress(page).getByTestId('sync-concurrency')
    await expect(inUse).toHaveText('1 at a time (up to 3)')
    await expect(inUse).toHaveText('2 at a time (up to 3)')
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 30_000 })
    // Once finished, no number in use any more.
    await expect(inUse).toHaveCount(0)

    // Every ready SKU created once; the sandbox never served more than its two at once.
    const expected = seeded.filter((draft) => seededValid(draft.index)).map((draft) => draft.barcode)
    const received = receivedBarcodes(sandbox)
    expect(received.sort()).toEqual(expected.sort())
    await expect(history(page).locator('details.sync-run').first()).toContainText('up to 3 at a time')
  })
})
