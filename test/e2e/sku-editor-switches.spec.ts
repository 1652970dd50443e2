import { namedApp } from './harness/app-setup.ts'
import { flag, newDraft, saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { storedDrafts } from './harness/stored-drafts.ts'

// The SKU editor's yes/no fields: one control each, as in the app editor.

const DESKTOP = { width: 1440, height: 900 }

test.use({ actionTimeout: 10_000, viewport: DESKTOP })
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
