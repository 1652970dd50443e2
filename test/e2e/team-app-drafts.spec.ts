import type { Page } from '@playwright/test'
import { labelled, saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { joinTeamWorkspace } from './harness/settings-page.ts'
import type { Credentials } from './harness/team-server.ts'

const ANA: Credentials = { username: 'ana', password: 'ana-autumn-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-autumn-pass' }

/** Replication and the exchange each take their turn: a second or two on loopback. */
const ARRIVES = { timeout: 20_000 }
const DESKTOP = { width: 1440, height: 900 }

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name: labelled(name) })
const apps = (page: Page) => page.getByRole('table', { name: 'App drafts' })
const conflictHeading = (page: Page) => page.getByRole('heading', { name: 'Edited on two desks' })

/** Opens the app draft named `name` from the apps list, once it is there, on its Report tab. */
async function openApp(page: Page, name: string) {
  await page.goto('/#/apps')
  await apps(page).getByRole('link', { name }).click({ timeout: ARRIVES.timeout })
  await expect(textbox(page, 'App name')).toHaveValue(name)
  await page.getByRole('tab', { name: /^Report/ }).click()
}

test.describe('A team workspace’s app drafts (issue #41)', () => {
  // Two desks, each joined, replicating through the server and taking its exchange's turns.
  test.slow()

  test('edited on both desks at once, an app draft shows both versions side by side; the fields chosen are kept on both desks', async ({
    page,
    teamServer,
    openDesk,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
    await page.setViewportSize(DESKTOP)
    await joinTeamWorkspace(page, workspaceUrl, ANA)
    const ben = await openDesk()
    await ben.setViewportSize(DESKTOP)
    await joinTeamWorkspace(ben, workspaceUrl, BEN)

    await page.goto('/#/apps')
    await page.getByRole('button', { name: 'New app' }).click()
    await textbox(page, 'App name').fill('Glow Check')
    await saved(page)
    await page.getByRole('tab', { name: /^Report/ }).click()
    await openApp(ben, 'Glow Check')

    // Both editors open on the same version: Ana changes the report's title, Ben its title and
    // subtitle.
    await textbox(page, 'Report title').fill('Glow report by Ana')
    await textbox(ben, 'Report title').fill('Glow report by Ben')
    await textbox(ben, 'Report subtitle').fill('From the photo Ben took')
    await saved(page)
    await saved(ben)

    for (const desk of [page, ben]) await expect(conflictHeading(desk)).toBeVisible(ARRIVES)
    // The list marks it too.
    await ben.goto('/#/apps')
    await expect(apps(ben).getByRole('row', { name: /Glow Check/ })).toContainText('2 versions')
    await openApp(ben, 'Glow Check')
    await expect(conflictHeading(ben)).toBeVisible()

    const panel = page.getByRole('region', { name: 'Edited on two desks' })
    await expect(panel).toContainText('This app draft has another version')
    await panel.getByRole('button', { name: 'Compare versions' }).click()
    const fields = panel.getByRole('table', { name: /disagree on/ })
    // Named as the app editor names them.
    await expect(fields.getByRole('rowheader')).toHaveText(['Report title', 'Report subtitle'])
    await expect(fields.getByRole('columnheader')).toHaveText(['Field', /^(ana|ben), /, /^(ana|ben), /])
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'team-app-conflict-versions')

    // Ana's title with Ben's subtitle.
    await fields.getByRole('radio', { name: 'Glow report by Ana' }).check()
    await fields.getByRole('radio', { name: 'From the photo Ben took' }).check()
    await panel.getByRole('button', { name: 'Keep the chosen fields' }).click()
    await expect(panel).toBeHidden()
    await expect(textbox(page, 'Report title')).toHaveValue('Glow report by Ana')
    await expect(textbox(page, 'Report subtitle')).toHaveValue('From the photo Ben took')

    // Ben's desk has the same one version, and no conflict any more: in the editor and the list.
    await expect(conflictHeading(ben)).toBeHidden(ARRIVES)
    await expect(textbox(ben, 'Report title')).toHaveValue('Glow report by Ana')
    await expect(textbox(ben, 'Report subtitle')).toHaveValue('From the photo Ben took')
    await ben.goto('/#/apps')
    const row = apps(ben).getByRole('row', { name: /Glow Check/ })
    await expect(row).toBeVisible()
    await expect(row).not.toContainText('versions')
    // The version it shows is the one Ana kept, named as hers.
    await expect(row).toContainText('· ana')
  })
})
