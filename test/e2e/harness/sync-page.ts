import type { Page } from '@playwright/test'
import type { Sandbox } from '#node/sandbox/server.ts'
import { expect } from './fixtures.ts'
import { stateOf, storedDrafts } from './stored-drafts.ts'

/** The Sync page as the sync specs read it: how they get there and the regions they look at. */

export async function openSync(page: Page): Promise<void> {
  // Exact: the editor's banner may offer "Open Sync" too.
  await page.getByRole('link', { name: 'Sync', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible()
}

/** The live run's panel, whatever its state. */
export const progress = (page: Page) =>
  page.getByRole('region', { name: /^(Sending to|Paused|Finished|Cancelled|Stopped)/ })

/** One state's entry in the live run's legend. */
export const legend = (page: Page, state: string) =>
  page.getByRole('list', { name: 'SKUs by state' }).getByRole('listitem').filter({ hasText: state })

export const history = (page: Page) => page.getByRole('region', { name: 'History' })

/** Barcodes a sandbox stored, each as often as it was stored (what the platform has). */
export const receivedBarcodes = (sandbox: Sandbox) =>
  sandbox.received().skus.map((entry) => String((entry.sku as { barcode: string }).barcode))

/** How many stored SKU drafts are in each state at the sandbox (or at `destination`). */
export async function syncStates(page: Page, destination?: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const draft of await storedDrafts(page)) {
    const state = stateOf(draft, destination)
    counts[state] = (counts[state] ?? 0) + 1
  }
  return counts
}

/**
 * Clicks `button` (a sync's start) with the service slow to answer the first request (6 s), and
 * reloads the window once that request is out: main waits on the service while the page is gone,
 * and the page opens again well before the answer comes (a busy machine takes a second or two).
 */
export async function reloadWhileMainWaits(page: Page, sandbox: Sandbox, button: string): Promise<void> {
  sandbox.addFaults([{ kind: 'latency', delayMs: 6_000, times: 1 }])
  await page.getByRole('button', { name: button }).click()
  await expect
    .poll(() => sandbox.requests().filter((request) => request.status === 'pending').length, {
      intervals: [25],
    })
    .toBe(1)
  await page.reload()
}
