import { createHash } from 'node:crypto'
import { createServer, request as httpRequest, type RequestOptions, type Server } from 'node:http'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppLog, type AppLog } from '#node/app-log.ts'
import { openPreferences, type PreferenceStore } from '#node/preferences.ts'
import { CHECK_INTERVAL_MS, type Updater, type UpdateService } from '#node/updates/update-service.ts'
import type { UpdateStatus } from '#shared/ipc.ts'

// Updates in main (src/main/updates.ts) with electron-updater itself, against a feed served on
// loopback. Electron is a stand-in: its `app` (events, paths, version), `net.request` (electron-
// updater's HTTP, here over node:http), `session` and `dialog`.
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
    dialog: { showMessageBoxSync: vi.fn((_options: { message: string; detail: string }) => 0) },
    emit(event: string, ...args: unknown[]) {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(...args)
    },
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

/** A file standing in for the new AppImage: big enough to be sent in steps, so progress shows. */
const PACKAGE = Buffer.alloc(256 * 1024, 7)
const PACKAGE_NAME = 'Catalog-Desk-1.1.0.AppImage'

/** electron-builder's generic feed on loopback: latest*.yml (any platform's) and the package, sent slowly. */
async function serveFeed({
  version = '1.1.0',
  status = 200,
  sha512 = createHash('sha512').update(PACKAGE).digest('base64'),
} = {}): Promise<Feed> {
  const requests: string[] = []
  const yml = [
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
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url!, 'http://feed').pathname
    requests.push(path)
    if (status !== 200) return response.writeHead(status).end('no')
    if (/^\/feed\/latest[\w-]*\.yml$/.test(path)) return response.writeHead(200).end(yml)
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
  return {
    url: `http://127.0.0.1:${port}/feed`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        // electron-updater's keep-alive connections would hold the close for seconds.
        server.closeAllConnections()
      }),
  }
}

let dir = ''
let preferences: PreferenceStore
let log: AppLog
let feed: Feed | undefined
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
  await feed?.close()
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
  for (let i = 0; i < 400; i++) {
    const status = service.status()
    seen.push(status)
    if (done(status)) return seen
    await sleep(25)
  }
  throw new Error(`gave up waiting; last status: ${JSON.stringify(seen.at(-1))}`)
}

/**
 * An installed AppImage that found and downloaded 1.1.0 from the loopback feed, with
 * electron-updater's install steps watched (and kept from running).
 */
async function downloaded() {
  await asInstalledAppImage()
  feed = await serveFeed()
  const { service, updater } = start()
  await setFeed(service, feed.url)
  await service.check('asked')
  await until(service, (status) => status.phase === 'downloaded')
  const electronUpdater = await updater()
  const install = vi.spyOn(electronUpdater, 'install').mockReturnValue(false)
  const quitAndInstall = vi.spyOn(electronUpdater, 'quitAndInstall').mockImplementation(() => {})
  return { service, electronUpdater, install, quitAndInstall }
}

describe.runIf(process.platform === 'linux')('updates with electron-updater and a loopback feed', () => {
  it(
    'a check finds the newer version, downloads it (its checksum checked) and has it ready to install',
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
      // The download is where electron-updater keeps it, byte for byte.
      const kept = join(dir, 'cache', 'catalog-desk-updater', 'pending', PACKAGE_NAME)
      expect((await readFile(kept)).equals(PACKAGE)).toBe(true)
      expect(preferences.current().updates.lastCheckAt).toBeGreaterThan(Date.now() - 60_000)
      const written = await readFile(log.file, 'utf8')
      expect(written).toContain(`Checking for updates (asked in Settings) at ${feed.url}.`)
      expect(written).toContain('Version 1.1.0 was downloaded')
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

  it(
    'never installs during a sync: "Restart to update" is refused, and a quit then installs nothing and says why',
    { timeout: 20_000 },
    async () => {
      const { service, electronUpdater, install, quitAndInstall } = await downloaded()

      service.setActivity({ sync: true, import: false })
      expect(service.status().busy).toBe(true)
      expect(() => service.install()).toThrow('A sync run is under way: restart to update once it has ended.')
      expect(quitAndInstall).not.toHaveBeenCalled()

      // The window closes during the run: Electron quits, with exit code 0.
      fake.emit('before-quit', {})
      fake.emit('before-quit', {})
      fake.emit('quit', {}, 0)
      expect(install).not.toHaveBeenCalled()
      expect(electronUpdater.autoInstallOnAppQuit).toBe(false)
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

  it(
    'once the sync has ended, "Restart to update" installs, and so does a quit',
    { timeout: 20_000 },
    async () => {
      const { service, install, quitAndInstall } = await downloaded()

      service.setActivity({ sync: true, import: false })
      service.setActivity({ sync: false, import: false })
      service.install()
      expect(quitAndInstall).toHaveBeenCalledExactlyOnceWith(true, true)
      // electron-updater announces the quit it starts: the new version may take the single-instance lock.
      fake.nativeUpdater.emit('before-quit-for-update')
      expect(fake.app.releaseSingleInstanceLock).toHaveBeenCalledOnce()

      fake.emit('before-quit', {})
      fake.emit('quit', {}, 0)
      // electron-updater's own quit listener: a silent install, as on any quit with an update ready.
      expect(install).toHaveBeenCalledExactlyOnceWith(true, false)
      expect(fake.dialog.showMessageBoxSync).not.toHaveBeenCalled()
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
    const service = startUpdates({ preferences, log, dataDir: join(dir, 'user-data'), timers: false })
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
    await sleep(200)
    expect(feed.requests).not.toContain(`/feed/${PACKAGE_NAME}`)
  })

  it('no feed at all: "Updates are not set up for this build", and nothing is asked or loaded', async () => {
    const loadUpdater = vi.fn(async () => new AppImageUpdater() as Updater)
    const service = startUpdates({
      preferences,
      log,
      dataDir: join(dir, 'user-data'),
      loadUpdater,
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
