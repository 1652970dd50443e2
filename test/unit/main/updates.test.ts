import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, request as httpRequest, type RequestOptions, type Server } from 'node:http'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppLog, type AppLog } from '#node/app-log.ts'
import { openPreferences, PREFERENCES_FILE_NAME, type PreferenceStore } from '#node/preferences.ts'
import { signReleaseFolder } from '#node/updates/release-folder.ts'
import { publicKeyText, releaseKeyOf } from '#node/updates/release-signature.ts'
import { CHECK_INTERVAL_MS, type Updater, type UpdateService } from '#node/updates/update-service.ts'
import type { UpdateStatus } from '#shared/ipc.ts'

// Updates in main (src/main/updates.ts) with electron-updater itself, against a feed served on
// loopback whose installer is signed as the release workflow signs it (release-folder.ts), with a
// key pair made here and handed to main as the built-in keys are. Electron is a stand-in: its
// `app` (events, paths, version), `net.request` (electron-updater's HTTP, here over node:http),
// `session`, `dialog` and `BrowserWindow`.
const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown
  const listeners = new Map<string, Listener[]>()
  const app = {
    isPackaged: true,
    version: '1.0.0',
    dir: '',
    getVersion: () => app.version,
    getName: () => 'Catalog Desk',
    getAppPath: () => join(app.dir, 'app'),
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(`unexpected app.getPath(${name})`)
      return join(app.dir, 'user-data')
    },
    whenReady: async () => {},
    quit: vi.fn(),
    relaunch: vi.fn(),
    releaseSingleInstanceLock: vi.fn(),
    on: (event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return app
    },
    once: (event: string, listener: Listener) => {
      const once: Listener = (...args) => {
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((entry) => entry !== once),
        )
        return listener(...args)
      }
      return app.on(event, once)
    },
  }
  // Joined at the top of the file: a path module is not at hand yet in a hoisted block.
  let join = (...parts: string[]) => parts.join('/')
  const nativeListeners = new Map<string, Listener[]>()
  const nativeUpdater = {
    on: (event: string, listener: Listener) => {
      nativeListeners.set(event, [...(nativeListeners.get(event) ?? []), listener])
      return nativeUpdater
    },
    emit: (event: string, ...args: unknown[]) => {
      for (const listener of nativeListeners.get(event) ?? []) listener(...args)
      return true
    },
  }
  return {
    app,
    nativeUpdater,
    setJoin: (real: typeof join) => (join = real),
    /** Set once node:http is imported: electron-updater's requests, made with Node instead of Chromium. */
    request: undefined as unknown as (options: Record<string, unknown>) => unknown,
    dialog: {
      showMessageBoxSync: vi.fn((_options: { message: string; detail: string }) => 0),
      /** Main's question before a new feed address is used: "Use this feed" (0) unless a test says otherwise. */
      showMessageBox: vi.fn(async (_options: { message: string; buttons: string[] }) => ({ response: 0 })),
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(...args)
    },
    listenerCount: (event: string) => listeners.get(event)?.length ?? 0,
    reset() {
      listeners.clear()
      nativeListeners.clear()
      app.isPackaged = true
      app.version = '1.0.0'
      vi.clearAllMocks()
    },
  }
})

const electron = {
  app: fake.app,
  dialog: fake.dialog,
  net: { request: (options: Record<string, unknown>) => fake.request(options) },
  session: { fromPartition: () => ({}) },
  // Electron's own updater, on which electron-updater announces a quit to install.
  autoUpdater: fake.nativeUpdater,
  // No window has the focus: main's dialog is shown on its own.
  BrowserWindow: { getFocusedWindow: () => null },
}
vi.mock('electron', () => electron)
fake.setJoin(join)
fake.request = ({ session: _session, redirect: _redirect, ...options }) =>
  httpRequest(options as RequestOptions)

// electron-updater is CommonJS and loaded by Node itself, so its require('electron') does not pass
// through vi.mock: the same stand-in goes into Node's module cache (Electron's package would
// otherwise try to download its binary).
const require = createRequire(import.meta.url)
const electronPath = require.resolve('electron')
require.cache[electronPath] = {
  id: electronPath,
  filename: electronPath,
  loaded: true,
  exports: electron,
} as unknown as NodeJS.Module

const { startUpdates } = await import('#main/updates.ts')
const { AppImageUpdater } = (await import('electron-updater')).default

