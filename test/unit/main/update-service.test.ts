import { EventEmitter } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppLog, type AppLog } from '#node/app-log.ts'
import { openPreferences, type PreferenceStore } from '#node/preferences.ts'
import {
  CHECK_INTERVAL_MS,
  createUpdateService,
  FEED_FILE_NAME,
  updateErrorWords,
  type Updater,
  type UpdateServiceOptions,
} from '#node/updates/update-service.ts'

// The update service's own rules, over a stand-in updater that answers as told (electron-updater
// itself is driven against a loopback feed in updates.test.ts).

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

  finishDownload() {
    this.emit('download-progress', { percent: 42.7 })
    this.emit('update-downloaded', { version: this.latest })
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
afterEach(() => rm(dir, { recursive: true, force: true }))

function service(options: Partial<UpdateServiceOptions> = {}) {
  return createUpdateService({
    loadUpdater: async () => updater,
    preferences,
    log,
    currentVersion: '1.0.0',
    buildFeedFile: join(dir, 'app-update.yml'),
    dataDir: dir,
    installOnQuit: true,
    now: () => now,
    ...options,
  })
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
    expect(updater).toMatchObject({
      forceDevUpdateConfig: true,
      autoDownload: true,
      autoInstallOnAppQuit: true,
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

  it('follows the download, and checks no more once an update is ready', async () => {
    const updates = service()
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await expect(updates.check('asked')).resolves.toMatchObject({ phase: 'available', version: '2.0.0' })
    updater.emit('download-progress', { percent: 42.7 })
    expect(updates.status()).toMatchObject({ phase: 'downloading', percent: 42 })
    updater.emit('update-downloaded', { version: '2.0.0' })
    expect(updates.status()).toMatchObject({ phase: 'downloaded', version: '2.0.0' })
    expect(updates.status().percent).toBeUndefined()
    await updates.check('asked')
    expect(updater.checks).toHaveLength(1)
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
    const updates = service({ installOnQuit: false })
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await updates.check('asked')
    expect(updater.autoInstallOnAppQuit).toBe(false)
    updater.finishDownload()
    updates.setActivity({ sync: true, import: false })
    expect(updates.quitting()).toBeUndefined()
    expect(updates.status().message).toBe('Press “Restart to update” to install it.')
    expect(() => updates.install()).toThrow(/under way/)
  })

  it('a quit with no sync or import lets the update install, and tells nobody', async () => {
    const updates = service()
    await updates.setSettings({ automatic: true, feedAddress: 'https://updates.example.com' })
    await updates.check('asked')
    updater.finishDownload()
    updater.autoInstallOnAppQuit = false
    expect(updates.quitting()).toBeUndefined()
    expect(updater.autoInstallOnAppQuit).toBe(true)
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
