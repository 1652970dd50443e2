import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { confirmation, decide, decisionButton } from './harness/decisions.ts'
import { seedForSync, seededValid, setSending } from './harness/sync-setup.ts'
import { history, legend, openSync, progress, receivedBarcodes, syncStates } from './harness/sync-page.ts'

/**
 * Decisions about batches whose outcome nobody knows (a 502/504, a dropped answer) or that failed
 * with a 500: taken while their run is paused, each confirmed first with its risk counted, and
 * never a SKU created twice by the app on its own.
 */

const waiting = (page: Page) => page.getByRole('region', { name: 'Batches waiting for your decision' })
const batches = (page: Page, outcome: 'the service failed' | 'outcome unknown') =>
  waiting(page).getByRole('article').filter({ hasText: outcome })

test.describe('Deciding about batches', () => {
  test('paused after a 500, a 504 and a reset: decided while paused, confirmed, resumed; every SKU reaches the service once', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 30)
    await setSending(page, 'sandbox', { batchSize: 5, concurrency: 1 })
    // A 500 before processing (nothing stored), then a 504 and a reset after it (both stored): three
    // doubtful requests in a row pause the run.
    sandbox.addFaults([
      { kind: 'server-error', stage: 'before', endpoint: 'skus' },
      { kind: 'gateway-timeout', stage: 'after', endpoint: 'skus' },
      { kind: 'reset', stage: 'after', endpoint: 'skus' },
    ])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 27 new on Sandbox' }).click()
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: the service keeps failing' }),
    ).toBeVisible({ timeout: 20_000 })
    // The history below never says the live run sent nothing while the panel sends the person there.
    expect(await history(page).textContent()).not.toContain('No request was sent in this run')
    expect(sandbox.requests()).toHaveLength(3)
    const valid = seeded.filter((draft) => seededValid(draft.index)).map((draft) => draft.barcode)
    expect(receivedBarcodes(sandbox).sort()).toEqual(valid.slice(5, 15).sort())
    await expect(progress(page)).toContainText('decide about them in the history below')
    await expect(legend(page, 'Queued')).toContainText('12')

    // The three batches wait for a decision, their buttons usable while the run is paused.
    await expect(waiting(page).getByRole('article')).toHaveCount(3)
    const failed = batches(page, 'the service failed')
    await expect(decisionButton(failed, 'resend')).toBeEnabled()
    await expect(decisionButton(failed, 'created')).toBeEnabled()
    await expect(waiting(page)).not.toContainText('Available when')
    await expect(failed).toContainText(
      'The run is paused: what you send again goes out when you press Resume.',
    )
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-decisions-paused')

    // The 500 came before processing: the person sends that batch again, after saying yes to the risk.
    await decisionButton(failed, 'resend').click()
    const dialog = confirmation(page)
    await expect(dialog).toHaveAccessibleName('Send 5 SKUs again?')
    await expect(dialog).toContainText(
      'If the service already created them, each becomes a second copy on Sandbox: 5 duplicates.',
    )
    await expect(dialog).toContainText(
      'The run is paused: what you send again goes out when you press Resume.',
    )
    await screenshot(page, 'sync-decisions-confirm-paused')
    await dialog.getByRole('button', { name: 'Send 5 SKUs again' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByRole('log')).toContainText(
      '5 drafts queued to be sent again: the run stays paused and sends them when you press Resume.',
    )
    // Still paused: nothing went out, and the counts moved.
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: the service keeps failing' }),
    ).toBeVisible()
    await expect(legend(page, 'Queued')).toContainText('17')
    await expect(legend(page, 'Failed')).toContainText('0')
    await expect(waiting(page).getByRole('article')).toHaveCount(2)
    expect(sandbox.requests()).toHaveLength(3)

    // The 504 and the reset came after the sandbox stored their SKUs: both marked as created.
    await decide(page, batches(page, 'outcome unknown').first(), 'created')
    await expect(waiting(page).getByRole('article')).toHaveCount(1)
    await decide(page, batches(page, 'outcome unknown').first(), 'created')
    await expect(waiting(page)).toHaveCount(0)
    await expect(legend(page, 'Synced')).toContainText('10')
    await expect(legend(page, 'Unknown')).toContainText('0')
    expect(sandbox.requests()).toHaveLength(3)
    await expect(
      progress(page).getByRole('heading', { name: 'Paused: the service keeps failing' }),
    ).toBeVisible()

    await progress(page).getByRole('button', { name: 'Resume' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('log')).toContainText('Done: 27 synced, 0 rejected, 0 failed, 0 unknown.')
    // Every valid barcode exactly once on the service; nothing left to decide.
    const received = receivedBarcodes(sandbox)
    expect([...received].sort()).toEqual([...valid].sort())
    expect(new Set(received).size).toBe(received.length)
    expect(await syncStates(page)).toEqual({ synced: 27, draft: 3 })
    const run = page.getByRole('region', { name: 'History' }).locator('details.sync-run').first()
    await expect(run).toContainText('You sent it again.')
    await expect(run.getByText('You marked it as created.')).toHaveCount(2)
    await screenshot(page, 'sync-decisions-resumed')
  })

  test('each decision asks first: Escape and Cancel change nothing, confirming does what it says', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 20)
    await setSending(page, 'sandbox', { batchSize: 6, concurrency: 1 })
    // First request: a 500 before processing. Second: stored, then the connection drops.
    sandbox.addFaults([
      { kind: 'server-error', stage: 'before', endpoint: 'skus' },
      { kind: 'reset', stage: 'after', endpoint: 'skus' },
    ])
    await openSync(page)
    await page.getByRole('button', { name: 'Create 18 new on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    const before = { synced: 6, failed: 6, unknown: 6, draft: 2 }
    expect(await syncStates(page)).toEqual(before)
    const requests = sandbox.requests().length
    const failed = batches(page, 'the service failed')
    const unknown = batches(page, 'outcome unknown')
    const dialog = confirmation(page)

    // Send again: the risk counted, at the place, and the safe button focused; Escape cancels.
    const resend = decisionButton(failed, 'resend')
    await resend.click()
    await expect(dialog).toBeVisible()
    await expect(dialog).toHaveAccessibleName('Send 6 SKUs again?')
    await expect(dialog).toHaveAccessibleDescription(
      /If the service already created them, each becomes a second copy on Sandbox: 6 duplicates\./,
    )
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await expect(dialog.getByRole('button', { name: 'Send 6 SKUs again' })).toBeVisible()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-decisions-confirm-resend')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(resend).toBeFocused()
    // A reflexive Enter lands on Cancel: nothing happens either.
    await resend.click()
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()

    // Mark as created: what is lost if the service did not create them; Cancel cancels.
    const mark = decisionButton(unknown, 'created')
    await mark.click()
    await expect(dialog).toHaveAccessibleName('Mark 6 SKUs as created without sending?')
    await expect(dialog).toContainText(
      'If the service did not create them, they will be missing on Sandbox and this app will not offer them again.',
    )
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-decisions-confirm-created')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(mark).toBeFocused()

    // Nothing changed: no state, no request, no line in the log, both batches still waiting.
    expect(await syncStates(page)).toEqual(before)
    expect(sandbox.requests()).toHaveLength(requests)
    await expect(page.getByRole('log')).not.toContainText('marked as created')
    await expect(page.getByRole('log')).not.toContainText('queued to be sent again')
    await expect(waiting(page).getByRole('article')).toHaveCount(2)

    // Confirmed, each does what its button said. The decided batch leaves at once (no button of it
    // left to press a second time), and focus goes on to the batch still waiting.
    await mark.click()
    await dialog.getByRole('button', { name: 'Mark 6 SKUs as created' }).click()
    await expect(unknown).toHaveCount(0, { timeout: 300 })
    await expect(failed.getByRole('heading')).toBeFocused()
    await expect(page.getByRole('log')).toContainText('6 drafts marked as created.')
    await expect(waiting(page).getByRole('article')).toHaveCount(1)
    expect(await syncStates(page)).toEqual({ synced: 12, failed: 6, draft: 2 })
    expect(sandbox.requests()).toHaveLength(requests)

    // The last one: focus goes to the run's requests, not to the page's start.
    await resend.click()
    await dialog.getByRole('button', { name: 'Send 6 SKUs again' }).click()
    await expect(waiting(page)).toHaveCount(0, { timeout: 300 })
    await expect(history(page).getByRole('heading', { name: /^Requests \(/ })).toBeFocused()
    await expect(page.getByRole('log')).toContainText('6 drafts queued to be sent again.')
    await expect(page.getByRole('log')).toContainText('Done: 18 synced, 0 rejected, 0 failed, 0 unknown.', {
      timeout: 20_000,
    })
    await expect(waiting(page)).toHaveCount(0)
    expect(await syncStates(page)).toEqual({ synced: 18, draft: 2 })
    const received = receivedBarcodes(sandbox)
    expect([...received].sort()).toEqual(
      seeded
        .filter((draft) => seededValid(draft.index))
        .map((draft) => draft.barcode)
        .sort(),
    )
    expect(new Set(received).size).toBe(received.length)
    // Each decision said once, and no line counts nothing.
    const log = (await page.getByRole('log').textContent()) ?? ''
    expect(log.match(/marked as created/g)).toHaveLength(1)
    expect(log.match(/queued to be sent again/g)).toHaveLength(1)
    expect(log).not.toMatch(/\b0 drafts/)
  })
})
