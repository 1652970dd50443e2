import type { Page } from '@playwright/test'
import { EMPTIED_IN_RESPONSE } from '#node/sandbox/app-response.ts'
import type { Sandbox } from '#node/sandbox/server.ts'
import { getAt } from '#shared/json-path.ts'
import { appNameBox, namedApp, patchStoredApp, storedApps } from './harness/app-setup.ts'
import { decide } from './harness/decisions.ts'
import { standingOf, stateOf } from './harness/stored-drafts.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { history, progress } from './harness/sync-page.ts'

const DESKTOP = { width: 1440, height: 900 }

test.use({ actionTimeout: 10_000, viewport: DESKTOP })

/** "Create on Sandbox" in the editor, then the same in the confirmation that shows what is sent. */
async function createOnSandbox(page: Page) {
  await page.getByRole('button', { name: 'Create on Sandbox' }).click()
  const dialog = page.getByRole('alertdialog', { name: /^Create “.*” on Sandbox\?$/ })
  await dialog.getByRole('button', { name: 'Create on Sandbox' }).click()
  await expect(dialog).toHaveCount(0)
}

const createdPanel = (page: Page) => page.getByRole('region', { name: 'Created on Sandbox' })

/**
 * The nested objects the sandbox empties (as the contract's sample answer does) that this request
 * had filled in: what the app must name as not kept.
 */
function emptiedBySandbox(sandbox: Sandbox, index: number): string[] {
  const { request } = sandbox.received().apps[index]!
  return EMPTIED_IN_RESPONSE.filter((path) => {
    const sent = getAt(request, [...path])
    return typeof sent === 'object' && sent !== null && Object.keys(sent).length > 0
  }).map((path) => path.join('.'))
}

