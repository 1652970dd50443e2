import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { Page } from '@playwright/test'
import { signatureLine } from '#node/updates/release-signature.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { releaseKey } from './harness/release-key.ts'
import { saveToken } from './harness/settings-page.ts'
import { seedForSync } from './harness/sync-setup.ts'

// Settings › Updates and Settings › Logs and diagnostics, over main's real handlers and update
// service. The updater is the harness's stand-in (harness/feed-updater.ts: it asks the feed Settings
// names for latest-linux.yml over HTTP and downloads the file it names); main's service checks the
// download's signature, made here with the run's release key (harness/release-key.ts).
// electron-updater itself is tested against a loopback feed in test/unit/main/updates.test.ts.

/** Two feed folders on one server: /releases signed by the release key, /unsigned with no signatures. */
let feed: { url: string; unsigned: string; server: Server }

const INSTALLER = 'Catalog-Desk-99.0.0.AppImage'
const INSTALLER_BYTES = Buffer.from('version 99.0.0 of Catalog Desk, standing in for an AppImage')

test.beforeAll(async () => {
  const sha512 = createHash('sha512').update(INSTALLER_BYTES).digest('base64')
  const files = new Map<string, string | Buffer>([
    ['latest-linux.yml', `version: 99.0.0\npath: ${INSTALLER}\nsha512: ${sha512}\n`],
    [INSTALLER, INSTALLER_BYTES],
  ])
  const signature = `${signatureLine(releaseKey.privateKey, '99.0.0', sha512)}\n`
  const server = createServer((request, response) => {
    const [, folder, name] = /^\/(releases|unsigned)\/([^/]+)$/.exec(request.url ?? '') ?? []
    const file = name === `${INSTALLER}.sig` && folder === 'releases' ? signature : files.get(name ?? '')
    if (file === undefined) return response.writeHead(404).end()
    response.writeHead(200).end(file)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  feed = { url: `${origin}/releases`, unsigned: `${origin}/unsigned`, server }
})

test.afterAll(async () => {
  await new Promise((resolve) => feed.server.close(resolve))
})

const updatesPanel = (page: Page) => page.getByRole('region', { name: 'Updates' })
const logsPanel = (page: Page) => page.getByRole('region', { name: 'Logs and diagnostics' })

/** Names the test's feed in Settings and saves it (main's question answered yes). */
async function useFeed(page: Page, url = feed.url) {
  const panel = updatesPanel(page)
  await panel.getByLabel('Update feed address (optional)').fill(url)
  await panel.getByRole('button', { name: 'Save feed address' }).click()
  await expect(panel.getByText('Feed address saved: the next check asks it.')).toBeVisible()
}

const READY =
  'Version 99.0.0 is ready to install. It is installed when Catalog Desk quits, or now with “Restart to update”.'

test.describe('Updates in Settings', () => {
  test('a build without a feed says so; a feed is checked, its newer version downloaded, its signature verified and installed by Restart to update', async ({
    page,
    updater,
    mainLog,
    feedQuestions,
  }) => {
    await page.goto('/#/settings')
    const panel = updatesPanel(page)
    await expect(panel.getByRole('status').first()).toHaveText(
      'Updates are not set up for this build: it names no update feed. Enter a feed address to check one.',
    )
    const check = panel.getByRole('button', { name: 'Check for updates' })
    await expect(check).toBeDisabled()

    // The automatic check is on by default, and its switch is kept by main.
    const automatic = panel.getByLabel('Check for updates automatically')
    await expect(automatic).toBeChecked()
    await expect(automatic).toHaveAccessibleDescription(
      /the feed's server sees this computer's internet address/,
    )
    await automatic.uncheck()
    await page.reload()
    await expect(updatesPanel(page).getByLabel('Check for updates automatically')).not.toBeChecked()

    // Only https, or http to this computer.
    const address = panel.getByLabel('Update feed address (optional)')
    await address.fill('http://updates.example.com/catalog-desk')
    await expect(panel.getByRole('alert')).toHaveText(
      'Enter the feed address as https://host/folder (http:// is allowed only for this computer: 127.0.0.1 or localhost)',
    )
    await expect(panel.getByRole('button', { name: 'Save feed address' })).toBeDisabled()

    // An address typed and not saved is asked about before leaving.
    await page.getByRole('link', { name: 'SKUs' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' })
    await expect(ask).toContainText('The update feed address was changed and not saved.')
    await expect(ask).toContainText('press “Save feed address”')
    await ask.getByRole('button', { name: 'Stay to save them' }).click()

    await useFeed(page)
    expect(feedQuestions.asked).toEqual([feed.url])
    await check.click()
    const status = panel.getByRole('status').first()
    await expect(status).toHaveText(/^Downloading version 99\.0\.0: \d+%\.$/)
    await expect(panel.getByRole('progressbar', { name: 'Update download' })).toBeVisible()
    await screenshot(page, 'settings-update-downloading')
    await expect(status).toHaveText(READY)
    const restart = panel.getByRole('button', { name: 'Restart to update' })
    await expect(restart).toBeEnabled()
    await expect(check).toBeDisabled()
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-update-ready')

    await restart.click()
    await expect.poll(() => updater.installs).toBe(1)
    const written = await readFile(mainLog.file, 'utf8')
    expect(written).toContain(`Checking for updates (asked in Settings) at ${feed.url}.`)
    expect(written).toContain('Version 99.0.0 was downloaded and its signature verified')
    expect(written).toContain('Restarting to install version 99.0.0.')
  })

  test('an update without the release key’s signature is thrown away, and Settings says so', async ({
    page,
    updater,
  }) => {
    await page.goto('/#/settings')
    await useFeed(page, feed.unsigned)
    const panel = updatesPanel(page)
    await panel.getByRole('button', { name: 'Check for updates' }).click()
    const status = panel.getByRole('status').first()
    await expect(status).toHaveText(/^Downloading version 99\.0\.0: \d+%\.$/)
    // The stand-in's download takes its steps, then main fetches the signature: on a loaded machine
    // that is more than the default wait.
    await expect(status).toHaveText(
      `Version 99.0.0 was downloaded, but the feed has no signature for it (${INSTALLER}.sig), so it was thrown away and nothing was installed. Only updates signed with Catalog Desk’s release key are installed.`,
      { timeout: 15_000 },
    )
    await expect(panel.getByRole('button', { name: 'Restart to update' })).toHaveCount(0)
    expect(await axe(page)).toEqual([])
    expect(updater.installs).toBe(0)
  })

  test('a new feed address not confirmed in main’s question is not saved, and the page says so', async ({
    page,
    feedQuestions,
  }) => {
    feedQuestions.answer = false
    await page.goto('/#/settings')
    const panel = updatesPanel(page)
    const address = panel.getByLabel('Update feed address (optional)')
    await address.fill(feed.url)
    await panel.getByRole('button', { name: 'Save feed address' }).click()
    await expect(panel.getByText('Not saved: the new feed address was not confirmed.')).toBeVisible()
    expect(feedQuestions.asked).toEqual([feed.url])
    // Still the build's own feed (none), and the address typed is still there, unsaved.
    await expect(address).toHaveValue(feed.url)
    await page.reload()
    await expect(updatesPanel(page).getByRole('status').first()).toHaveText(
      'Updates are not set up for this build: it names no update feed. Enter a feed address to check one.',
    )
    await expect(updatesPanel(page).getByLabel('Update feed address (optional)')).toHaveValue('')
  })

  test('Restart to update waits while a sync run is under way', async ({
    page,
    pageProblems,
    sandbox,
    updater,
  }) => {
    await seedForSync(page, pageProblems, 3)
    await page.getByRole('link', { name: 'Settings', exact: true }).click()
    await useFeed(page)
    const panel = updatesPanel(page)
    await panel.getByRole('button', { name: 'Check for updates' }).click()
    await expect(panel.getByRole('status').first()).toHaveText(READY)

    // The service takes its time to answer: the run is under way for a few seconds.
    sandbox.addFaults([{ kind: 'latency', delayMs: 4_000, endpoint: 'skus' }])
    await page.getByRole('link', { name: 'Sync', exact: true }).click()
    await page.getByRole('button', { name: 'Create 3 new on Sandbox' }).click()
    await page.getByRole('link', { name: 'Settings', exact: true }).click()

    const restart = panel.getByRole('button', { name: 'Restart to update' })
    await expect(restart).toBeDisabled()
    await expect(
      panel.getByText(/A sync run or an import is under way: the update is not installed until it has ended/),
    ).toBeVisible()
    await expect(restart).toHaveAccessibleDescription(/A sync run or an import is under way/)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-update-waits-for-sync')

    // Once the run has ended, the page tells main, and the button comes back.
    await expect(restart).toBeEnabled({ timeout: 15_000 })
    expect(sandbox.requests()).toHaveLength(1)
    await restart.click()
    await expect.poll(() => updater.installs).toBe(1)
  })
})

test.describe('Logs and diagnostics in Settings', () => {
  test('Open logs folder opens the log’s folder; Copy diagnostics copies the facts and never the token', async ({
    page,
    clipboard,
    openedPaths,
    mainLog,
  }) => {
    const token = `e2e-secret-${crypto.randomUUID()}`
    await page.goto('/#/settings')
    await page.getByRole('button', { name: /Production/ }).click()
    await saveToken(page, token)

    const panel = logsPanel(page)
    await panel.getByRole('button', { name: 'Open logs folder' }).click()
    await expect(panel.getByRole('status')).toHaveText('The logs folder is open in your file manager.')
    expect(openedPaths).toEqual([mainLog.folder])

    await panel.getByRole('button', { name: 'Copy diagnostics' }).click()
    await expect(panel.getByRole('status')).toContainText('Diagnostics copied')
    expect(clipboard).toHaveLength(1)
    const text = clipboard[0]!
    expect(text).toMatch(/^Catalog Desk diagnostics, /)
    expect(text).toContain(`Node: ${process.versions.node}`)
    expect(text).toContain(`OS: ${process.platform} `)
    expect(text).toContain(`Logs folder: ${mainLog.folder}`)
    expect(text).toMatch(
      /- Production \[production\]: https:\/\/api\.pixelbin\.io, a token in (the keychain|memory)/,
    )
    expect(text).toContain('- Staging [staging]: https://api.pixelbinz0.de, no token')
    expect(text).not.toContain(token)
    expect(text).not.toContain(Buffer.from(token).toString('base64').replace(/=+$/, ''))
    const written = await readFile(mainLog.file, 'utf8')
    expect(written).toContain('Token set for [production]')
    expect(written).not.toContain(token)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'settings-logs-diagnostics')
  })
})