interface Feed {
  url: string
  requests: string[]
  close(): Promise<void>
}

/** The release key of these tests: made here, its public half handed to main as the built-in keys are. */
const releaseKey = generateKeyPairSync('ed25519')
/** A key this version of the app does not know. */
const otherKey = generateKeyPairSync('ed25519')

/** A file standing in for the new AppImage: big enough to be sent in steps, so progress shows. */
const PACKAGE = Buffer.alloc(256 * 1024, 7)
const PACKAGE_NAME = 'Catalog-Desk-1.1.0.AppImage'

function latestYml(version: string, sha512: string): string {
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${PACKAGE_NAME}`,
    `    sha512: ${sha512}`,
    `    size: ${PACKAGE.length}`,
    `path: ${PACKAGE_NAME}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-01-15T10:00:00.000Z'",
    '',
  ].join('\n')
}

/**
 * Signs the package as the release workflow does (scripts/sign-release.ts over a folder with its
 * latest-linux.yml), with `key`, for `version`: the signature file's text.
 */
async function signature(key: KeyObject, version: string): Promise<string> {
  const folder = await mkdtemp(join(dir, 'release-'))
  const sha512 = createHash('sha512').update(PACKAGE).digest('base64')
  await writeFile(join(folder, PACKAGE_NAME), PACKAGE)
  await writeFile(join(folder, 'latest-linux.yml'), latestYml(version, sha512))
  const [signed] = await signReleaseFolder(folder, [key], [releaseKeyOf(publicKeyText(key))])
  return readFile(signed!.signature, 'utf8')
}

/**
 * electron-builder's generic feed on loopback: latest*.yml (any platform's), the package, sent
 * slowly, and its signature, `<package>.sig`: by the release key for the version offered, unless
 * `signed` says otherwise.
 */
async function serveFeed({
  version = '1.1.0',
  status = 200,
  sha512 = createHash('sha512').update(PACKAGE).digest('base64'),
  signed = 'by the release key' as
    'by the release key' | 'by another key' | 'for another version' | 'not at all',
} = {}): Promise<Feed> {
  const requests: string[] = []
  const yml = latestYml(version, sha512)
  const sig =
    signed === 'not at all'
      ? undefined
      : await signature(
          signed === 'by another key' ? otherKey.privateKey : releaseKey.privateKey,
          signed === 'for another version' ? '1.0.5' : version,
        )
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url!, 'http://feed').pathname
    requests.push(path)
    if (status !== 200) return response.writeHead(status).end('no')
    if (/^\/feed\/latest[\w-]*\.yml$/.test(path)) return response.writeHead(200).end(yml)
    if (path === `/feed/${PACKAGE_NAME}.sig` && sig !== undefined) return response.writeHead(200).end(sig)
    if (path === `/feed/${PACKAGE_NAME}`) {
      response.writeHead(200, {
        'content-length': PACKAGE.length,
        'content-type': 'application/octet-stream',
      })
      // Eight steps over about two seconds: electron-updater reports progress once a second.
      for (let part = 0; part < 8; part++) {
        response.write(PACKAGE.subarray((part * PACKAGE.length) / 8, ((part + 1) * PACKAGE.length) / 8))
        await sleep(250)
      }
      return response.end()
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const feed: Feed = {
    url: `http://127.0.0.1:${port}/feed`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        // electron-updater's keep-alive connections would hold the close for seconds.
        server.closeAllConnections()
      }),
  }
  feeds.push(feed)
  return feed
}

let dir = ''
let preferences: PreferenceStore
let log: AppLog
let feed: Feed | undefined
/** Every feed served by the test, closed after it. */
let feeds: Feed[] = []
const originalResourcesPath = Object.getOwnPropertyDescriptor(process, 'resourcesPath')

beforeEach(async () => {
  fake.reset()
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-updates-'))
  fake.app.dir = dir
  await mkdir(join(dir, 'resources'))
  Object.defineProperty(process, 'resourcesPath', { value: join(dir, 'resources'), configurable: true })
  // Downloads go to the cache folder electron-updater derives from these.
  vi.stubEnv('XDG_CACHE_HOME', join(dir, 'cache'))
  vi.stubEnv('APPIMAGE', '')
  delete process.env.APPIMAGE
  preferences = await openPreferences(join(dir, 'user-data'))
  log = createAppLog({ folder: join(dir, 'logs'), redact: (text) => text, console: false })
})

