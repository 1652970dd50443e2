import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { addProfile, openSettings, saveToken } from './harness/settings-page.ts'
import { EMBEDDED_SANDBOX_TOKEN } from '#main/embedded-sandbox.ts'
import { startSandbox } from '#node/sandbox/server.ts'

// Issue 21, Settings: the sandbox's token as printed, the form checked only once touched, a
// question before unsaved profile edits go, and help on where a token comes from and its encoding.

const result = (page: Page) => page.locator('.connection-result').first()

test.describe('Settings in the first hour', () => {
  test('the token Settings names for the sandbox is the one it accepts, and a refusal keeps its words', async ({
    page,
    sandbox,
  }) => {
    await openSettings(page)
    // The profiles' list says what a destination and a profile are, under its heading (issue #37).
    await expect(page.getByRole('list', { name: 'Service profiles' })).toHaveAccessibleDescription(
      "A destination is where your drafts are sent: one of the service's environments, such as the Sandbox built into this app, Staging or Production. A profile is the address and token the app uses to reach one. Sync sends through the active profile.",
    )
    // The Sandbox profile is selected: its help names the token a profile of one's own needs.
    const named = page.locator('.settings-form code')
    await expect(named).toHaveText(EMBEDDED_SANDBOX_TOKEN)
    const printed = (await named.textContent())!.trim()
    await screenshot(page, 'settings-first-hour-sandbox-token')

    // Following the text works.
    await addProfile(page, 'My sandbox', sandbox.url)
    await saveToken(page, printed)
    await page.getByRole('button', { name: 'Test connection' }).click()
    // The sandbox refuses the empty test batch: the token was accepted.
    await expect(result(page).getByText('Token accepted', { exact: true })).toBeVisible()

    // The token the old text named is refused, and the sandbox's words say so unmangled.
    await saveToken(page, 'sandbox')
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(result(page)).toContainText('HTTP 401')
    await expect(result(page)).toContainText('this sandbox accepts the token')
    await expect(result(page)).not.toContainText('[token removed]')
    expect(await axe(page)).toEqual([])
  })

  test('a new profile starts on its name, and Cancel or Escape puts it away (asking when something was typed)', async ({
    page,
  }) => {
    await openSettings(page)
    const add = page.getByRole('button', { name: 'Add profile' })
    await add.click()
    const name = page.getByLabel('Name', { exact: true })
    // Focus is in the form, on the name, selected: typing replaces "New profile".
    await expect(name).toBeFocused()
    await page.keyboard.type('Staging EU')
    await expect(name).toHaveValue('Staging EU')
    // One "Add profile" on the page: the form's own button says what it does.
    await expect(add).toHaveCount(1)
    await expect(page.getByRole('button', { name: 'Save new profile' })).toBeVisible()

    // Escape with a name typed asks first; staying keeps the form as it was.
    await page.keyboard.press('Escape')
    const question = page.getByRole('alertdialog')
    await expect(question).toContainText('Name of the new profile was changed and not saved.')
    await question.getByRole('button', { name: 'Stay to save them' }).click()
    await expect(name).toHaveValue('Staging EU')

    // Cancel, confirmed: the form goes, nothing was added, focus is back on "Add profile".
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    await question.getByRole('button', { name: 'Leave without saving' }).click()
    await expect(page.getByRole('heading', { name: 'New profile' })).toHaveCount(0)
    await expect(add).toBeFocused()
    await expect(page.getByRole('list', { name: 'Service profiles' })).not.toContainText('Staging EU')

    // Untouched, Escape puts it away at once.
    await add.click()
    await expect(name).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('heading', { name: 'New profile' })).toHaveCount(0)
    await expect(add).toBeFocused()
    expect(await axe(page)).toEqual([])
  })

  test('a new profile is checked only once a field is touched or saving is tried', async ({ page }) => {
    await openSettings(page)
    await page.getByRole('button', { name: 'Add profile' }).click()
    const form = page.locator('form.settings-form')
    await expect(form.getByRole('heading', { name: 'New profile' })).toBeVisible()
    // Nothing typed yet: nothing is red.
    await expect(form.locator('.field__errors')).toHaveCount(0)
    await expect(form.locator('[aria-invalid="true"]')).toHaveCount(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-first-hour-new-profile')

    // Leaving the address as it is shows what is wrong with it.
    const url = page.getByLabel('Service address (base URL)')
    await url.focus()
    await page.getByLabel('Token encoding', { exact: true }).focus()
    await expect(url).toHaveAttribute('aria-invalid', 'true')
    await expect(form.locator('.field__errors')).toHaveCount(1)

    // A fresh form again: trying to save shows every problem and takes the focus to the first.
    await page.getByRole('button', { name: /Sandbox/ }).click()
    await page.getByRole('button', { name: 'Add profile' }).first().click()
    await expect(form.locator('.field__errors')).toHaveCount(0)
    await page.getByLabel('Name', { exact: true }).fill('Staging copy')
    await form.getByRole('button', { name: 'Save new profile' }).click()
    await expect(url).toBeFocused()
    await expect(url).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('heading', { name: 'Staging copy', level: 2 })).toHaveCount(0)
    await url.fill('https://api.example.com')
    await expect(form.locator('.field__errors')).toHaveCount(0)
    await form.getByRole('button', { name: 'Save new profile' }).click()
    await expect(page.getByRole('heading', { name: 'Staging copy', level: 2 })).toBeVisible()
    await page.setViewportSize({ width: 1024, height: 800 })
    await page.getByRole('button', { name: 'Add profile' }).first().click()
    await expect(form.locator('.field__errors')).toHaveCount(0)
    await screenshot(page, 'settings-first-hour-new-profile-1024')
  })

  test('a token typed and not saved, or a new profile begun, is not dropped without a question', async ({
    page,
  }) => {
    await openSettings(page)
    await page.getByRole('button', { name: /Production/ }).click()
    await page.getByLabel('Paste the token').fill('typed-but-not-saved')

    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' })
    await page.getByRole('button', { name: /Staging/ }).click()
    await expect(ask).toBeVisible()
    await expect(ask).toContainText('API token of Production was changed and not saved.')
    await expect(ask).toContainText('“Save token”')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-first-hour-unsaved-token')
    await ask.getByRole('button', { name: 'Stay to save them' }).click()
    await expect(page.getByRole('heading', { name: 'Production', level: 2 })).toBeVisible()
    await expect(page.getByLabel('Paste the token')).toHaveValue('typed-but-not-saved')

    // Leaving drops it, and what was typed for Production is not left in Staging's field.
    await page.getByRole('button', { name: /Staging/ }).click()
    await ask.getByRole('button', { name: 'Leave without saving' }).click()
    await expect(page.getByRole('heading', { name: 'Staging', level: 2 })).toBeVisible()
    await expect(page.getByLabel('Paste the token')).toHaveValue('')

    // A new profile begun asks too.
    await page.getByRole('button', { name: 'Add profile' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Half done')
    await page.getByRole('button', { name: /Sandbox/ }).click()
    await expect(ask).toContainText('Name of the new profile was changed and not saved.')
    await page.keyboard.press('Escape')
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Half done')
  })

  // A CI run left Settings while the keychain was still saving a token: the page asked about a
  // token "changed and not saved" that was being saved, and stayed.
  test('a token being saved is no question when the page is left, and is kept all the same', async ({
    page,
    heldAnswers,
  }) => {
    await openSettings(page)
    await page.getByRole('button', { name: /Production/ }).click()
    heldAnswers.hold('setToken')
    await page.getByLabel('Paste the token').fill('a-token-being-saved')
    await page.getByRole('button', { name: 'Save token' }).click()
    await heldAnswers.answered('setToken')

    await page.getByRole('link', { name: 'SKUs' }).click()
    await expect(page.getByRole('heading', { name: 'SKUs', level: 1 })).toBeVisible()
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    heldAnswers.release('setToken')
    await openSettings(page)
    await expect(page.getByRole('button', { name: /Production/ })).toContainText('Token set')
  })

  test('token help says where a token comes from, and “Test both” tells which encoding is accepted', async ({
    page,
    sandbox,
  }) => {
    // A service that takes the token raw only, as the platform's product docs show it.
    const rawOnly = await startSandbox({ port: 0, token: 'first-hour-token', tokenEncoding: 'raw' })
    try {
      await openSettings(page)
      // The embedded sandbox takes either.
      await page.getByRole('button', { name: 'Test both encodings' }).click()
      const encodings = page.getByRole('status', { name: 'Both encodings tested' })
      await expect(encodings).toContainText('accepted the token both ways')
      expect(sandbox.requests()).toHaveLength(2)

      await addProfile(page, 'Raw only', rawOnly.url)
      await expect(page.getByText('Where a token comes from.')).toBeVisible()
      await expect(page.getByText(/organisation's settings/)).toBeVisible()
      await expect(page.getByText(/as the platform's admin SDK does/)).toBeVisible()
      await page.getByLabel('Token encoding', { exact: true }).selectOption('base64')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled()
      await saveToken(page, 'first-hour-token')

      await page.getByRole('button', { name: 'Test both encodings' }).click()
      await expect(encodings).toContainText('Raw: token accepted, empty batch refused (HTTP 400)')
      await expect(encodings).toContainText('Base64-encoded: refused (HTTP 401)')
      await expect(encodings).toContainText(
        'The service accepts the token raw and refuses it base64-encoded.',
      )
      await expect(encodings).toContainText('set Token encoding to “Raw” below and save')
      // Two empty batches, one each way; nothing stored; the profile's setting unchanged.
      expect(rawOnly.requests()).toHaveLength(2)
      expect(rawOnly.received().skus).toEqual([])
      await expect(page.getByLabel('Token encoding', { exact: true })).toHaveValue('base64')
      expect(await axe(page)).toEqual([])
      await screenshot(page, 'settings-first-hour-test-both')
    } finally {
      await rawOnly.close()
    }
  })
})
