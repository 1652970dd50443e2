import { createHash, generateKeyPairSync } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppLog, type AppLog } from '#node/app-log.ts'
import { openPreferences, type PreferenceStore } from '#node/preferences.ts'
import { publicKeyText, signatureLine } from '#node/updates/release-signature.ts'
import {
  CHECK_INTERVAL_MS,
  createUpdateService,
  FEED_FILE_NAME,
  updateErrorWords,
  type Updater,
  type UpdateServiceOptions,
} from '#node/updates/update-service.ts'

// The update service's own rules, over a stand-in updater that answers as told (electron-updater
// itself is driven against a loopback feed in updates.test.ts). Its downloads are real files, and
// their signatures are served on loopback, made with a key pair of this test's own.

const releaseKey = generateKeyPairSync('ed25519')
/** What the stand-in "downloads": a file of its own for each version. */
const installerOf = (version: string) => `Catalog-Desk-${version}.AppImage`
const bytesOf = (version: string) => Buffer.from(`the installer of version ${version}`)

/** The feed folder where the signatures are: `<installer>.sig`, for each version the stand-in offers. */
let signatures: { url: string; server: Server; served: Map<string, string> }

beforeAll(async () => {
  const served = new Map<string, string>()
  const server = createServer((request, response) => {
    const text = served.get(new URL(request.url!, 'http://feed').pathname)
    if (text === undefined) return response.writeHead(404).end()
    response.writeHead(200).end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  signatures = { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/feed`, server, served }
})
afterAll(() => new Promise((resolve) => signatures.server.close(resolve)))

/** Serves the release key's signature of the stand-in's installer of `version`. */
function sign(version: string) {
  const sha512 = createHash('sha512').update(bytesOf(version)).digest('base64')
  signatures.served.set(
    `/feed/${installerOf(version)}.sig`,
    `${signatureLine(releaseKey.privateKey, version, sha512)}\n`,
  )
}

class StandInUpdater extends EventEmitter implements Updater {
  autoDownload = true
  autoInstallOnAppQuit = true
  forceDevUpdateConfig = false
  logger: Updater['logger'] = null
  updateConfigPath: string | null = null
  latest = '2.0.0'
  failure: Error | undefined
  checks: Array<string | null> = []
  quitAndInstall = vi.fn()
  /** Resolves the check that is under way (to test one that is still running). */
  hold: Promise<void> | undefined

  async checkForUpdates() {
    this.checks.push(this.updateConfigPath)
    await this.hold
    if (this.failure) throw this.failure
    const updateInfo = { version: this.latest }
    if (this.latest === '1.0.0') return { isUpdateAvailable: false, updateInfo }
    return {
      isUpdateAvailable: true,
      updateInfo,
      downloadPromise: this.autoDownload ? Promise.resolve([]) : null,
    }
  }

  /** Writes the installer where electron-updater would keep it, and says it is downloaded. */
  async finishDownload(folder: string) {
    this.emit('download-progress', { percent: 42.7 })
    const downloadedFile = join(folder, installerOf(this.latest))
    await writeFile(downloadedFile, bytesOf(this.latest))
    this.emit('update-downloaded', { version: this.latest, downloadedFile })
    return downloadedFile
  }
}

let dir = ''
let preferences: PreferenceStore
let log: AppLog
let updater: StandInUpdater
let now = 1_800_000_000_000

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-update-service-'))
  preferences = await openPreferences(dir)
  log = createAppLog({ folder: join(dir, 'logs'), redact: (text) => text, console: false })
  updater = new StandInUpdater()
  now = 1_800_000_000_000
})
afterEach(async () => {
  signatures.served.clear()
  await rm(dir, { recursive: true, force: true })
})

function service(options: Partial<UpdateServiceOptions> = {}) {
  return createUpdateService({
    loadUpdater: async () => updater,
    preferences,
    log,
    currentVersion: '1.0.0',
    buildFeedFile: join(dir, 'app-update.yml'),
    dataDir: dir,
    installOnQuit: true,
    releaseKeys: [publicKeyText(releaseKey.publicKey)],
    confirmFeedAddress: async () => true,
    now: () => now,
    ...options,
  })
}

/** A service whose feed is the loopback folder of signatures, with version 2.0.0 found and downloading. */
async function downloadingFromSignedFeed(options: Partial<UpdateServiceOptions> = {}) {
  const updates = service(options)
  await updates.setSettings({ automatic: true, feedAddress: signatures.url })
  await expect(updates.check('asked')).resolves.toMatchObject({ phase: 'available', version: '2.0.0' })
  return updates
}

/** Waits until the download has been verified, or refused. */
async function settled(updates: ReturnType<typeof service>) {
  await vi.waitFor(() => expect(['downloaded', 'failed']).toContain(updates.status().phase))
  return updates.status()
}

describe('the update service', () => {
  it("writes the feed from Settings as electron-updater's configuration, and sets the updater up once", async () => {
    const updates = service()
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com/desk' })
    await updates.check('asked')
    await updates.check('asked')
    const file = join(dir, FEED_FILE_NAME)
    expect(updater.checks).toEqual([file, file])
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      provider: 'generic',
      url: 'https://updates.example.com/desk',
      updaterCacheDirName: 'catalog-desk-updater',
    })
    // The updater never installs at a quit of its own accord: the service does, once the download verified.
    expect(updater).toMatchObject({
      forceDevUpdateConfig: true,
      autoDownload: true,
      autoInstallOnAppQuit: false,
    })
    expect(updater.listenerCount('update-downloaded')).toBe(1)
  })

  it("uses the build's app-update.yml when Settings names no feed", async () => {
    await writeFile(join(dir, 'app-update.yml'), 'provider: generic\nurl: https://example.com\n')
    const updates = service()
    expect(updates.status()).toMatchObject({ phase: 'idle', feed: 'build' })
    await updates.check('asked')
    expect(updater.checks).toEqual([join(dir, 'app-update.yml')])
  })

  it('a check asked while one is under way is the same check', async () => {
    const updates = service()
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    let release = () => {}
    updater.hold = new Promise((resolve) => (release = resolve))
    const first = updates.check('asked')
    await vi.waitFor(() => expect(updates.status().phase).toBe('checking'))
    const second = updates.check('automatic')
    release()
    expect(await first).toEqual(await second)
    expect(updater.checks).toHaveLength(1)
  })

  it('follows the download, has it ready once its signature verified, and checks no more then', async () => {
    sign('2.0.0')
    const updates = await downloadingFromSignedFeed()
    updater.emit('download-progress', { percent: 42.7 })
    expect(updates.status()).toMatchObject({ phase: 'downloading', percent: 42 })
    const file = await updater.finishDownload(dir)
    // Downloaded, and not ready until the signature is checked: nothing can install it meanwhile.
    expect(updates.status()).toMatchObject({ phase: 'downloading', percent: 100 })
    expect(() => updates.install()).toThrow('No update is ready to install')
    await expect(settled(updates)).resolves.toMatchObject({ phase: 'downloaded', version: '2.0.0' })
    expect(updates.status().percent).toBeUndefined()
    expect(existsSync(file)).toBe(true)
    await updates.check('asked')
    expect(updater.checks).toHaveLength(1)
  })

  it('a download whose signature does not verify is deleted, and Settings says why', async () => {
    // The feed's signature is of another installer.
    const other = createHash('sha512').update('another installer').digest('base64')
    signatures.served.set(
      `/feed/${installerOf('2.0.0')}.sig`,
      `${signatureLine(releaseKey.privateKey, '2.0.0', other)}\n`,
    )
    const updates = await downloadingFromSignedFeed()
    const file = await updater.finishDownload(dir)
    await expect(settled(updates)).resolves.toMatchObject({
      phase: 'failed',
      version: '2.0.0',
      message:
        'Version 2.0.0 was downloaded, but its signature does not match it: the file is not the version 2.0.0 the release key signed, so it was thrown away and nothing was installed. Only updates signed with Catalog Desk’s release key are installed.',
    })
    expect(existsSync(file)).toBe(false)
    expect(() => updates.install()).toThrow('No update is ready to install')
    updates.quit(0)
    expect(updater.quitAndInstall).not.toHaveBeenCalled()
  })

  it("the build's own feed: the signature is read from its folder, and one that is not a folder is refused", async () => {
    sign('2.0.0')
    await writeFile(join(dir, 'app-update.yml'), `provider: generic\nurl: ${signatures.url}/\n`)
    const updates = service()
    await updates.check('asked')
    await updater.finishDownload(dir)
    await expect(settled(updates)).resolves.toMatchObject({ phase: 'downloaded', feed: 'build' })

    await writeFile(join(dir, 'app-update.yml'), 'provider: github\nowner: someone\nrepo: desk\n')
    const github = service()
    updater = new StandInUpdater()
    await github.check('asked')
    await updater.finishDownload(dir)
    await expect(settled(github)).resolves.toMatchObject({
      phase: 'failed',
      message: expect.stringContaining(
        "its signature (Catalog-Desk-2.0.0.AppImage.sig) cannot be looked for: this build's own feed is not a folder on a web server (a generic feed)",
      ),
    })
  })

  it('a new feed address forgets what the old feed said; a change of the switch alone does not', async () => {
    const updates = service()
    await updates.setSettings({ automatic: true, feedAddress: 'https://one.example.com' })
    updater.failure = new Error('getaddrinfo ENOTFOUND one.example.com')
    await expect(updates.check('asked')).resolves.toMatchObject({
      phase: 'failed',
      message: "The feed could not be reached (ENOTFOUND). Check its address and this computer's connection.",
    })
    await expect(
      updates.setSettings({ automatic: false, feedAddress: 'https://one.example.com' }),
    ).resolves.toMatchObject({
      phase: 'failed',
    })
    await expect(
      updates.setSettings({ automatic: false, feedAddress: 'https://two.example.com' }),
    ).resolves.toMatchObject({
      phase: 'idle',
      settings: { automatic: false, feedAddress: 'https://two.example.com' },
    })
    const written = await readFile(log.file, 'utf8')
    expect(written).toContain('Automatic update checks turned off.')
    expect(written).toContain('Update feed: https://two.example.com.')
  })

  it('the automatic check: at most once a day, a manual check counting, a clock set back not holding it off', async () => {
    const updates = service()
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await updates.check('asked')
    expect(preferences.current().updates.lastCheckAt).toBe(now)
    now += CHECK_INTERVAL_MS - 1
    await expect(updates.autoCheck()).resolves.toBe('not-due')
    now += 1
    await expect(updates.autoCheck()).resolves.toBe('checked')
    // The clock went back a week: the last check seems to be in the future.
    now -= 7 * CHECK_INTERVAL_MS
    await expect(updates.autoCheck()).resolves.toBe('checked')
    expect(updater.checks).toHaveLength(3)
  })

  it('logs sync runs and imports as the page reports them', async () => {
    const updates = service()
    updates.setActivity({ sync: true, import: false })
    updates.setActivity({ sync: true, import: false })
    updates.setActivity({ sync: false, import: true })
    updates.setActivity({ sync: false, import: false })
    const lines = (await readFile(log.file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^\[[^\]]+\] \[info\]\s+/, ''))
    expect(lines).toEqual([
      'A sync run started in the window.',
      'The sync run ended.',
      'An import started in the window.',
      'The import ended.',
    ])
  })

  it('on macOS (no install at quit) a quit during a sync changes nothing and says nothing', async () => {
    sign('2.0.0')
    const updates = await downloadingFromSignedFeed({ installOnQuit: false })
    expect(updater.autoInstallOnAppQuit).toBe(false)
    await updater.finishDownload(dir)
    await settled(updates)
    updates.setActivity({ sync: true, import: false })
    expect(updates.quitting()).toBeUndefined()
    expect(updates.status().message).toBe('Press “Restart to update” to install it.')
    expect(() => updates.install()).toThrow(/under way/)
    updates.setActivity({ sync: false, import: false })
    updates.quit(0)
    expect(updater.quitAndInstall).not.toHaveBeenCalled()
  })

  it('a quit with no sync or import installs the verified update, tells nobody, and the updater itself never installs at a quit', async () => {
    sign('2.0.0')
    const updates = await downloadingFromSignedFeed()
    await updater.finishDownload(dir)
    await settled(updates)
    expect(updater.autoInstallOnAppQuit).toBe(false)
    expect(updates.quitting()).toBeUndefined()
    updates.quit(0)
    expect(updater.quitAndInstall).toHaveBeenCalledExactlyOnceWith(true, false)
  })

  it('a sync request main still has out holds the install back, though the page reports no run (reloaded mid-sync)', async () => {
    sign('2.0.0')
    const updates = await downloadingFromSignedFeed()
    await updater.finishDownload(dir)
    await settled(updates)
    let answer!: () => void
    const request = new Promise<void>((resolve) => (answer = resolve))
    updates.holdFor(request)
    updates.setActivity({ sync: false, import: false })
    expect(updates.status().busy).toBe(true)
    expect(() => updates.install()).toThrow('A sync run is under way: restart to update once it has ended.')
    answer()
    await request
    expect(updates.status().busy).toBe(false)
    updates.install()
    expect(updater.quitAndInstall).toHaveBeenCalledExactlyOnceWith(true, true)
  })

  it('a new feed address is kept only when the question in main is answered yes; none at all is not asked', async () => {
    const asked: string[] = []
    let answer: boolean | Error = false
    const updates = service({
      confirmFeedAddress: async (address) => {
        asked.push(address)
        if (answer instanceof Error) throw answer
        return answer
      },
    })
    await expect(
      updates.setSettings({ automatic: false, feedAddress: 'https://elsewhere.example.com' }),
    ).resolves.toMatchObject({ feed: 'none', settings: { automatic: true, feedAddress: '' } })
    expect(preferences.current().updates).toMatchObject({ automatic: true, feedAddress: '' })
    await updates.check('asked')
    expect(updater.checks).toEqual([])

    // A question that could not be asked is no yes either.
    answer = new Error('no window')
    await updates.setSettings({ automatic: true, feedAddress: 'https://elsewhere.example.com' })
    expect(preferences.current().updates.feedAddress).toBe('')

    answer = true
    await expect(
      updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' }),
    ).resolves.toMatchObject({ feed: 'address', settings: { feedAddress: 'https://updates.example.com' } })
    await updates.setSettings({ automatic: false, feedAddress: 'https://updates.example.com' })
    await updates.setSettings({ automatic: false, feedAddress: '' })
    expect(asked).toEqual([
      'https://elsewhere.example.com',
      'https://elsewhere.example.com',
      'https://updates.example.com',
    ])
    const written = await readFile(log.file, 'utf8')
    expect(written).toContain('Update feed https://elsewhere.example.com not confirmed: nothing changed.')
    expect(written).toContain('The question about the new update feed could not be asked')
  })

  it('a build with no release key only reports an update, and never downloads it', async () => {
    const updates = service({ releaseKeys: [] })
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await expect(updates.check('asked')).resolves.toMatchObject({
      phase: 'available',
      canInstall: false,
      message:
        'This build of Catalog Desk has no release key built in to check an update’s signature with, so it does not update itself. Install version 2.0.0 by hand.',
    })
    expect(updater.autoDownload).toBe(false)
  })

  it('a built-in key that is not an Ed25519 public key stops the service from starting', () => {
    expect(() => service({ releaseKeys: ['not-a-key'] })).toThrow(
      /^A release key must be an Ed25519 public key's 32 bytes in base64url \(43 characters\): "not-a-key" is not one$/,
    )
  })

  it('an update that cannot be installed here is only reported, never downloaded', async () => {
    const updates = service({ installProblem: 'This copy is not installed.' })
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await expect(updates.check('asked')).resolves.toMatchObject({
      phase: 'available',
      canInstall: false,
      message: 'This copy is not installed. Install version 2.0.0 by hand.',
    })
    expect(updater.autoDownload).toBe(false)
    expect(() => updates.install()).toThrow('No update is ready to install: check for updates first.')
  })
})

describe('a check that cannot start', () => {
  it('a feed configuration that cannot be written is a failed check, said in words, not a stuck one', async () => {
    const notAFolder = join(dir, 'not-a-folder')
    await writeFile(notAFolder, 'a file where the data folder should be')
    const updates = service({ dataDir: notAFolder })
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await expect(updates.check('asked')).resolves.toMatchObject({
      phase: 'failed',
      message: expect.stringMatching(/^The update did not go through: EEXIST: file already exists, mkdir /),
    })
    expect(updater.checks).toEqual([])
  })
})

describe('updateErrorWords', () => {
  it.each([
    [
      Object.assign(new Error('Cannot parse update info from latest.yml: YAMLException: bad\n at …'), {
        code: 'ERR_UPDATER_INVALID_UPDATE_INFO',
      }),
      "The feed's update information could not be read (Cannot parse update info from latest.yml: YAMLException: bad).",
    ],
    [
      new Error('net::ERR_CERT_AUTHORITY_INVALID'),
      "The feed could not be reached (net::ERR_CERT_AUTHORITY_INVALID). Check its address and this computer's connection.",
    ],
    [
      Object.assign(new Error('403 Forbidden'), { statusCode: 403 }),
      'The feed answered HTTP 403: no update information was read.',
    ],
    ['something odd\nwith a second line', 'The update did not go through: something odd'],
  ])('%s', (error, words) => {
    expect(updateErrorWords(error)).toBe(words)
  })
})