afterEach(async () => {
  vi.unstubAllEnvs()
  if (originalResourcesPath) Object.defineProperty(process, 'resourcesPath', originalResourcesPath)
  else delete (process as { resourcesPath?: string }).resourcesPath
  await Promise.all(feeds.map((served) => served.close()))
  feeds = []
  feed = undefined
  await rm(dir, { recursive: true, force: true })
})

/** An installed AppImage: what electron-updater replaces is this file. */
async function asInstalledAppImage() {
  const appImage = join(dir, 'Catalog-Desk-1.0.0.AppImage')
  await writeFile(appImage, 'the running AppImage')
  vi.stubEnv('APPIMAGE', appImage)
}

/** The updates wiring with a fresh electron-updater AppImage updater (its default one is a singleton). */
function start(): { service: UpdateService; updater: () => Promise<InstanceType<typeof AppImageUpdater>> } {
  let made: Promise<InstanceType<typeof AppImageUpdater>> | undefined
  const updater = () => (made ??= Promise.resolve(new AppImageUpdater()))
  const service = startUpdates({
    preferences,
    log,
    dataDir: join(dir, 'user-data'),
    loadUpdater: updater as () => Promise<Updater>,
    releaseKeys: [publicKeyText(releaseKey.publicKey)],
    timers: false,
  })
  return { service, updater }
}

async function setFeed(service: UpdateService, address: string, automatic = true) {
  await service.setSettings({ automatic, feedAddress: address })
}

/** Reads the status until `done` says so, keeping every status seen. */
async function until(service: UpdateService, done: (status: UpdateStatus) => boolean) {
  const seen: UpdateStatus[] = []
  await vi.waitFor(
    () => {
      seen.push(service.status())
      if (!done(seen.at(-1)!)) throw new Error(`gave up waiting; last status: ${JSON.stringify(seen.at(-1))}`)
    },
    { timeout: 10_000, interval: 25 },
  )
  return seen
}

/** Where electron-updater keeps the download until it is installed. */
const downloadedFile = () => join(dir, 'cache', 'catalog-desk-updater', 'pending', PACKAGE_NAME)

/**
 * An installed AppImage that checks the loopback feed and downloads 1.1.0, with electron-updater's
 * install watched and kept from running (`quitAndInstall` runs as it is, into that `install`).
 */
async function downloading(signed?: NonNullable<Parameters<typeof serveFeed>[0]>['signed']) {
  await asInstalledAppImage()
  feed = await serveFeed({ signed })
  const { service, updater } = start()
  await setFeed(service, feed.url)
  const electronUpdater = await updater()
  const install = vi.spyOn(electronUpdater, 'install').mockReturnValue(false)
  const quitAndInstall = vi.spyOn(electronUpdater, 'quitAndInstall')
  await service.check('asked')
  const seen = await until(service, (status) => status.phase === 'downloaded' || status.phase === 'failed')
  return { service, electronUpdater, install, quitAndInstall, seen }
}

/** As `downloading`, once the signed download is ready to install. */
async function downloaded() {
  const ready = await downloading()
  expect(ready.seen.at(-1)).toMatchObject({ phase: 'downloaded' })
  return ready
}

