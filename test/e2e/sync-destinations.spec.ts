import type { Page } from '@playwright/test'
import { IMAGE_HOST } from '../../bench/seed-drafts.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test, type AppWindow } from './harness/fixtures.ts'
import { stateOf, storedDrafts } from './harness/stored-drafts.ts'
import { addActiveProfile, seedForSync, seededValid } from './harness/sync-setup.ts'
import { openSync, receivedBarcodes } from './harness/sync-page.ts'

const SECOND_TOKEN = 'second-token'

/** Waits for the run of this page's session to end with every draft of it synced. */
async function runFinishes(page: Page, synced: number) {
  await expect(page.getByRole('log')).toContainText(
    `Done: ${synced} synced, 0 rejected, 0 failed, 0 unknown.`,
    { timeout: 20_000 },
  )
}

const skusToSend = (page: Page) => page.getByRole('region', { name: 'SKUs to send' })
const tile = (page: Page, label: string) =>
  skusToSend(page).locator('.import-counts__item', { hasText: label })
const grid = (page: Page) => page.getByRole('grid', { name: 'SKUs' })
const rows = (page: Page) => grid(page).locator('[role="row"][data-id]')

/** Adds the profile "Second" leading to `second` (with its token) and makes it the active one. */
async function addSecondProfile(page: Page, second: Sandbox) {
  await addActiveProfile(
    page,
    {
      ...DEFAULT_SENDING,
      timeouts: { ...DEFAULT_SENDING.timeouts },
      id: 'second',
      name: 'Second',
      kind: 'service',
      baseUrl: second.url,
    },
    SECOND_TOKEN,
  )
  await page.reload()
}

/** Makes a profile the active one, as Settings would, and reloads the page. */
async function activate(page: Page, id: string) {
  await page.evaluate(async (id) => (globalThis as AppWindow).api.activateProfile(id), id)
  await page.reload()
}

/** The destination a service profile at `url` leads to, as the app stores it. */
async function destinationOf(page: Page, url: string): Promise<string> {
  const destinations = new Set<string>()
  for (const draft of await storedDrafts(page))
    for (const key of Object.keys((draft.sync as Record<string, unknown> | undefined) ?? {}))
      destinations.add(key)
  const found = [...destinations].find((key) => key !== 'embedded-sandbox')
  expect(found, `a destination for ${url}`).toBeDefined()
  return found!
}

