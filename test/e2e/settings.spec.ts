import type { Page } from '@playwright/test'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { addProfile, openSettings, saveToken } from './harness/settings-page.ts'
import { EMBEDDED_SANDBOX_TOKEN } from '#main/embedded-sandbox.ts'
import { seedDrafts } from '../../bench/seed-drafts.ts'

const result = (page: Page) => page.locator('.connection-result')

/** The sandbox refuses an empty batch (HTTP 400), as a service may: the token was accepted, no more. */
async function expectConnected(page: Page) {
  await expect(result(page).getByText('Token accepted', { exact: true })).toBeVisible()
  await expect(result(page)).toContainText(
    'The service took the token but refused the empty test batch (HTTP 400)',
  )
  await expect(result(page)).toContainText('The batch was empty, so nothing was created')
  await expect(result(page).getByText('Connected', { exact: true })).toHaveCount(0)
}

test.describe('Settings: profiles, token and connection', () => {
  test('the embedded sandbox works out of the box, without a token', async ({ page, sandbox }) => {
    await openSettings(page)
    const sandboxItem = page.getByRole('button', { name: /Sandbox/ })
    await expect(sandboxItem).toContainText('Active')
    await expect(sandboxItem).toContainText(sandbox.url)
    await expect(sandboxItem).toContainText('No token needed')

    await page.getByRole('button', { name: 'Test connection' }).click()
    await expectConnected(page)
    // The test is an empty batch: the sandbox saw one request and stored nothing.
    expect(sandbox.requests()).toHaveLength(1)
    expect(sandbox.received().skus).toEqual([])
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-sandbox')
  })

  test('a token set in Settings is used for the connection test, and a wrong one is reported', async ({
    page,
    sandbox,
  }) => {
    await openSettings(page)
    await addProfile(page, 'Local service', sandbox.url)
    await expect(page.getByText('No token is set for Local service.')).toBeVisible()

    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(result(page)).toContainText('Not connected')
    await expect(result(page)).toContainText(/token/i)
    // Without a token nothing is sent at all.
    expect(sandbox.requests()).toHaveLength(0)

    const token = page.getByLabel('Paste the token')
    await token.fill('not-the-right-token')
    await page.getByRole('button', { name: 'Save token' }).click()
    await expect(page.getByText(/Token (saved in the system keychain|kept in memory)/)).toBeVisible()
    await expect(page.getByLabel('Replace the token')).toHaveValue('')
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(result(page)).toContainText('Not connected')
    await expect(result(page)).toContainText('HTTP 401')

    await saveToken(page, EMBEDDED_SANDBOX_TOKEN)
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expectConnected(page)
    await expect(page.getByRole('button', { name: /Local service/ })).toContainText('Token set')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-custom-profile')

    // A token is bound to its address: a new base URL drops it.
    await page.getByLabel('Service address (base URL)').fill(`${sandbox.url}/elsewhere`)
    await expect(page.getByText(/Saving a new address removes this profile.s token/)).toBeVisible()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('No token is set for Local service.')).toBeVisible()
  })

  // A tryout removed the active profile, and its token with it, in one click; and after "Save new
  // profile", "Save token" or "Use this profile" the keyboard's focus fell back to the page's start.
  test('removing a profile asks first and says where syncing goes; the focus follows each step', async ({
    page,
    sandbox,
  }) => {
    await openSettings(page)
    await addProfile(page, 'Staging copy', sandbox.url)
    const name = page.getByRole('heading', { name: 'Staging copy', level: 2 })
    await expect(name).toBeFocused()
    // A test without a token, then a token saved: the result said of no token is gone with it.
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(result(page)).toContainText('Not connected')
    await page.getByLabel('Paste the token').fill(EMBEDDED_SANDBOX_TOKEN)
    await page.getByRole('button', { name: 'Save token' }).click()
    await expect(page.getByLabel('Replace the token')).toBeFocused()
    await expect(result(page)).toHaveCount(0)
    await page.getByRole('button', { name: 'Use this profile' }).click()
    await expect(name).toBeFocused()

    await page.getByRole('button', { name: 'Remove profile' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Remove the profile “Staging copy”?' })
    await expect(ask).toContainText(
      'its API token is deleted from the system keychain: this cannot be undone',
    )
    await expect(ask).toContainText('It is the active profile: syncing goes to the Sandbox then.')
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-remove-profile')
    await ask.getByRole('button', { name: 'Keep it' }).click()
    await expect(page.getByRole('button', { name: /Staging copy/ })).toContainText('Active')

    await page.getByRole('button', { name: 'Remove profile' }).click()
    await ask.getByRole('button', { name: 'Remove profile' }).click()
    await expect(page.getByRole('button', { name: /Staging copy/ })).toHaveCount(0)
    const sandboxItem = page.getByRole('button', { name: /Sandbox/ })
    await expect(sandboxItem).toContainText('Active')
    await expect(sandboxItem).toBeFocused()
  })

  // A tryout's first "Create" through a profile without a token logged a request "Token refused".
  test('a profile without its token: the Sync page says so and starts nothing, until one is set', async ({
    page,
    sandbox,
  }) => {
    await page.goto('/#/skus')
    await expect(page.getByText('No SKU drafts yet')).toBeVisible()
    await seedDrafts(page, 3)
    await openSettings(page)
    await addProfile(page, 'My staging', sandbox.url)
    await page.getByRole('button', { name: 'Use this profile' }).click()
    await page.getByRole('link', { name: 'Sync' }).click()
    const create = page.getByRole('button', { name: /^Create \d+ new on My staging$/ })
    await expect(create).toBeDisabled()
    await expect(create).toHaveAccessibleDescription(
      'No token is set for My staging, so nothing can be sent there: set one in Settings.',
    )
    expect(sandbox.requests()).toHaveLength(0)
    await screenshot(page, 'sync-no-token')

    await page.getByRole('link', { name: 'set one in Settings' }).first().click()
    await page.getByRole('button', { name: /My staging/ }).click()
    await page.getByLabel('Paste the token').fill(EMBEDDED_SANDBOX_TOKEN)
    await page.getByRole('button', { name: 'Save token' }).click()
    await expect(page.getByLabel('Replace the token')).toBeFocused()
    await page.getByRole('link', { name: 'Sync' }).click()
    await expect(create).toBeEnabled()
  })

  test('profile settings are checked before they are saved, and survive a reload', async ({ page }) => {
    await openSettings(page)
    // A second "Staging" read alike everywhere the destination is named: refused, the name focused.
    await page.getByRole('button', { name: 'Add profile' }).click()
    await page.getByLabel('Name', { exact: true }).fill('staging ')
    await page.getByLabel('Service address (base URL)').fill('https://staging.example.com')
    await page.getByRole('button', { name: 'Save new profile' }).click()
    await expect(
      page.getByText('Another profile is named “staging”: give this one a name of its own'),
    ).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toBeFocused()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Leave without saving' }).click()
    await page.getByRole('button', { name: /Production/ }).click()
    const url = page.getByLabel('Service address (base URL)')
    await expect(url).toHaveValue('https://api.pixelbin.io')
    await url.fill('http://api.example.com')
    await expect(page.getByText(/http:\/\/ is allowed only for this computer/)).toBeVisible()
    // Saving is refused while a problem stands: the field keeps its message and takes the focus.
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(url).toBeFocused()
    await expect(url).toHaveAttribute('aria-invalid', 'true')
    await url.fill('https://api.pixelbin.io')
    await page.getByLabel('Response timeout (seconds)').fill('0')
    await expect(page.getByText('At least 1 second')).toBeVisible()
    await page.getByLabel('Response timeout (seconds)').fill('90')
    await page.getByLabel('SKUs per request').fill('25')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('button', { name: 'Use this profile' }).click()
    await expect(page.getByText('Active profile', { exact: true })).toBeVisible()

    await page.reload()
    await expect(page.getByRole('button', { name: /Production/ })).toContainText('Active')
    await expect(page.getByLabel('SKUs per request')).toHaveValue('25')
    await expect(page.getByLabel('Response timeout (seconds)')).toHaveValue('90')
  })

  test('changes not saved are never dropped without a word: leaving, or choosing another profile, asks first', async ({
    page,
  }) => {
    await openSettings(page)
    await page.getByRole('button', { name: /Production/ }).click()
    const batch = page.getByLabel('SKUs per request')
    await batch.fill('25')
    await page.getByRole('checkbox', { name: 'Brand', exact: true }).check()

    // Leaving by the navigation asks, naming what would be lost; staying keeps it all.
    await page.getByRole('link', { name: 'SKUs' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' })
    await expect(ask).toBeVisible()
    await expect(ask).toContainText(
      'SKUs per request and Required to send SKUs of Production were changed and not saved.',
    )
    await expect(ask.getByRole('button', { name: 'Stay to save them' })).toBeFocused()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-leave-unsaved')
    await ask.getByRole('button', { name: 'Stay to save them' }).click()
    await expect(ask).toBeHidden()
    await expect(page).toHaveURL(/#\/settings$/)
    await expect(batch).toHaveValue('25')
    await expect(page.getByRole('checkbox', { name: 'Brand', exact: true })).toBeChecked()

    // Choosing another profile asks too; Escape stays.
    await page.getByRole('button', { name: /Staging/ }).click()
    await expect(ask).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(ask).toBeHidden()
    await expect(page.getByRole('heading', { name: 'Production', level: 2 })).toBeVisible()
    await expect(batch).toHaveValue('25')

    // Saved, nothing is asked.
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled()
    await page.getByRole('link', { name: 'SKUs' }).click()
    await expect(page).toHaveURL(/#\/skus$/)
    await expect(ask).toHaveCount(0)

    // Leaving without saving, when the person says so, drops only what was not saved.
    await openSettings(page)
    await page.getByRole('button', { name: /Production/ }).click()
    await batch.fill('40')
    await page.getByRole('link', { name: 'Sync' }).click()
    await ask.getByRole('button', { name: 'Leave without saving' }).click()
    await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeVisible()
    await openSettings(page)
    await page.getByRole('button', { name: /Production/ }).click()
    await expect(batch).toHaveValue('25')
    await expect(page.getByRole('checkbox', { name: 'Brand', exact: true })).toBeChecked()
  })

  test('the token appears nowhere the renderer can reach', async ({
    page,
    sandbox,
    bridgeResults,
    mainLogs,
  }) => {
    const secret = `cd-secret-${crypto.randomUUID()}`
    const encoded = Buffer.from(secret).toString('base64')
    await openSettings(page)
    await addProfile(page, 'Leak check', sandbox.url)
    await page.getByLabel('Token encoding').selectOption('base64')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByLabel('Paste the token').fill(secret)
    await page.getByRole('button', { name: 'Save token' }).click()
    await expect(page.getByRole('button', { name: /Leak check/ })).toContainText('Token set')
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(result(page)).toContainText('HTTP 401')
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Service profiles' })).toBeVisible()

    const reachable = await page.evaluate(async () => {
      const g = globalThis as unknown as {
        indexedDB: { databases(): Promise<Array<{ name?: string }>> }
        localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null }
        sessionStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null }
        document: { documentElement: { outerHTML: string }; cookie: string }
      }
      const storage = (area: typeof g.localStorage) =>
        Array.from({ length: area.length }, (_, i) => `${area.key(i)}=${area.getItem(area.key(i) ?? '')}`)
      return JSON.stringify({
        databases: await g.indexedDB.databases(),
        local: storage(g.localStorage),
        session: storage(g.sessionStorage),
        html: g.document.documentElement.outerHTML,
        cookie: g.document.cookie,
      })
    })
    const idb = await page.evaluate(() => {
      type Req<T> = { result: T; onsuccess: (() => void) | null; onerror: (() => void) | null }
      const factory = (globalThis as unknown as { indexedDB: { open(name: string): Req<Db> } }).indexedDB
      type Db = {
        objectStoreNames: ArrayLike<string>
        transaction(names: string[]): { objectStore(name: string): { getAll(): Req<unknown[]> } }
        close(): void
      }
      return new Promise<string>((resolve) => {
        const open = factory.open('catalog-desk')
        open.onsuccess = async () => {
          const db = open.result
          const names = Array.from(db.objectStoreNames)
          const dump: Record<string, unknown[]> = {}
          for (const name of names) {
            dump[name] = await new Promise((done) => {
              const request = db.transaction([name]).objectStore(name).getAll()
              request.onsuccess = () => done(request.result)
            })
          }
          db.close()
          resolve(JSON.stringify(dump))
        }
      })
    })

    const everywhere = [
      reachable,
      idb,
      JSON.stringify(bridgeResults),
      JSON.stringify(mainLogs),
      JSON.stringify(sandbox.requests()),
      JSON.stringify(sandbox.received()),
    ]
    for (const text of everywhere) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(encoded)
    }
    // Proof that the searches looked at real data: the bridge did carry the profile.
    expect(JSON.stringify(bridgeResults)).toContain('Leak check')
  })
})