describe.runIf(process.platform === 'linux')('updates with electron-updater and a loopback feed', () => {
  it(
    'a check finds the newer version, downloads it (its checksum checked), verifies its signature and has it ready to install',
    { timeout: 20_000 },
    async () => {
      await asInstalledAppImage()
      feed = await serveFeed()
      const { service } = start()
      await setFeed(service, feed.url)

      const checked = await service.check('asked')
      expect(checked).toMatchObject({
        phase: 'available',
        version: '1.1.0',
        currentVersion: '1.0.0',
        feed: 'address',
      })
      const seen = await until(
        service,
        (status) => status.phase === 'downloaded' || status.phase === 'failed',
      )
      expect(seen.at(-1)).toMatchObject({
        phase: 'downloaded',
        version: '1.1.0',
        message: 'It is installed when Catalog Desk quits, or now with “Restart to update”.',
      })
      const progress = seen
        .filter((status) => status.phase === 'downloading')
        .map((status) => status.percent!)
      expect(progress.some((percent) => percent > 0 && percent < 100)).toBe(true)

      expect(feed.requests[0]).toBe('/feed/latest-linux.yml')
      expect(feed.requests).toContain(`/feed/${PACKAGE_NAME}`)
      // The signature is asked for from the same folder, once the download is there.
      expect(feed.requests.at(-1)).toBe(`/feed/${PACKAGE_NAME}.sig`)
      // The download is where electron-updater keeps it, byte for byte.
      expect((await readFile(downloadedFile())).equals(PACKAGE)).toBe(true)
      expect(preferences.current().updates.lastCheckAt).toBeGreaterThan(Date.now() - 60_000)
      const written = await readFile(log.file, 'utf8')
      expect(written).toContain(`Checking for updates (asked in Settings) at ${feed.url}.`)
      expect(written).toContain(
        `Version 1.1.0 was downloaded and its signature verified (release key ${releaseKeyOf(publicKeyText(releaseKey.publicKey)).id})`,
      )
    },
  )

  it(
    'a download that does not match its checksum is thrown away, and Settings says so',
    { timeout: 20_000 },
    async () => {
      await asInstalledAppImage()
      feed = await serveFeed({ sha512: createHash('sha512').update('something else').digest('base64') })
      const { service } = start()
      await setFeed(service, feed.url)
      await service.check('asked')
      const seen = await until(
        service,
        (status) => status.phase === 'downloaded' || status.phase === 'failed',
      )
      expect(seen.at(-1)).toMatchObject({
        phase: 'failed',
        message:
          'The downloaded update did not match the checksum the feed gave, so it was thrown away. Try again later.',
      })
    },
  )

  it.each([
    [
      'by another key',
      /^it is not signed with a release key this version of Catalog Desk knows \(signed with [0-9a-f]{16}\)$/,
    ],
    ['not at all', /^the feed has no signature for it \(Catalog-Desk-1\.1\.0\.AppImage\.sig\)$/],
    // A genuine signature, of another version: an old release offered again as a new one.
    [
      'for another version',
      /^its signature does not match it: the file is not the version 1\.1\.0 the release key signed$/,
    ],
  ] as const)(
    'a download signed %s is refused: thrown away, said in Settings, installed neither at quit nor by Restart to update',
    { timeout: 20_000 },
    async (signed, problem) => {
      const { service, install, quitAndInstall, seen } = await downloading(signed)

      expect(seen.some((status) => status.phase === 'downloaded')).toBe(false)
      const refused = seen.at(-1)!
      expect(refused).toMatchObject({ phase: 'failed', version: '1.1.0' })
      const [, said] =
        /^Version 1\.1\.0 was downloaded, but (.*), so it was thrown away and nothing was installed\. Only updates signed with Catalog Desk’s release key are installed\.$/.exec(
          refused.message!,
        )!
      expect(said).toMatch(problem)
      expect(existsSync(downloadedFile())).toBe(false)

      expect(() => service.install()).toThrow('No update is ready to install: check for updates first.')
      fake.emit('before-quit', {})
      fake.emit('quit', {}, 0)
      expect(quitAndInstall).not.toHaveBeenCalled()
      expect(install).not.toHaveBeenCalled()
      // Main's quit listener is the only one: electron-updater never added its own.
      expect(fake.listenerCount('quit')).toBe(1)
      expect(await readFile(log.file, 'utf8')).toContain(
        'The update was refused: Version 1.1.0 was downloaded, but',
      )
    },
  )

  it(
    'never installs during a sync: "Restart to update" is refused, and a quit then installs nothing and says why',
    { timeout: 20_000 },
    async () => {
      const { service, install, quitAndInstall } = await downloaded()

      service.setActivity({ sync: true, import: false })
      expect(service.status().busy).toBe(true)
      expect(() => service.install()).toThrow('A sync run is under way: restart to update once it has ended.')
      expect(quitAndInstall).not.toHaveBeenCalled()

      // The window closes during the run: Electron quits, with exit code 0.
      fake.emit('before-quit', {})
      fake.emit('before-quit', {})
      fake.emit('quit', {}, 0)
      expect(install).not.toHaveBeenCalled()
      expect(fake.dialog.showMessageBoxSync).toHaveBeenCalledOnce()
      expect(fake.dialog.showMessageBoxSync.mock.calls[0]![0]).toMatchObject({
        message: 'Version 1.1.0 was not installed: Catalog Desk closed during a sync run.',
        detail: expect.stringContaining('It is installed the next time Catalog Desk quits'),
      })
      expect(await readFile(log.file, 'utf8')).toContain(
        'Quitting during a sync run: version 1.1.0 is not installed this time.',
      )
    },
  )

  it('once the sync has ended, "Restart to update" installs', { timeout: 20_000 }, async () => {
    const { service, install, quitAndInstall } = await downloaded()

    service.setActivity({ sync: true, import: false })
    service.setActivity({ sync: false, import: false })
    service.install()
    expect(quitAndInstall).toHaveBeenCalledExactlyOnceWith(true, true)
    expect(install).toHaveBeenCalledExactlyOnceWith(true, true)
    // electron-updater announces the quit it starts: the new version may take the single-instance lock.
    fake.nativeUpdater.emit('before-quit-for-update')
    expect(fake.app.releaseSingleInstanceLock).toHaveBeenCalledOnce()
    // The quit that follows does not install a second time.
    fake.emit('before-quit', {})
    fake.emit('quit', {}, 0)
    expect(install).toHaveBeenCalledOnce()
  })

  it(
    'a quit with no sync or import installs the verified update, silently, once; one with an error code does not',
    { timeout: 20_000 },
    async () => {
      const { service, install } = await downloaded()
      // electron-updater never added a quit listener of its own: main's decides.
      expect(fake.listenerCount('quit')).toBe(1)

      fake.emit('quit', {}, 1)
      expect(install).not.toHaveBeenCalled()
      fake.emit('before-quit', {})
      fake.emit('quit', {}, 0)
      expect(install).toHaveBeenCalledExactlyOnceWith(true, false)
      expect(fake.dialog.showMessageBoxSync).not.toHaveBeenCalled()
      fake.emit('quit', {}, 0)
      expect(install).toHaveBeenCalledOnce()
      expect(service.status().phase).toBe('downloaded')
      expect(await readFile(log.file, 'utf8')).toContain('Installing version 1.1.0 as Catalog Desk quits.')
    },
  )

  it('an import under way holds the install back too', { timeout: 20_000 }, async () => {
    const { service, install } = await downloaded()
    service.setActivity({ sync: false, import: true })
    expect(() => service.install()).toThrow('An import is under way: restart to update once it has ended.')
    fake.emit('quit', {}, 0)
    expect(install).not.toHaveBeenCalled()
  })
})