test.describe('Creating apps', () => {
  test('from the editor: the app id the service gave, what it emptied, copy, and create again as a new app', async ({
    page,
    sandbox,
    clipboard,
  }) => {
    const id = await namedApp(page, 'Northwind Skin Check')
    const create = page.getByRole('button', { name: 'Create on Sandbox' })
    await expect(page.getByRole('region', { name: 'Not created yet' })).toContainText(
      'One request creates it',
    )
    await screenshot(page, 'app-sync-not-created')
    await expect(create).toBeEnabled()
    await createOnSandbox(page)

    const panel = createdPanel(page)
    await expect(panel).toBeVisible({ timeout: 15_000 })
    // One request reached the sandbox, and the id shown is the one it stored.
    const received = sandbox.received().apps
    expect(received).toHaveLength(1)
    expect(received[0]!.app._id).toBe(received[0]!.id)
    await expect(panel.getByTestId('created-app-id')).toHaveText(received[0]!.id)
    const [stored] = (await storedApps(page)).filter((app) => app.id === id)
    expect(standingOf(stored!)).toMatchObject({ state: 'synced', remoteId: received[0]!.id })
    expect(standingOf(stored!)!.response).toEqual(JSON.parse(JSON.stringify(received[0]!.app)))
    expect(stored!.payload).toEqual(received[0]!.request)
    await expect(panel).toContainText(/Created\s*\w+ \d+, \d{4}/)

    // Every nested object the sandbox emptied is named, and nothing it kept is.
    const emptied = emptiedBySandbox(sandbox, 0)
    expect(emptied.length).toBeGreaterThanOrEqual(6)
    const list = panel.getByRole('list', { name: 'Fields the service did not keep as sent' })
    await expect(list.getByRole('listitem')).toHaveCount(emptied.length)
    for (const path of emptied) await expect(list).toContainText(`${path}: returned empty`)
    await expect(panel).toContainText('sample response comes back with several nested objects empty')
    await expect(panel).toContainText(`${emptied.length} fields not kept as sent`)

    // It is not created on Sandbox again; it stays editable for other destinations.
    await expect(appNameBox(page)).toBeEditable()
    await expect(page.getByRole('button', { name: 'Create on Sandbox' })).toHaveCount(0)
    // The badge beside the checks says where it stands there, not "Ready to send".
    const summary = page.locator('.summary')
    await expect(summary).toContainText('Created on Sandbox')
    await expect(summary).not.toContainText('Ready to send')

    await panel.getByRole('button', { name: /^Copy app id/ }).click()
    await expect(panel.getByRole('status')).toHaveText('App id copied to the clipboard.')
    expect(clipboard).toEqual([received[0]!.id])
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'app-created-panel')

    // The list's column shows the id.
    await page.getByRole('link', { name: '← All apps' }).click()
    const row = page.getByRole('row', { name: /Northwind Skin Check/ })
    await expect(row).toContainText('Created')
    await expect(row).toContainText(received[0]!.id)

    // Create again: a new draft, editable, opened; the original keeps its id.
    await page.goto(`/#/apps/${id}`)
    await createdPanel(page).getByRole('button', { name: 'Create again as a new app' }).click()
    await expect(page.getByRole('heading', { name: 'Northwind Skin Check (copy)', level: 1 })).toBeVisible()
    expect(page.url()).not.toContain(id)
    await expect(appNameBox(page)).toBeEnabled()
    await expect(createdPanel(page)).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Create on Sandbox' })).toBeEnabled()
    const apps = await storedApps(page)
    expect(apps).toHaveLength(2)
    const copy = apps.find((app) => app.id !== id)!
    expect(copy).toMatchObject({ sync: {}, name: 'Northwind Skin Check (copy)' })

    // The run is on the Sync page like any other, with the app's name and id.
    await page.getByRole('link', { name: 'Sync', exact: true }).click()
    const run = history(page).locator('details.sync-run').first()
    await expect(run).toContainText('Apps')
    await expect(run).toContainText('1 synced')
    await expect(run.getByRole('row', { name: /Northwind Skin Check/ })).toContainText(
      `App id ${received[0]!.id}`,
    )
  })

  test('from the Sync page: two apps created one a request, shown in the progress and the history', async ({
    page,
    sandbox,
  }) => {
    const glow = await namedApp(page, 'Glow Check')
    const dune = await namedApp(page, 'Dune Skin Scan')
    const broken = await namedApp(page, 'Broken app')
    // An app with errors (the editor cannot make one of every kind; storage can).
    await patchStoredApp(page, broken, { validity: 'invalid', errorCount: 1 })
    sandbox.addFaults([{ kind: 'latency', delayMs: 300, endpoint: 'apps', times: null }])

    await page.getByRole('link', { name: 'Sync', exact: true }).click()
    const section = page.getByRole('region', { name: 'Apps to create' })
    await expect(section.locator('.import-counts__item', { hasText: 'Ready to create' })).toContainText('2')
    await expect(section.locator('.import-counts__item', { hasText: 'With errors' })).toContainText('1')
    await expect(section).toContainText('1 app with errors is left out until fixed')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'app-sync-preflight')

    await section.getByRole('button', { name: 'Create 2 apps on Sandbox' }).click()
    // Asked first, as in the editor (app-sync-confirm.spec.ts looks at what it shows).
    await page
      .getByRole('alertdialog', { name: 'Create 2 apps on Sandbox?' })
      .getByRole('button', { name: 'Create 2 apps on Sandbox' })
      .click()
    await expect(page.getByRole('list', { name: 'Apps by state' })).toBeVisible()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('list', { name: 'Apps by state' })).toContainText('Synced 2')
    await expect(progress(page)).toContainText('2 of 2 apps done')
    await expect(page.getByRole('log')).toContainText('2 apps queued to be created on Sandbox.')

    // One request an app, never two at once.
    const requests = sandbox.requests()
    expect(requests.map((request) => request.endpoint)).toEqual(['apps', 'apps'])
    const received = sandbox.received().apps
    expect(received.map((app) => app.app.name).sort()).toEqual(['Dune Skin Scan', 'Glow Check'])

    const stored = await storedApps(page)
    const byId = new Map(stored.map((app) => [app.id, app]))
    expect(stateOf(byId.get(broken)!)).toBe('draft')
    for (const id of [glow, dune]) {
      const app = byId.get(id)!
      expect(stateOf(app)).toBe('synced')
      expect(received.map((entry) => entry.id)).toContain(standingOf(app)!.remoteId)
    }

    const run = history(page).locator('details.sync-run').first()
    await expect(run).toContainText('2 synced')
    await expect(run.getByRole('heading', { name: 'Requests (2)' })).toBeVisible()
    for (const id of [glow, dune]) {
      const app = byId.get(id)!
      await expect(run.getByRole('row', { name: new RegExp(app.name) })).toContainText(
        `App id ${standingOf(app)!.remoteId}`,
      )
    }
    await expect(page.getByRole('button', { name: 'No app to create on Sandbox' })).toBeDisabled()
    await expect(page.getByRole('region', { name: 'Apps to create' })).toContainText('2 apps already created')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'app-sync-history')
  })

  test('a 500 on the apps endpoint fails the app; the editor sends the person to the Sync page to decide', async ({
    page,
    sandbox,
  }) => {
    const id = await namedApp(page, 'Glow Check')
    sandbox.addFaults([{ kind: 'server-error', stage: 'before', endpoint: 'apps' }])
    await createOnSandbox(page)
    const alert = page.getByRole('region', { name: 'The service failed while creating this app' })
    await expect(alert).toBeVisible({ timeout: 15_000 })
    await expect(alert).toContainText('The service may have created it')
    expect(sandbox.received().apps).toHaveLength(0)
    expect(stateOf((await storedApps(page)).find((app) => app.id === id)!)).toBe('failed')
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'app-sync-failed-editor')

    await alert.getByRole('link', { name: 'Sync page' }).click()
    const waiting = page.getByRole('region', { name: 'Batches waiting for your decision' })
    const decision = waiting.getByRole('article')
    await expect(decision).toHaveCount(1)
    await expect(decision.getByRole('heading')).toContainText('App “Glow Check” sent at')
    await expect(decision.getByRole('heading')).toContainText('the service failed')
    await expect(decision).toContainText('The service may have created this app')
    await expect(decision).toContainText('creates a second app if it is already there')
    await expect(decision).not.toContainText('SKU')
    await expect(decision).not.toContainText('Barcodes')
    await expect(page.getByRole('region', { name: 'Apps to create' })).toContainText(
      '1 app failed with a server error',
    )
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'app-sync-decision')

    // The 500 came before processing (the sandbox stored nothing): sending again creates it once.
    await decide(page, decision, 'resend')
    await expect(page.getByRole('log')).toContainText('1 app queued to be sent again.')
    // The heading said Finished before the click too: the resumed run's own last line says it ended.
    await expect(page.getByRole('log')).toContainText('Done: 1 synced, 0 rejected, 0 failed, 0 unknown.', {
      timeout: 15_000,
    })
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible()
    await expect(waiting).toHaveCount(0)
    const received = sandbox.received().apps
    expect(received).toHaveLength(1)

    await page.goto(`/#/apps/${id}`)
    await expect(createdPanel(page).getByTestId('created-app-id')).toHaveText(received[0]!.id)
  })

  test('an answer lost after the app was stored is unknown; marked as created, the editor says the id is not known', async ({
    page,
    sandbox,
  }) => {
    const id = await namedApp(page, 'Dune Skin Scan')
    sandbox.addFaults([{ kind: 'reset', stage: 'after', endpoint: 'apps' }])
    await createOnSandbox(page)
    const alert = page.getByRole('region', { name: 'Whether this app was created is not known' })
    await expect(alert).toBeVisible({ timeout: 15_000 })
    expect(sandbox.received().apps).toHaveLength(1)

    await alert.getByRole('link', { name: 'Sync page' }).click()
    const decision = page
      .getByRole('region', { name: 'Batches waiting for your decision' })
      .getByRole('article')
    await expect(decision.getByRole('heading')).toContainText('App “Dune Skin Scan” sent at')
    await expect(decision.getByRole('heading')).toContainText('outcome unknown')
    await decide(page, decision, 'created')
    await expect(page.getByRole('log')).toContainText('1 app marked as created.')
    await expect(decision).toHaveCount(0)

    await page.goto(`/#/apps/${id}`)
    const panel = createdPanel(page)
    await expect(panel).toContainText('Not known here: Marked as created by you')
    await expect(panel).toContainText('cannot be compared with what was sent')
    const marked = (await storedApps(page)).find((app) => app.id === id)!
    expect(standingOf(marked)?.state).toBe('synced')
    expect(standingOf(marked)).not.toHaveProperty('remoteId')
  })
})