test.describe('Sync to several destinations', () => {
  // Long walks (the promotion's, 16 s alone): beside another worker's, one ran past 30 s twice.
  test.slow()

  test('syncs drafts to the Sandbox, survives a restart, and sends the same drafts to a second destination; both show synced with their own history', async ({
    page,
    context,
    pageProblems,
    sandbox,
  }) => {
    // Two syncs, a restart and two editors, each waited for: 20 s on a quiet 2-core machine, twice
    // that when it is busy. Every step waits for an event; this only bounds the whole.
    test.setTimeout(90_000)
    const second = await startSandbox({ port: 0, token: SECOND_TOKEN })
    try {
      const seeded = await seedForSync(page, pageProblems, 5)
      const barcodes = seeded.map((draft) => draft.barcode).sort()
      // The restarted window asks for the photos too: answered like the first one's.
      await context.route(`https://${IMAGE_HOST}/**`, (route) => route.fulfill({ status: 404, body: '' }))
      await openSync(page)
      await page.getByRole('button', { name: 'Create 5 new on Sandbox' }).click()
      await runFinishes(page, 5)
      expect(receivedBarcodes(sandbox).sort()).toEqual(barcodes)

      // The restart: the window goes, a new one opens on what was stored.
      await page.close()
      const next = await context.newPage()
      await next.goto('/#/skus')
      await expect(grid(next)).toBeVisible()
      await expect(grid(next).getByRole('columnheader', { name: 'Sync: Sandbox' })).toBeVisible()
      await expect(rows(next)).toHaveCount(5)
      await expect(rows(next).locator('.sku-cell--sync .sync-state')).toHaveText(Array(5).fill('Synced'))

      // The second destination: nothing of it sent there yet, all five offered.
      await addSecondProfile(next, second)
      await expect(grid(next).getByRole('columnheader', { name: 'Sync: Second' })).toBeVisible()
      await expect(rows(next).locator('.sku-cell--sync .sync-state')).toHaveText(Array(5).fill('Not sent'))
      await expect(rows(next).locator('.sku-sync-elsewhere')).toHaveText(Array(5).fill('Sandbox: synced'))
      await openSync(next)
      await expect(next.getByRole('button', { name: 'Create 5 new on Second' })).toBeEnabled()
      const promotions = next.getByRole('list', { name: 'Promotions' })
      await expect(promotions).toContainText('5 drafts synced on Sandbox are not sent to Second.')
      await expect(
        promotions.getByRole('button', { name: 'Send the 5 tested on Sandbox to Second…' }),
      ).toBeVisible()
      expect(await axe(next)).toEqual([])
      await screenshot(next, 'destinations-sync-second')

      await next.getByRole('button', { name: 'Create 5 new on Second' }).click()
      await runFinishes(next, 5)
      // Each once on Second; nothing sent to the Sandbox again.
      expect(receivedBarcodes(second).sort()).toEqual(barcodes)
      expect(receivedBarcodes(sandbox).sort()).toEqual(barcodes)
      await expect(next.getByRole('button', { name: 'Nothing new to create on Second' })).toBeDisabled()
      await expect(next.getByRole('list', { name: 'Promotions' })).toHaveCount(0)
      const secondDestination = await destinationOf(next, second.url)
      for (const draft of await storedDrafts(next)) {
        expect(stateOf(draft)).toBe('synced')
        expect(stateOf(draft, secondDestination)).toBe('synced')
      }

      // The editor: synced here, synced on the Sandbox, both runs in its history.
      await next.goto(`/#/skus/${seeded[0]!.id}`)
      await expect(next.getByText('Created on Second; unchanged since.')).toBeVisible()
      await expect(next.locator('.sent-banner__others')).toContainText('Sandbox: synced')
      const runs = next.locator('details.sent-banner__history')
      await runs.getByText('History (2 runs)').click()
      await expect(runs.getByRole('listitem')).toHaveCount(2)
      await expect(runs.getByRole('listitem').filter({ hasText: 'Second (profile Second' })).toContainText(
        'synced',
      )
      await expect(runs.getByRole('listitem').filter({ hasText: 'Sandbox (profile Sandbox' })).toContainText(
        'synced',
      )
      expect(await axe(next, { exclude: '.editor__preview' })).toEqual([])
      await screenshot(next, 'destinations-editor-two-runs')

      // Back on the Sandbox: its state survived both the restart and the other run.
      await activate(next, 'sandbox')
      await openSync(next)
      await expect(next.getByRole('button', { name: 'Nothing new to create on Sandbox' })).toBeDisabled()
      await expect(tile(next, 'Already synced here')).toContainText('5')
      await expect(next.getByRole('list', { name: 'Promotions' })).toHaveCount(0)
      expect(receivedBarcodes(sandbox)).toHaveLength(5)
    } finally {
      await second.close()
    }
  })

  test('promotion: sends what is synced on one destination to another, saying which drafts changed since, with the diff', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const second = await startSandbox({ port: 0, token: SECOND_TOKEN })
    try {
      // Six drafts, four of them synced on the Sandbox (chosen in the list).
      const seeded = await seedForSync(page, pageProblems, 6)
      const sent = seeded.slice(0, 4)
      for (const draft of sent)
        await page.getByRole('checkbox', { name: `Select ${draft.productName}` }).click()
      await page
        .getByRole('region', { name: 'Selected drafts' })
        .getByRole('button', { name: 'Sync…' })
        .click()
      await page.getByRole('button', { name: 'Create 4 new on Sandbox' }).click()
      await runFinishes(page, 4)
      expect(receivedBarcodes(sandbox).sort()).toEqual(sent.map((d) => d.barcode).sort())

      // One of them edited since: its name and its position.
      const edited = sent[1]!
      const newName = `${edited.productName} v2`
      await page.goto(`/#/skus/${edited.id}`)
      await expect(page.getByText('Created on Sandbox; unchanged since.')).toBeVisible()
      await page.getByLabel('Product name').fill(newName)
      await page.getByLabel('Position X').fill('0.05')
      await saved(page)

      await addSecondProfile(page, second)
      await openSync(page)
      const offer = page.getByRole('list', { name: 'Promotions' }).getByRole('listitem')
      await expect(offer).toHaveCount(1)
      await expect(offer).toContainText('4 drafts synced on Sandbox are not sent to Second.')
      // The four tested on the Sandbox are the first choice; every ready draft (six, two of them
      // never tested there) the second, and it says so.
      const promote = offer.getByRole('button', { name: 'Send the 4 tested on Sandbox to Second…' })
      const everyReady = page.getByRole('button', {
        name: 'Create all 6 new on Second, 2 never tested on Sandbox',
      })
      await expect(promote).toHaveClass(/button--primary/)
      await expect(everyReady).toBeEnabled()
      await expect(everyReady).not.toHaveClass(/button--primary/)
      await expect(page.locator('.sync-start--skus .button--primary')).toHaveCount(1)

      // "Show in the list": exactly those four, with the two filters that say why.
      await offer.getByRole('button', { name: 'Show in the list' }).click()
      await expect(page).toHaveURL(/#\/skus$/)
      await expect(page.getByLabel('Sync: Second')).toHaveValue('draft')
      await expect(page.getByLabel('Synced on')).toHaveValue('embedded-sandbox')
      await expect(rows(page)).toHaveCount(4)
      const listed = await rows(page).locator('.sku-cell--barcode').allTextContents()
      expect(listed.map((text) => text.trim()).sort()).toEqual(sent.map((d) => d.barcode).sort())
      // Which one the Sandbox has an older version of shows without making it the active profile.
      const onSandbox = (draft: { barcode: string }) =>
        rows(page).filter({ hasText: draft.barcode }).locator('.sku-sync-elsewhere')
      await expect(onSandbox(edited)).toHaveText('Sandbox: changed since sent')
      await expect(onSandbox(sent[0]!)).toHaveText('Sandbox: synced')
      await screenshot(page, 'destinations-promotable-in-list')
      await page.goto(`/#/skus/${edited.id}`)
      await expect(page.locator('.sent-banner__others')).toHaveText(
        'Sandbox: changed since sent · Production: not sent · Staging: not sent',
      )

      await openSync(page)
      await page.getByRole('button', { name: 'Send the 4 tested on Sandbox to Second…' }).click()
      const scope = page.getByRole('group', { name: /^Only 4 drafts synced on Sandbox/ })
      await expect(scope).toBeVisible()
      await expect(scope).toContainText(
        '1 draft changed since it was sent to Sandbox: Second gets it as it is now.',
      )
      const changed = scope.locator('details.sync-scope__changed')
      await expect(changed).toHaveCount(1)
      await changed.getByText('2 fields changed').click()
      const diff = changed.getByRole('table')
      await expect(diff.getByRole('columnheader')).toHaveText(['Field', 'Sent', 'Now'])
      const nameRow = diff
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'productName' }) })
      await expect(nameRow.getByRole('cell')).toHaveText([`"${edited.productName}"`, `"${newName}"`])
      const xRow = diff
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'arEffect.transform.position.x' }) })
      await expect(xRow.getByRole('cell')).toHaveText(['0', '0.05'])
      await expect(tile(page, 'Ready to send')).toContainText('4')
      expect(await axe(page)).toEqual([])
      await screenshot(page, 'destinations-promotion-diff')

      // Chosen, the promotion's own run is the primary action.
      await expect(page.getByRole('button', { name: 'Create 4 new on Second' })).toHaveClass(
        /button--primary/,
      )
      await page.getByRole('button', { name: 'Create 4 new on Second' }).click()
      await runFinishes(page, 4)
      // Second got the four as they are now; the Sandbox nothing more.
      expect(receivedBarcodes(second).sort()).toEqual(sent.map((d) => d.barcode).sort())
      expect(receivedBarcodes(sandbox)).toHaveLength(4)
      const got = second
        .received()
        .skus.map(
          (entry) =>
            entry.sku as {
              barcode: string
              productName: string
              arEffect: { transform: { position: { x: number } } }
            },
        )
        .find((sku) => sku.barcode === edited.barcode)!
      expect(got.productName).toBe(newName)
      expect(got.arEffect.transform.position.x).toBe(0.05)
      // The scope is spent: the two never sent anywhere are what is left.
      await expect(page.getByRole('button', { name: 'Create 2 new on Second' })).toBeVisible()
    } finally {
      await second.close()
    }
  })

  test('syncs a selection from the list', async ({ page, pageProblems, sandbox }) => {
    const seeded = await seedForSync(page, pageProblems, 5)
    const chosen = [seeded[1]!, seeded[3]!]
    for (const draft of chosen)
      await page.getByRole('checkbox', { name: `Select ${draft.productName}` }).click()
    const bar = page.getByRole('region', { name: 'Selected drafts' })
    await expect(bar).toContainText('2 selected')
    await bar.getByRole('button', { name: 'Sync…' }).click()

    await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible()
    const scope = page.getByRole('group', { name: /^Only 2 drafts selected in the list/ })
    await expect(scope).toBeVisible()
    await expect(scope.getByRole('button', { name: 'Sync every ready draft instead' })).toBeVisible()
    await expect(tile(page, 'Ready to send')).toContainText('2')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'destinations-selection')
    await page.getByRole('button', { name: 'Create 2 new on Sandbox' }).click()
    await runFinishes(page, 2)

    expect(receivedBarcodes(sandbox).sort()).toEqual(chosen.map((d) => d.barcode).sort())
    // The scope is spent: the rest are offered again.
    await expect(page.getByRole('group', { name: /^Only/ })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Create 3 new on Sandbox' })).toBeEnabled()
    await expect(tile(page, 'Already synced here')).toContainText('2')
    const states = Object.fromEntries((await storedDrafts(page)).map((draft) => [draft.id, stateOf(draft)]))
    for (const draft of seeded) expect(states[draft.id]).toBe(chosen.includes(draft) ? 'synced' : 'draft')
  })

  test('a chosen scope is for its visit: back on Sync from the navigation, every ready draft is offered', async ({
    page,
    pageProblems,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 5)
    for (const draft of seeded.slice(0, 2))
      await page.getByRole('checkbox', { name: `Select ${draft.productName}` }).click()
    await page.getByRole('region', { name: 'Selected drafts' }).getByRole('button', { name: 'Sync…' }).click()
    await expect(page.getByRole('group', { name: /^Only 2 drafts selected in the list/ })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Create 2 new on Sandbox' })).toBeVisible()

    await page.getByRole('link', { name: 'SKUs' }).click()
    await expect(page.getByRole('grid', { name: 'SKUs' })).toBeVisible()
    await openSync(page)
    await expect(page.getByRole('button', { name: 'Create 5 new on Sandbox' })).toBeVisible()
    await expect(page.getByRole('group', { name: /^Only/ })).toHaveCount(0)
  })

  test('syncs the current filter', async ({ page, pageProblems, sandbox }) => {
    // Twenty drafts: Northwind Optics makes 0, 1, 16 and 17; 17 has an error.
    const seeded = await seedForSync(page, pageProblems, 20)
    const matching = seeded.filter((draft) => draft.brand === 'Northwind Optics')
    expect(matching.map((draft) => draft.index)).toEqual([0, 1, 16, 17])
    await page.getByLabel('Search SKUs').fill('northwind')
    await expect(rows(page)).toHaveCount(4)
    await page.getByRole('button', { name: 'Sync these 4…' }).click()

    await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible()
    await expect(
      page.getByRole('group', { name: /^Only 4 drafts matching the search and filters/ }),
    ).toBeVisible()
    await expect(tile(page, 'Ready to send')).toContainText('3')
    await expect(tile(page, 'With errors')).toContainText('1')
    await expect(skusToSend(page)).toContainText('1 draft with errors is left out until fixed')
    await screenshot(page, 'destinations-filter')
    await page.getByRole('button', { name: 'Create 3 new on Sandbox' }).click()
    await runFinishes(page, 3)

    const expected = matching.filter((draft) => seededValid(draft.index)).map((draft) => draft.barcode)
    expect(receivedBarcodes(sandbox).sort()).toEqual(expected.sort())
    // The rest: 20 drafts, 2 invalid, 3 synced.
    await expect(page.getByRole('button', { name: 'Create 15 new on Sandbox' })).toBeEnabled()
  })
})