describe('checks with electron-updater and a loopback feed', () => {
  it('up to date when the feed offers the version running', async () => {
    fake.app.version = '1.1.0'
    feed = await serveFeed()
    const { service } = start()
    await setFeed(service, feed.url)
    await expect(service.check('asked')).resolves.toMatchObject({
      phase: 'up-to-date',
      currentVersion: '1.1.0',
      version: '1.1.0',
    })
    expect(feed.requests.filter((path) => path.endsWith('.yml'))).toHaveLength(1)
  })

  it("a new feed address is used only once main's dialog says yes: without it, it is neither kept nor asked", async () => {
    fake.app.version = '1.1.0'
    const kept = await serveFeed()
    const offered = await serveFeed()
    const { service } = start()
    const ymlRequests = (served: Feed) => served.requests.filter((path) => path.endsWith('.yml'))

    await setFeed(service, kept.url)
    expect(fake.dialog.showMessageBox).toHaveBeenCalledOnce()
    expect(fake.dialog.showMessageBox.mock.calls[0]![0]).toMatchObject({
      message: `Get Catalog Desk's updates from ${kept.url}?`,
      buttons: ['Use this feed', 'Cancel'],
    })

    // The page asks for another address (and the switch off); the person answers Cancel.
    fake.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 })
    await expect(service.setSettings({ automatic: false, feedAddress: offered.url })).resolves.toMatchObject({
      feed: 'address',
      settings: { automatic: true, feedAddress: kept.url },
    })
    expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(2)
    const onDisk = JSON.parse(await readFile(join(dir, 'user-data', PREFERENCES_FILE_NAME), 'utf8')) as {
      updates: unknown
    }
    expect(onDisk.updates).toMatchObject({ automatic: true, feedAddress: kept.url })
    await service.check('asked')
    expect(ymlRequests(kept)).toHaveLength(1)
    expect(offered.requests).toEqual([])
    expect(await readFile(log.file, 'utf8')).toContain(
      `Update feed ${offered.url} not confirmed: nothing changed.`,
    )

    // The switch alone is not asked about; the address, asked again and confirmed, is the next check's.
    await service.setSettings({ automatic: false, feedAddress: kept.url })
    expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(2)
    await setFeed(service, offered.url)
    await service.check('asked')
    expect(ymlRequests(offered)).toHaveLength(1)
    expect(ymlRequests(kept)).toHaveLength(1)
  })

  it.each([
    [404, /^The feed has no latest[\w-]*\.yml for this computer: no version is published there for it\.$/],
    [500, /^The feed answered HTTP 500: no update information was read\.$/],
  ])('a feed answering %i: the check failed, in words', async (status, words) => {
    feed = await serveFeed({ status })
    const { service } = start()
    await setFeed(service, feed.url)
    const checked = await service.check('asked')
    expect(checked).toMatchObject({ phase: 'failed', message: expect.stringMatching(words) })
    expect(await readFile(log.file, 'utf8')).toContain('The update check failed:')
  })

  it('automatic checks: none when turned off, at most one a day, and one when a day has passed', async () => {
    feed = await serveFeed()
    const { service } = start()
    const asked = () => feed!.requests.filter((path) => path.endsWith('.yml')).length

    await setFeed(service, feed.url, false)
    await expect(service.autoCheck()).resolves.toBe('off')
    expect(asked()).toBe(0)

    await setFeed(service, feed.url, true)
    await expect(service.autoCheck()).resolves.toBe('checked')
    expect(asked()).toBe(1)
    await expect(service.autoCheck()).resolves.toBe('not-due')
    expect(asked()).toBe(1)

    // The last check was a day and a minute ago (this copy cannot install: it only says what it found).
    const updates = preferences.current().updates
    await preferences.update({
      updates: { ...updates, lastCheckAt: Date.now() - CHECK_INTERVAL_MS - 60_000 },
    })
    await expect(service.autoCheck()).resolves.toBe('checked')
    expect(asked()).toBe(2)
    expect(service.status()).toMatchObject({ phase: 'available', version: '1.1.0' })
  })

  it("a build's own feed (app-update.yml) is used when Settings names none, by the platform's own updater", async () => {
    feed = await serveFeed()
    await writeFile(
      join(dir, 'resources', 'app-update.yml'),
      `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: catalog-desk-updater\n`,
    )
    // The wiring's own loader: electron-updater's updater for this platform.
    const service = startUpdates({
      preferences,
      log,
      dataDir: join(dir, 'user-data'),
      releaseKeys: [publicKeyText(releaseKey.publicKey)],
      timers: false,
    })
    expect(service.status()).toMatchObject({ phase: 'idle', feed: 'build' })
    const checked = await service.check('automatic')
    // Not an AppImage nor a .deb: this copy says what it found and downloads nothing.
    expect(checked).toMatchObject({
      phase: 'available',
      version: '1.1.0',
      canInstall: false,
      message:
        'This copy of Catalog Desk was not installed from the AppImage or the .deb package, so it cannot update itself. Install version 1.1.0 by hand.',
    })
    // electron-updater starts a download inside its check, saying so before the check resolves
    // ("Downloading update from …"): none was started, so the package is never asked for.
    const logged = await readFile(log.file, 'utf8')
    expect(logged).toContain('Updater: Found version 1.1.0')
    expect(logged).not.toContain('Downloading update')
    expect(feed.requests).not.toContain(`/feed/${PACKAGE_NAME}`)
  })

  it('no feed at all: "Updates are not set up for this build", and nothing is asked or loaded', async () => {
    const loadUpdater = vi.fn(async () => new AppImageUpdater() as Updater)
    const service = startUpdates({
      preferences,
      log,
      dataDir: join(dir, 'user-data'),
      loadUpdater,
      releaseKeys: [publicKeyText(releaseKey.publicKey)],
      timers: false,
    })
    await expect(service.check('asked')).resolves.toMatchObject({
      phase: 'not-set-up',
      feed: 'none',
      message:
        'Updates are not set up for this build: it names no update feed. Enter a feed address to check one.',
    })
    await expect(service.autoCheck()).resolves.toBe('not-set-up')
    expect(loadUpdater).not.toHaveBeenCalled()
  })

  it('a development copy checks a feed from Settings but never downloads: it cannot install', async () => {
    fake.app.isPackaged = false
    feed = await serveFeed()
    const { service } = start()
    await setFeed(service, feed.url)
    await expect(service.check('asked')).resolves.toMatchObject({
      phase: 'available',
      canInstall: false,
      message: expect.stringMatching(/^This is a development copy of Catalog Desk/),
    })
  })
})
