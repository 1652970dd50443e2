import { appNameBox, namedApp, storedApps } from './harness/app-setup.ts'
import { flag, newDraft, saved } from './harness/editor-page.ts'
import { lede } from './harness/list-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { progress } from './harness/sync-page.ts'
import { stateOf, storedDrafts } from './harness/stored-drafts.ts'

// What issue 21 left over: the Sync page created apps without the editor's summary and question,
// the import's dry run named its counts in other words than the list, the SKU editor's switches
// kept a "Clear" link beside them, and a window closed on an untouched new draft left it behind.

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

test.describe("The import's dry run", () => {
  test('counts and marks the rows as the Sync page will: ready to send, held back, errors; a field nothing requires “not filled”', async ({
    page,
  }) => {
    await page.goto('/#/import')
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'words.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'Product name,Brand,Barcode,Category,Sub category,Intensity',
          'Aviator,Northwind Optics,5000000000001,eyewear,sunglasses,1.2',
          'Round,Contoso Vision,5000000000002,eyewear,eyeglasses,high',
          'Oval,Lumen Eyewear,5000000000003,eyewear,eyeglasses,0.5',
        ].join('\r\n') + '\r\n',
      ),
    })
    await page.getByRole('button', { name: 'Check the rows' }).click()
    const counts = page.locator('.import-counts')
    await expect(counts).toHaveText(/^Rows3Ready to send2Held back from sending0Errors1$/)
    await expect(counts).not.toContainText(/Valid|Invalid|With warnings/)
    const checks = page.locator('.import-preview tbody tr td:last-child')
    await expect(checks).toHaveText([/^\d+ not filled$/, '1 error', /^\d+ not filled$/])
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'import-dry-run-words')
  })
})

test.describe("The SKU editor's yes/no fields", () => {
  test('are one control each, On, Off or Not set, as in the app editor, with no Clear link', async ({
    page,
  }) => {
    await newDraft(page)
    await expect(page.getByRole('button', { name: /^Clear / })).toHaveCount(0)
    await expect(page.getByRole('switch')).toHaveCount(0)
    const active = flag(page, 'Active')
    await expect(active).toHaveValue('off')
    await expect(active.getByRole('option')).toHaveText(['On', 'Off', 'Not set'])
    await active.selectOption({ label: 'On' })
    await expect(active).toHaveValue('on')

    // An optional one, not set, is set and taken back to "Not set" (absent from the payload).
    const environment = flag(page, 'Use default environment')
    await expect(environment).toHaveValue('unset')
    await environment.selectOption({ label: 'On' })
    await saved(page)
    let [draft] = await storedDrafts(page)
    expect(JSON.stringify(draft!.payload)).toContain('"useDefaultEnvironment":true')
    expect(draft!.payload).toMatchObject({ isActive: true })
    await environment.focus()
    await environment.selectOption('unset')
    await expect(environment).toHaveValue('unset')
    await saved(page)
    ;[draft] = await storedDrafts(page)
    expect(JSON.stringify(draft!.payload)).not.toContain('useDefaultEnvironment')
    expect(await axe(page, { exclude: '.editor__preview' })).toEqual([])
    await screenshot(page, 'sku-editor-flags')

    // The app editor's controls are the same component, still working.
    await namedApp(page, 'Flags')
    await expect(page.getByRole('switch')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^Clear / })).toHaveCount(0)
  })
})

test.describe('New drafts left untouched when the window goes', () => {
  test('closing the window on a new SKU or app leaves no draft; one typed into stays', async ({
    page,
    context,
  }) => {
    await newDraft(page)
    await saved(page)
    await page.close()
    let next = await context.newPage()
    await next.goto('/#/skus')
    await expect(next.getByText('No SKU drafts yet')).toBeVisible()
    expect(await storedDrafts(next)).toEqual([])

    await next.goto('/#/apps')
    await next.getByRole('button', { name: 'New app' }).click()
    await expect(appNameBox(next)).toBeVisible()
    await saved(next)
    await next.close()
    next = await context.newPage()
    await next.goto('/#/apps')
    await expect(next.getByText('No app drafts yet.')).toBeVisible()
    expect(await storedApps(next)).toEqual([])

    // Typed into: kept, whatever happens to the window.
    await newDraft(next)
    await next.getByLabel('Product name').fill('Kept')
    await saved(next)
    await next.close()
    next = await context.newPage()
    await next.goto('/#/skus')
    await expect(lede(next)).toHaveText('1 draft on this computer')
    expect((await storedDrafts(next)).map((draft) => draft.productName)).toEqual(['Kept'])
  })

  test('a reload keeps the new SKU in its editor, and leaving it then discards it', async ({ page }) => {
    await newDraft(page)
    await saved(page)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Untitled SKU' })).toBeVisible()
    await expect(page.getByText('This draft does not exist any more.')).toHaveCount(0)
    await page.getByRole('link', { name: '← All SKUs' }).click()
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    expect(await storedDrafts(page)).toEqual([])
  })

  test("another window's new SKU, still open, is left alone by this window's start", async ({
    page,
    context,
  }) => {
    await newDraft(page)
    await saved(page)
    const other = await context.newPage()
    await other.goto('/#/skus')
    await expect(lede(other)).toHaveText('1 draft on this computer')
    // The first window's editor still works on it.
    await page.getByLabel('Product name').fill('Still here')
    await saved(page)
    expect((await storedDrafts(other)).map((draft) => draft.productName)).toEqual(['Still here'])
  })
})
