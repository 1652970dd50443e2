import type { Page } from '@playwright/test'
import { labelled, newDraft, saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { openSettings } from './harness/settings-page.ts'
import type { Credentials } from './harness/team-server.ts'

const ANA: Credentials = { username: 'ana', password: 'ana-autumn-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-autumn-pass' }

/** Joins the workspace from Settings as `who`, and waits until it is up to date. */
async function join(page: Page, workspaceUrl: string, who: Credentials) {
  await openSettings(page)
  const team = page.getByRole('region', { name: 'Team workspace' })
  await team.getByLabel('Workspace address').fill(workspaceUrl)
  await team.getByLabel('User name').fill(who.username)
  await team.getByLabel('Password', { exact: true }).fill(who.password)
  await team.getByRole('button', { name: 'Join' }).click()
  await expect(team.getByRole('status')).toHaveText('Up to date')
}

const grid = (page: Page) => page.getByRole('grid', { name: 'SKUs' })

/** Replication and the exchange each take their turn: a second or two on loopback. */
const ARRIVES = { timeout: 20_000 }

test.describe('A team workspace’s drafts (issue #41)', () => {
  // Two desks, each joined, replicating through the server and taking its exchange's turns.
  test.slow()

  test('a draft made on one desk appears on the other, and an edit made there comes back', async ({
    page,
    teamServer,
    openDesk,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
    await join(page, workspaceUrl, ANA)
    const ben = await openDesk()
    await join(ben, workspaceUrl, BEN)

    await newDraft(page)
    await page.getByLabel(labelled('Product name')).fill('Aviator 58')
    await page.getByLabel(labelled('Brand')).fill('Lumen')
    await saved(page)

    await ben.goto('/#/skus')
    const arrived = grid(ben).getByRole('row', { name: /Aviator 58/ })
    await expect(arrived).toBeVisible(ARRIVES)
    // Who made it, under the time of the last edit.
    await expect(arrived.getByRole('gridcell').last()).toHaveAttribute('title', /^Edited by ana, /)
    await screenshot(ben, 'team-draft-arrived')

    await grid(ben).getByRole('link', { name: 'Aviator 58' }).click()
    const name = ben.getByLabel(labelled('Product name'))
    await expect(name).toHaveValue('Aviator 58')
    await name.fill('Aviator 58 Gold')
    await saved(ben)

    await page.goto('/#/skus')
    const back = grid(page).getByRole('row', { name: /Aviator 58 Gold/ })
    await expect(back).toBeVisible(ARRIVES)
    await expect(back.getByRole('gridcell').last()).toHaveAttribute('title', /^Edited by ben, /)
    await expect(grid(page).getByRole('row')).toHaveCount(2)
  })

  test('edited on both desks at once, a draft shows both versions side by side; the fields chosen are kept on both desks', async ({
    page,
    teamServer,
    openDesk,
  }) => {
    const workspaceUrl = await teamServer.createWorkspace('autumn', [ANA, BEN])
    await join(page, workspaceUrl, ANA)
    const ben = await openDesk()
    await join(ben, workspaceUrl, BEN)

    await newDraft(page)
    await page.getByLabel(labelled('Product name')).fill('Aviator 58')
    await page.getByLabel(labelled('Brand')).fill('Lumen')
    await saved(page)
    await ben.goto('/#/skus')
    await grid(ben).getByRole('link', { name: 'Aviator 58' }).click({ timeout: ARRIVES.timeout })
    await expect(ben.getByLabel(labelled('Product name'))).toHaveValue('Aviator 58')

    // Both editors open on the same version: Ana changes the name, Ben the brand and the name.
    await page.getByLabel(labelled('Product name')).fill('Aviator 58 Silver')
    await ben.getByLabel(labelled('Product name')).fill('Aviator 58 Gold')
    await ben.getByLabel(labelled('Brand')).fill('Lumen Optics')
    await saved(page)
    await saved(ben)

    for (const desk of [page, ben])
      await expect(desk.getByRole('heading', { name: 'Edited on two desks' })).toBeVisible(ARRIVES)
    const panel = page.getByRole('region', { name: 'Edited on two desks' })
    await panel.getByRole('button', { name: 'Compare versions' }).click()
    const fields = panel.getByRole('table', { name: /disagree on/ })
    await expect(fields.getByRole('rowheader')).toHaveText(['Product name', 'Brand'])
    await expect(fields.getByRole('columnheader')).toHaveText(['Field', /^(ana|ben), /, /^(ana|ben), /])
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'team-conflict-versions')

    // Ana's name with Ben's brand.
    await fields.getByRole('radio', { name: 'Aviator 58 Silver' }).check()
    await fields.getByRole('radio', { name: 'Lumen Optics' }).check()
    await panel.getByRole('button', { name: 'Keep the chosen fields' }).click()
    await expect(panel).toBeHidden()
    await expect(page.getByLabel(labelled('Product name'))).toHaveValue('Aviator 58 Silver')
    await expect(page.getByLabel(labelled('Brand'))).toHaveValue('Lumen Optics')

    // Ben's desk has the same one version, and no conflict any more.
    await expect(ben.getByRole('heading', { name: 'Edited on two desks' })).toBeHidden(ARRIVES)
    await expect(ben.getByLabel(labelled('Product name'))).toHaveValue('Aviator 58 Silver')
    await expect(ben.getByLabel(labelled('Brand'))).toHaveValue('Lumen Optics')
  })
})
