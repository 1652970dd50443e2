import type { Page } from '@playwright/test'
import type { Sandbox } from '#node/sandbox/server.ts'
import type { SeededDraft } from '../../bench/seed-drafts.ts'
import { appNameBox, namedApp } from './harness/app-setup.ts'
import { saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { history, openSync } from './harness/sync-page.ts'
import { seedForSync } from './harness/sync-setup.ts'

/**
 * Issue #34: a SKU created on the Sandbox and edited since is updated there, one SKU a request,
 * with only the fields that changed; without the platform's id of it, it says why it cannot be.
 */

const NEW_Y = 0.012
const NEW_BRAND = 'Northwind Optics Revised'

const skusPanel = (page: Page) => page.getByRole('region', { name: 'SKUs to send' })
const updatesPanel = (page: Page) => page.getByRole('region', { name: 'Changed since created on Sandbox' })
const banner = (page: Page) => page.locator('.sent-banner')

/** Waits for the run of this page's session to end with `line` in the log. */
async function logSays(page: Page, line: string) {
  await expect(page.getByRole('log')).toContainText(line, { timeout: 20_000 })
}

/** Creates the seeded drafts on the Sandbox from the Sync page, as a person would. */
async function createAll(page: Page, n: number) {
  await openSync(page)
  await skusPanel(page)
    .getByRole('button', { name: `Create ${n} new on Sandbox` })
    .click()
  await logSays(page, `Done: ${n} synced, 0 rejected, 0 failed, 0 unknown.`)
}

/** Edits Position Y of one draft and Brand of another in the editor form, each saved. */
async function editTwo(page: Page, [first, second]: SeededDraft[]) {
  await page.goto(`/#/skus/${first!.id}`)
  await expect(banner(page)).toContainText('Created on Sandbox; unchanged since.')
  await page.getByLabel('Position Y').fill(String(NEW_Y))
  await saved(page)
  await page.goto(`/#/skus/${second!.id}`)
  await page.getByLabel('Brand', { exact: true }).fill(NEW_BRAND)
  await saved(page)
}

/** The SKUs the sandbox stored, by barcode, as they now stand, with their updates' bodies. */
function storedByBarcode(sandbox: Sandbox) {
  return new Map(
    sandbox.received().skus.map((entry) => [(entry.sku as { barcode: string }).barcode, entry] as const),
  )
}

const puts = (sandbox: Sandbox) => sandbox.requests().filter((request) => request.method === 'PUT')
const bulkUploads = (sandbox: Sandbox) => sandbox.requests().filter((request) => request.method === 'POST')

test.describe('Updates of SKUs created on a destination', () => {
  // Long walks (about 15 s each alone): beside another worker's two desks two ran past 30 s.
  test.slow()

  test('two SKUs edited after they were created are updated with only their changed fields; the third is not sent', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const seeded = await seedForSync(page, pageProblems, 3)
    await createAll(page, 3)
    const created = storedByBarcode(sandbox)
    expect(created.size).toBe(3)
    // Nothing changed yet: no update is offered.
    await expect(updatesPanel(page)).toHaveCount(0)

    await editTwo(page, seeded)
    // The editor says what Update will do with it.
    await expect(banner(page)).toContainText(
      'Changed since it was created on Sandbox: Update sends the changed fields.',
    )
    await page.getByLabel('Compare with what was sent to').selectOption({ label: 'Sandbox' })
    await expect(banner(page).getByRole('table')).toContainText(NEW_BRAND)
    await screenshot(page, 'updates-editor-changed')

    // The list marks the two, and its Sync filter finds exactly them.
    await page.goto('/#/skus')
    await page.getByLabel('Sync: Sandbox').selectOption({ label: 'Synced, changed since' })
    const rows = page.getByRole('row').filter({ hasText: 'Changed since' })
    await expect(rows).toHaveCount(2)
    // Whole in its column at 1280 px: a tryout read "Changed sinc".
    await page.setViewportSize({ width: 1280, height: 800 })
    const label = rows.first().locator('.sku-sync-changed')
    await expect(label).toHaveText('Changed since sent')
    expect(await label.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth)).toBe(
      true,
    )
    await expect(page.getByRole('row').filter({ hasText: seeded[2]!.barcode })).toHaveCount(0)

    await openSync(page)
    const updates = updatesPanel(page)
    await expect(updates).toContainText('2 SKUs created on Sandbox changed since')
    await expect(
      skusPanel(page).getByRole('button', { name: 'Nothing new to create on Sandbox' }),
    ).toBeDisabled()
    const update = updates.getByRole('button', { name: 'Update 2 changed on Sandbox' })
    await expect(update).toBeEnabled()
    // The pre-flight: each update's fields, before and after.
    await updates.getByText('What the updates send').click()
    const first = seeded[0]!.barcode
    const second = seeded[1]!.barcode
    await updates.getByText(`${first}: 1 field changed`).click()
    await expect(updates.getByRole('row', { name: /arEffect\.transform\.position\.y/ })).toContainText(
      String(NEW_Y),
    )
    await updates.getByText(`${second}: 1 field changed`).click()
    await expect(updates.getByRole('row', { name: /^brand/ })).toContainText(NEW_BRAND)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'updates-sync-preflight')

    // By the keyboard: the button goes as the run starts, and the focus goes to the run's progress
    // (a tryout's fell to the page's start).
    await update.focus()
    await page.keyboard.press('Enter')
    await expect(page.locator('#sync-progress-title')).toBeFocused()
    await logSays(page, 'Done: 2 updated, 0 rejected, 0 failed, 0 unknown.')
    await expect(page.getByRole('log')).toContainText('2 SKUs queued to be updated on Sandbox.')

    // Exactly two PUTs, each with only its changed fields; nothing new created.
    expect(puts(sandbox)).toHaveLength(2)
    expect(bulkUploads(sandbox)).toHaveLength(1)
    const now = storedByBarcode(sandbox)
    expect(now.size).toBe(3)
    const moved = now.get(first)!
    const rebranded = now.get(second)!
    const untouched = now.get(seeded[2]!.barcode)!
    expect(moved.updates.map((entry) => entry.body)).toEqual([
      { arEffect: { transform: { position: { y: NEW_Y } } } },
    ])
    expect(rebranded.updates.map((entry) => entry.body)).toEqual([{ brand: NEW_BRAND }])
    expect(untouched.updates).toEqual([])
    expect(
      (moved.sku as { arEffect: { transform: { position: { y: number } } } }).arEffect.transform.position.y,
    ).toBe(NEW_Y)
    expect((rebranded.sku as { brand: string }).brand).toBe(NEW_BRAND)
    expect(untouched.sku).toEqual(created.get(seeded[2]!.barcode)!.sku)
    // Each PUT went to the id the bulk upload answered with.
    expect(
      puts(sandbox)
        .map((request) => request.path.split('/').at(-1))
        .sort(),
    ).toEqual([moved._id, rebranded._id].sort())

    // Nothing is left to update; the history names the update run and shows each request's body.
    await expect(updatesPanel(page)).toHaveCount(0)
    const run = history(page).getByRole('listitem').filter({ hasText: 'Update run' })
    await expect(run).toContainText('2 updated')
    const requests = run.getByRole('table')
    await expect(requests.getByRole('row')).toHaveCount(3)
    await expect(requests).toContainText(`Platform id ${moved._id}`)
    await requests.getByText('Body: arEffect').click()
    await expect(requests.getByLabel(`Body of the update of ${first}`)).toContainText(`"y": ${NEW_Y}`)
    await expect(requests.getByText('Updated · HTTP 200')).toHaveCount(2)
    await expect(run.getByRole('button', { name: /Mark .* as created|Send .* again/ })).toHaveCount(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'updates-sync-history')

    // The editor: what stands there now is the update.
    await page.goto(`/#/skus/${seeded[0]!.id}`)
    await expect(banner(page)).toContainText('Created on Sandbox; unchanged since.')
    await page.getByLabel('Compare with what was sent to').selectOption({ label: 'Sandbox' })
    await expect(banner(page)).toContainText('Unchanged since it was sent to Sandbox.')
  })

  test('without the platform’s ids, the edits say why they cannot be updated; a list from the platform with ids makes them updatable', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    // The sandbox's setting, through its control endpoint: bulk uploads answered without ids.
    const set = await fetch(`${sandbox.url}/__sandbox/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answerIds: false }),
    })
    expect(set.status).toBe(200)
    const seeded = await seedForSync(page, pageProblems, 3)
    await createAll(page, 3)
    await editTwo(page, seeded)
    await expect(banner(page)).toContainText(
      "Changed since it was created on Sandbox, but the platform's id of it is unknown: import a list from the platform with its ids (Sync › Check the platform).",
    )
    await screenshot(page, 'updates-editor-no-id')

    await openSync(page)
    const updates = updatesPanel(page)
    await expect(updates).toContainText("2 changed cannot be updated: the platform's id of them is unknown.")
    await expect(updates.getByRole('button', { name: 'Nothing changed to update on Sandbox' })).toBeDisabled()
    await updates.getByRole('button', { name: 'Go to Check the platform' }).click()
    const check = page.getByRole('region', { name: 'Check the platform' })
    await expect(check.getByRole('heading', { name: 'Check the platform' })).toBeFocused()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'updates-sync-no-id')

    // The platform's list: each SKU it holds, by barcode, with its id there.
    const listed = sandbox
      .received()
      .skus.map((entry) => `${(entry.sku as { barcode: string }).barcode},${entry._id!}`)
    const choosing = page.waitForEvent('filechooser')
    await check.getByText('Import a list from the platform…').click()
    await (
      await choosing
    ).setFiles({
      name: 'platform.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['barcode,id', ...listed].join('\n')),
    })
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /platform ids?$/ })
      .click()
    const update = updates.getByRole('button', { name: 'Update 2 changed on Sandbox' })
    await expect(update).toBeEnabled()
    await expect(updates).not.toContainText('cannot be updated')

    await update.click()
    await logSays(page, 'Done: 2 updated, 0 rejected, 0 failed, 0 unknown.')
    expect(puts(sandbox)).toHaveLength(2)
    expect(bulkUploads(sandbox)).toHaveLength(1)
    const now = storedByBarcode(sandbox)
    expect(now.get(seeded[0]!.barcode)!.updates.map((entry) => entry.body)).toEqual([
      { arEffect: { transform: { position: { y: NEW_Y } } } },
    ])
    expect(now.get(seeded[1]!.barcode)!.updates.map((entry) => entry.body)).toEqual([{ brand: NEW_BRAND }])
    expect(now.get(seeded[2]!.barcode)!.updates).toEqual([])
  })

  test('an update that finds the SKU gone says so, and "Create it again" forgets it was created and creates it anew', async ({
    page,
    pageProblems,
    sandbox,
  }) => {
    const [first, second] = await seedForSync(page, pageProblems, 2)
    await createAll(page, 2)
    // Someone deleted everything on the platform: the updates' ids name nothing any more.
    await sandbox.clearReceived()
    await page.goto(`/#/skus/${first!.id}`)
    await page.getByLabel('Brand', { exact: true }).fill(NEW_BRAND)
    await saved(page)

    await openSync(page)
    await updatesPanel(page).getByRole('button', { name: 'Update 1 changed on Sandbox' }).click()
    await logSays(page, 'Done: 0 updated, 1 rejected, 0 failed, 0 unknown.')
    const gone = page.getByRole('region', { name: 'Not on the platform any more' })
    await expect(gone.getByRole('listitem')).toHaveCount(1)
    await expect(gone.getByRole('listitem')).toContainText(first!.barcode)
    await expect(gone.getByRole('listitem')).toContainText('not found')
    const run = history(page).getByRole('listitem').filter({ hasText: 'Update run' })
    await expect(run.getByRole('table')).toContainText('Not on the platform any more · HTTP 404')
    await expect(
      run.getByRole('button', { name: /Mark .* as created|Send .* again|Return rejected/ }),
    ).toHaveCount(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'updates-sync-gone')

    // The editor says it too, with the same choice; "Forget it was created there" asks first.
    await page.goto(`/#/skus/${first!.id}`)
    await expect(banner(page)).toContainText('Not on the platform any more: Sandbox has no SKU with its id.')
    await banner(page).getByRole('button', { name: 'Forget it was created there' }).click()
    const asked = page.getByRole('alertdialog', {
      name: `Forget that “${first!.barcode}” was created on Sandbox?`,
    })
    await expect(asked.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(asked).toHaveCount(0)
    await expect(banner(page)).toContainText('Not on the platform any more')

    await banner(page).getByRole('button', { name: 'Create it again' }).click()
    await page
      .getByRole('alertdialog', { name: `Create “${first!.barcode}” on Sandbox again?` })
      .getByRole('button', { name: 'Forget it and choose it on Sync' })
      .click()
    // The Sync page, with exactly it chosen: nothing is sent before "Create".
    await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible()
    await expect(skusPanel(page)).toContainText('Only 1 draft to create again')
    expect(sandbox.received().skus).toHaveLength(0)
    await screenshot(page, 'updates-sync-create-again')
    await skusPanel(page).getByRole('button', { name: 'Create 1 new on Sandbox' }).click()
    await logSays(page, 'Done: 1 synced, 0 rejected, 0 failed, 0 unknown.')
    const recreated = sandbox.received().skus
    expect(recreated.map((entry) => (entry.sku as { barcode: string; brand: string }).barcode)).toEqual([
      first!.barcode,
    ])
    expect((recreated[0]!.sku as { brand: string }).brand).toBe(NEW_BRAND)
    // The other one was never touched: no update, no second creation.
    expect(recreated.some((entry) => (entry.sku as { barcode: string }).barcode === second!.barcode)).toBe(
      false,
    )
  })

  test('an app edited after it was created says its changes stay in the app; the Sync page offers nothing for it', async ({
    page,
    sandbox,
  }) => {
    await namedApp(page, 'Northwind Skin Check')
    await page.getByRole('button', { name: 'Create on Sandbox' }).click()
    await page
      .getByRole('alertdialog', { name: 'Create “Northwind Skin Check” on Sandbox?' })
      .getByRole('button', { name: 'Create on Sandbox' })
      .click()
    const created = page.getByRole('region', { name: 'Created on Sandbox' })
    await expect(created).toBeVisible({ timeout: 15_000 })
    const stays = 'Changes made after it was created stay in this app: the platform has no update for apps'
    await expect(created).not.toContainText(stays)

    await appNameBox(page).fill('Northwind Skin Check v2')
    await saved(page)
    await expect(created).toContainText(`${stays} (1 field changed since).`)
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'updates-app-edited')

    await openSync(page)
    const apps = page.getByRole('region', { name: 'Apps to create' })
    await expect(apps.getByRole('button', { name: 'No app to create on Sandbox' })).toBeDisabled()
    await expect(apps).toContainText(
      'changes made since stay in the app: the platform has no update for apps',
    )
    await expect(apps.getByRole('button', { name: /update/i })).toHaveCount(0)
    expect(sandbox.received().apps).toHaveLength(1)
    expect(puts(sandbox)).toHaveLength(0)
  })
})
