import { namedApp, storedApps } from './harness/app-setup.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { progress } from './harness/sync-page.ts'
import { stateOf } from './harness/stored-drafts.ts'

// Creating apps from the Sync page: the editor's summary of what will be sent where, and its question.

const DESKTOP = { width: 1440, height: 900 }

test.use({ actionTimeout: 10_000, viewport: DESKTOP })
test.describe('Creating apps from the Sync page', () => {
  test('shows what each app will be and asks first; Cancel sends nothing', async ({ page, sandbox }) => {
    const glow = await namedApp(page, 'Glow Check')
    const dune = await namedApp(page, 'Dune Skin Scan')
    await page.getByRole('link', { name: 'Sync', exact: true }).click()
    const section = page.getByRole('region', { name: 'Apps to create' })
    const create = section.getByRole('button', { name: 'Create 2 apps on Sandbox' })

    await create.click()
    const dialog = page.getByRole('alertdialog', { name: 'Create 2 apps on Sandbox?' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    const apps = dialog.getByRole('list', { name: 'Apps to create' }).getByRole('listitem')
    await expect(apps).toHaveCount(2)
    // The editor's summary of each (create-summary.ts), then its request.
    for (const [i, name] of ['Dune Skin Scan', 'Glow Check'].entries()) {
      const app = apps.nth(i)
      await expect(app.getByRole('heading', { name: `“${name}”` })).toBeVisible()
      await expect(app.getByRole('definition').first()).toHaveText(name)
      for (const label of ['App name', 'Status', 'Versions', 'Image retention', 'Skin concerns', 'Theme'])
        await expect(app.getByRole('term').filter({ hasText: label })).toHaveCount(1)
      await expect(app.getByText('The request, as it will be sent')).toBeVisible()
    }
    expect(sandbox.received().apps).toHaveLength(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'sync-apps-confirm')

    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(create).toBeFocused()
    expect(sandbox.received().apps).toHaveLength(0)
    expect((await storedApps(page)).map((app) => stateOf(app))).toEqual(['draft', 'draft'])

    await create.click()
    await dialog.getByRole('button', { name: 'Create 2 apps on Sandbox' }).click()
    await expect(progress(page).getByRole('heading', { name: 'Finished' })).toBeVisible({ timeout: 20_000 })
    expect(
      sandbox
        .received()
        .apps.map((app) => app.app.name)
        .sort(),
    ).toEqual(['Dune Skin Scan', 'Glow Check'])
    const stored = new Map((await storedApps(page)).map((app) => [app.id, app]))
    expect(stateOf(stored.get(glow)!)).toBe('synced')
    expect(stateOf(stored.get(dune)!)).toBe('synced')
  })
})
