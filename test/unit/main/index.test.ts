import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { IpcMainInvokeEvent } from 'electron'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { ipcChannel, type LocalSettings, type UpdateStatus } from '#shared/ipc.ts'
import { CHANNELS } from '#shared/ipc-channels.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { thumbnailAddress } from '#shared/thumbnail-address.ts'
import { fakeWebContents } from './fake-web-contents.ts'

// The app's lifecycle, run against a stand-in for Electron's own modules (nothing else is mocked).
const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown
  const listeners = new Map<string, Listener[]>()
  const windows: FakeBrowserWindow[] = []

  class FakeBrowserWindow {
    static getAllWindows = vi.fn(() => windows.filter((window) => !window.closed))
    readonly options: { webPreferences?: { preload?: string } }
    closed = false
    readonly loadURL = vi.fn(async (_url: string) => {})
    readonly once = vi.fn()
    readonly isDestroyed = () => this.closed
    readonly isMinimized = vi.fn(() => false)
    readonly restore = vi.fn()
    readonly focus = vi.fn()
    constructor(options: FakeBrowserWindow['options']) {
      this.options = options
      windows.push(this)
    }
  }

  const app = {
    isPackaged: false,
    requestSingleInstanceLock: vi.fn(() => true),
    enableSandbox: vi.fn(),
    whenReady: vi.fn(async () => {}),
    quit: vi.fn(),
    exit: vi.fn(),
    getName: () => 'Catalog Desk',
    getVersion: () => '9.8.7',
    /** A fresh folder per test stands in for the user's data folder. */
    userData: '',
    /** Where an unpackaged app runs from: the project folder. */
    appPath: '',
    getAppPath: () => app.appPath,
    getPath: vi.fn((name: string) => {
      // Electron's logs folder is the data folder's `logs` on Linux and Windows (~/Library/Logs/… on macOS).
      if (name === 'logs') return join(app.userData, 'logs')
      if (name !== 'userData') throw new Error(`unexpected app.getPath(${name})`)
      return app.userData
    }),
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return app
    }),
  }
  const defaultSession = {
    webRequest: { onHeadersReceived: vi.fn() },
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
  }
  const shell = {
    openExternal: vi.fn(async (_url: string) => {}),
    openPath: vi.fn(async (_path: string) => ''),
  }
  const protocol = {
    registerSchemesAsPrivileged: vi.fn((_schemes: unknown[]) => {
      // Electron only takes privileges before the app is ready.
      if (app.whenReady.mock.calls.length > 0) throw new Error('registerSchemesAsPrivileged after ready')
    }),
    handle: vi.fn((_scheme: string, _handler: (request: Request) => Promise<Response>) => {}),
  }
  const ipc = { handle: vi.fn(), removeHandler: vi.fn() }
  const net = {
    fetch: vi.fn(async (_request: Request, _options: object) => new Response('from the dev server')),
  }
  const autoUpdater = { on: vi.fn() }
  const dialog = {
    showErrorBox: vi.fn((_title: string, _content: string) => {}),
    showMessageBoxSync: vi.fn((_options: object) => 0),
  }

  return {
    app,
    windows,
    FakeBrowserWindow,
    defaultSession,
    shell,
    protocol,
    ipc,
    net,
    dialog,
    autoUpdater,
    emit(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args)
    },
    reset() {
      listeners.clear()
      windows.length = 0
      vi.clearAllMocks()
      app.isPackaged = false
      app.appPath = ''
      app.requestSingleInstanceLock.mockReturnValue(true)
    },
  }
})
vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.FakeBrowserWindow,
  session: { defaultSession: fake.defaultSession },
  shell: fake.shell,
  protocol: fake.protocol,
  net: fake.net,
  ipcMain: fake.ipc,
  dialog: fake.dialog,
  autoUpdater: fake.autoUpdater,
}))

const preloadPath = fileURLToPath(new URL('../../../src/preload/index.cjs', import.meta.url))
const rendererFile = fileURLToPath(new URL('../../../src/renderer/index.html', import.meta.url))
const appUrl = 'app://catalog-desk/index.html'
const DEV_URL = 'http://localhost:5173'
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * Loads src/main/index.ts afresh (it starts the app on import) and waits until it has either quit
 * or opened its window (start-up includes binding the embedded sandbox to a port).
 */
async function startApp(): Promise<void> {
  vi.resetModules()
  await import('#main/index.ts')
  await vi.waitFor(() => {
    if (fake.app.quit.mock.calls.length === 0 && fake.windows.length === 0) throw new Error('still starting')
  })
}

/** Quits as Electron does: will-quit, and again after a listener that prevented it calls app.quit(). */
async function quit(): Promise<{ prevented: boolean }> {
  const quits = fake.app.quit.mock.calls.length
  let prevented = false
  fake.emit('will-quit', { preventDefault: () => (prevented = true) })
  if (!prevented) return { prevented }
  await vi.waitFor(() => expect(fake.app.quit.mock.calls.length).toBe(quits + 1))
  fake.emit('will-quit', { preventDefault: () => expect.fail('quit prevented a second time') })
  return { prevented }
}

const fromAppPage = {
  senderFrame: { url: 'app://catalog-desk/index.html', parent: null },
} as unknown as IpcMainInvokeEvent

function headerPolicy(): string {
  const listener = fake.defaultSession.webRequest.onHeadersReceived.mock.calls[0]![0] as (
    details: object,
    callback: (response: { responseHeaders: Record<string, string[]> }) => void,
  ) => void
  let policy: string[] | undefined
  listener({}, ({ responseHeaders }) => (policy = responseHeaders['Content-Security-Policy']))
  return policy![0]!
}

function ipcListener(channel: string) {
  const call = fake.ipc.handle.mock.calls.find(([name]) => name === channel)
  return call![1] as (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>
}

const originalResourcesPath = Object.getOwnPropertyDescriptor(process, 'resourcesPath')

beforeEach(async () => {
  fake.reset()
  fake.app.userData = await mkdtemp(join(tmpdir(), 'catalog-desk-main-'))
  fake.app.appPath = repoRoot
  // Electron's own property; plain Node has none. Nothing is there unless a test says so.
  Object.defineProperty(process, 'resourcesPath', { value: fake.app.userData, configurable: true })
})

afterEach(async () => {
  vi.unstubAllEnvs()
  if (originalResourcesPath) Object.defineProperty(process, 'resourcesPath', originalResourcesPath)
  else delete (process as { resourcesPath?: string }).resourcesPath
  // Quitting closes the embedded sandbox, as in the app.
  await quit()
  await rm(fake.app.userData, { recursive: true, force: true })
})

describe('src/main/index.ts', () => {
  it('quits at once when another instance holds the lock', async () => {
    fake.app.requestSingleInstanceLock.mockReturnValue(false)
    await startApp()
    expect(fake.app.quit).toHaveBeenCalledOnce()
    expect(fake.app.whenReady).not.toHaveBeenCalled()
    expect(fake.windows).toHaveLength(0)
    expect(fake.ipc.handle).not.toHaveBeenCalled()
  })

  it('packaged: sandboxes, secures, wires IPC and loads the built page with the preload', async () => {
    fake.app.isPackaged = true
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_URL) // a packaged app must ignore it
    await startApp()

    expect(fake.app.enableSandbox).toHaveBeenCalledOnce()
    expect(fake.windows).toHaveLength(1)
    const window = fake.windows[0]!
    expect(window.options.webPreferences?.preload).toBe(preloadPath)
    expect(window.loadURL).toHaveBeenCalledExactlyOnceWith(appUrl)

    // For http(s) responses; the page's own files carry it themselves (next test).
    expect(headerPolicy()).toBe(CONTENT_SECURITY_POLICY)
    expect(fake.defaultSession.setPermissionRequestHandler).toHaveBeenCalledOnce()
    expect(fake.defaultSession.setPermissionCheckHandler).toHaveBeenCalledOnce()
    expect(fake.ipc.handle.mock.calls.map(([channel]) => channel).sort()).toEqual(
      CHANNELS.map(ipcChannel).sort(),
    )
  })

  it('packaged: the app protocol, privileged before ready, serves the renderer folder beside main', async () => {
    fake.app.isPackaged = true
    await startApp()
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledExactlyOnceWith([
      expect.objectContaining({ scheme: 'app' }),
    ])
    expect(fake.protocol.handle).toHaveBeenCalledOnce()
    const [scheme, handler] = fake.protocol.handle.mock.calls[0]!
    expect(scheme).toBe('app')
    // Run from source, main's folder is src/main, so the page served is src/renderer/index.html.
    const answer = await handler(new Request(appUrl))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(await answer.text()).toBe(await readFile(rendererFile, 'utf8'))
    expect((await handler(new Request('app://catalog-desk/..%2f..%2fpackage.json'))).status).toBe(404)
    // The list's thumbnails, with the person's "Allow local addresses" (off for a new user).
    const thumbnail = await handler(
      new Request(`app://catalog-desk${thumbnailAddress('https://10.0.0.1/a.png')}`),
    )
    expect(thumbnail.status).toBe(403)
    expect(await thumbnail.text()).toBe(
      'Not loaded: a local address (10.0.0.1). Settings can allow local addresses.',
    )
  })

  it('development: loads the dev server and sends the dev policy', async () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_URL)
    await startApp()
    const window = fake.windows[0]!
    expect(window.loadURL).toHaveBeenCalledExactlyOnceWith(DEV_URL)
    expect(headerPolicy()).toBe(DEV_CONTENT_SECURITY_POLICY)
    // No app: protocol; main answers the dev server's thumbnail path and passes the rest on.
    expect(fake.protocol.handle).toHaveBeenCalledOnce()
    const [scheme, handler] = fake.protocol.handle.mock.calls[0]!
    expect(scheme).toBe('http')
    const thumbnail = await handler(new Request(`${DEV_URL}${thumbnailAddress('https://10.0.0.1/a.png')}`))
    expect(thumbnail.status).toBe(403)
    expect(fake.net.fetch).not.toHaveBeenCalled()
    const module = new Request(`${DEV_URL}/src/main.ts`)
    expect(await (await handler(module)).text()).toBe('from the dev server')
    expect(fake.net.fetch).toHaveBeenCalledExactlyOnceWith(module, { bypassCustomProtocolHandlers: true })
  })

  it('starts the embedded sandbox, which the default Sandbox profile reaches without a token', async () => {
    fake.app.isPackaged = true
    await startApp()
    const fromApp = { senderFrame: { url: appUrl, parent: null } } as unknown as IpcMainInvokeEvent
    const state = (await ipcListener('catalog-desk:listProfiles')(fromApp)) as {
      activeId: string
      profiles: Array<{ id: string; url: string }>
    }
    expect(state.activeId).toBe('sandbox')
    const sandboxUrl = state.profiles.find((profile) => profile.id === 'sandbox')?.url
    expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await expect(ipcListener('catalog-desk:testConnection')(fromApp, 'sandbox')).resolves.toMatchObject({
      ok: true,
      url: sandboxUrl,
    })
  })

  it('answers IPC from the app page only, with handlers that reach Electron', async () => {
    fake.app.isPackaged = true
    await startApp()
    const fromApp = {
      senderFrame: { url: `${appUrl}#/settings`, parent: null },
    } as unknown as IpcMainInvokeEvent
    const fromElsewhere = {
      senderFrame: { url: 'https://evil.example/', parent: null },
    } as unknown as IpcMainInvokeEvent

    await expect(ipcListener('catalog-desk:getAppInfo')(fromApp)).resolves.toMatchObject({
      name: 'Catalog Desk',
      version: '9.8.7',
      platform: process.platform,
      versions: { node: process.versions.node },
    })
    await ipcListener('catalog-desk:openExternal')(fromApp, 'https://example.com/')
    expect(fake.shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/')

    await expect(
      ipcListener('catalog-desk:openExternal')(fromElsewhere, 'https://example.com/x'),
    ).rejects.toThrow(/not the app's page/)
    expect(fake.shell.openExternal).toHaveBeenCalledOnce()
  })

  it.each([
    ['unpackaged', 'the project folder', false],
    ['packaged', 'process.resourcesPath', true],
  ])('%s: serves the preview samples from the resources folder under %s', async (_name, _where, packaged) => {
    fake.app.isPackaged = packaged
    if (packaged) {
      fake.app.appPath = fake.app.userData
      Object.defineProperty(process, 'resourcesPath', { value: repoRoot, configurable: true })
    }
    await startApp()
    const fromApp = { senderFrame: { url: appUrl, parent: null } } as unknown as IpcMainInvokeEvent
    await expect(
      ipcListener('catalog-desk:loadPreviewAsset')(fromApp, { source: 'sample', name: 'model' }),
    ).resolves.toMatchObject({ name: 'sample-glasses.glb', contentType: 'model/gltf-binary' })
  })

  it('locks down every web contents: navigation stays on the page, links go to the browser', async () => {
    fake.app.isPackaged = true
    await startApp()
    const contents = fakeWebContents()
    fake.emit('web-contents-created', {}, contents.contents)

    expect(contents.emit('will-navigate', `${appUrl}#/skus`).prevented).toBe(false)
    expect(contents.emit('will-navigate', 'https://evil.example/').prevented).toBe(true)
    expect(contents.openWindow('http://example.com/')).toEqual({ action: 'deny' })
    expect(fake.shell.openExternal).not.toHaveBeenCalled()
    expect(contents.openWindow('https://example.com/')).toEqual({ action: 'deny' })
    expect(fake.shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/')
  })

  it('hands the browser the address it checked: the parsed link, never the string as given', async () => {
    fake.app.isPackaged = true
    await startApp()
    const contents = fakeWebContents()
    fake.emit('web-contents-created', {}, contents.contents)
    // What the browser is given, or undefined when nothing is opened.
    const opened: Array<[string, string | undefined]> = [
      ['  https://example.com/help  ', 'https://example.com/help'],
      ['HtTpS://Example.COM/Help', 'https://example.com/Help'],
      ['https:example.com/help', 'https://example.com/help'],
      ['https:\\\\example.com\\help', 'https://example.com/help'],
      ['https:///example.com/help', 'https://example.com/help'],
      ['https://exa\tmple.com/he\nlp', 'https://example.com/help'],
      ['https://example.com/a b', 'https://example.com/a%20b'],
      ['javascript:alert(1)', undefined],
      [' JavaScript://example.com/%0aalert(1)', undefined],
      ['http://example.com/', undefined],
      ['file:///etc/passwd', undefined],
    ]
    for (const [given, expected] of opened) {
      fake.shell.openExternal.mockClear()
      const asked = ipcListener('catalog-desk:openExternal')(fromAppPage, given)
      if (expected === undefined) await expect(asked, given).rejects.toThrow()
      else await asked
      expect(fake.shell.openExternal.mock.calls, `IPC ${JSON.stringify(given)}`).toEqual(
        expected === undefined ? [] : [[expected]],
      )

      fake.shell.openExternal.mockClear()
      expect(contents.openWindow(given)).toEqual({ action: 'deny' })
      expect(fake.shell.openExternal.mock.calls, `window.open ${JSON.stringify(given)}`).toEqual(
        expected === undefined ? [] : [[expected]],
      )
    }
  })

  it.each([
    ['linux', true],
    ['win32', true],
    ['darwin', false],
  ])('on %s, closing the last window quits: %s', async (platform, quits) => {
    await startApp()
    const original = Object.getOwnPropertyDescriptor(process, 'platform')!
    Object.defineProperty(process, 'platform', { value: platform })
    try {
      fake.emit('window-all-closed')
    } finally {
      Object.defineProperty(process, 'platform', original)
    }
    expect(fake.app.quit).toHaveBeenCalledTimes(quits ? 1 : 0)
  })

  it('reopens a window on activate when none is open, and only then', async () => {
    await startApp()
    fake.emit('activate')
    expect(fake.windows).toHaveLength(1)
    fake.windows[0]!.closed = true
    fake.emit('activate')
    expect(fake.windows).toHaveLength(2)
  })

  it('focuses the existing window when a second instance starts', async () => {
    await startApp()
    const window = fake.windows[0]!
    window.isMinimized.mockReturnValue(true)
    fake.emit('second-instance')
    expect(window.restore).toHaveBeenCalledOnce()
    expect(window.focus).toHaveBeenCalledOnce()
  })

  it('npm start (built for production, unpackaged) ignores ELECTRON_RENDERER_URL and loads its own page', async () => {
    vi.stubEnv('DEV', false)
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_URL)
    await startApp()
    expect(fake.windows[0]!.loadURL).toHaveBeenCalledExactlyOnceWith(appUrl)
    expect(headerPolicy()).toBe(CONTENT_SECURITY_POLICY)
  })

  it('quitting waits until the embedded sandbox has closed and written its store', async () => {
    await startApp()
    const settings = (await ipcListener('catalog-desk:getLocalSettings')(fromAppPage)) as LocalSettings
    expect(settings.sandbox).toMatchObject({ running: true })
    const url = (settings.sandbox as { url: string }).url
    expect((await fetch(`${url}/__sandbox/received`)).status).toBe(200)

    expect(fake.app.quit).not.toHaveBeenCalled()
    expect(await quit()).toEqual({ prevented: true })
    // By the time the app quits for good, the sandbox no longer answers.
    await expect(fetch(`${url}/__sandbox/received`)).rejects.toThrow()
  })

  it('a sandbox whose port was taken starts on another, and a profile pointed at the old one follows', async () => {
    // Another program holds the port the sandbox had last time.
    const occupier = createServer()
    await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve))
    const oldPort = (occupier.address() as { port: number }).port
    try {
      await writeFile(
        join(fake.app.userData, 'sandbox-port.json'),
        JSON.stringify({ format: 1, port: oldPort }),
      )
      const local = { id: 'local', name: 'Local', kind: 'service', baseUrl: `http://127.0.0.1:${oldPort}` }
      await writeFile(
        join(fake.app.userData, 'profiles.json'),
        JSON.stringify({ version: 1, activeId: 'sandbox', profiles: [{ ...local, ...DEFAULT_SENDING }] }),
      )
      await startApp()
      const settings = (await ipcListener('catalog-desk:getLocalSettings')(fromAppPage)) as LocalSettings
      const url = (settings.sandbox as { url: string }).url
      expect(url).not.toBe(local.baseUrl)
      expect(settings.sandbox).toMatchObject({
        running: true,
        notice: `The sandbox could not listen on port ${oldPort} again and now listens at ${url}. The profile "Local" was moved there.`,
      })
      const state = (await ipcListener('catalog-desk:listProfiles')(fromAppPage)) as {
        profiles: Array<{ id: string; url: string }>
      }
      expect(state.profiles.find((profile) => profile.id === 'local')?.url).toBe(url)
    } finally {
      await new Promise((resolve) => occupier.close(resolve))
    }
  })

  it('a damaged sandbox store is set aside: the app starts, and Settings says where the old file is', async () => {
    await writeFile(join(fake.app.userData, 'sandbox-received.json'), '{"format":2}\nnot json\n{"skus":[]}\n')
    await startApp()
    expect(fake.windows).toHaveLength(1)
    const settings = (await ipcListener('catalog-desk:getLocalSettings')(fromAppPage)) as LocalSettings
    expect(settings.sandbox).toMatchObject({
      running: true,
      notice: expect.stringMatching(
        /^The sandbox's store could not be used \(line 2 is not JSON\): the sandbox started empty and the old file was kept as .*sandbox-received\.json\.set-aside-/,
      ),
    })
  })

  it('a sandbox that cannot start does not stop the app: Settings says why, and nothing is sent to it', async () => {
    // A data folder that is a file: nothing can be read or moved inside it.
    const notAFolder = join(fake.app.userData, 'user-data')
    await writeFile(notAFolder, 'a file where a folder should be')
    fake.app.userData = notAFolder
    await startApp()
    expect(fake.windows).toHaveLength(1)
    expect(fake.dialog.showErrorBox).not.toHaveBeenCalled()
    const settings = (await ipcListener('catalog-desk:getLocalSettings')(fromAppPage)) as LocalSettings
    expect(settings).toMatchObject({
      allowLocalAddresses: false,
      sandbox: { running: false, problem: expect.stringContaining('sandbox-received.json') },
    })
    await expect(ipcListener('catalog-desk:testConnection')(fromAppPage, 'sandbox')).resolves.toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The embedded sandbox is not running \(.+\); Settings says more\.$/),
    })
    fake.app.userData = dirname(notAFolder)
  })

  it('a start that fails shows a dialog with the reason and the data folder, then exits', async () => {
    fake.app.whenReady.mockRejectedValueOnce(new Error('the GPU process crashed'))
    vi.resetModules()
    await import('#main/index.ts')
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledExactlyOnceWith(1))
    expect(fake.dialog.showErrorBox).toHaveBeenCalledOnce()
    const [title, content] = fake.dialog.showErrorBox.mock.calls[0]!
    expect(title).toBe('Catalog Desk could not start')
    expect(content).toContain('the GPU process crashed')
    expect(content).toContain(fake.app.userData)
  })
  it('writes its log in the logs folder Electron names, and what failed over IPC goes there too', async () => {
    fake.app.isPackaged = true
    await startApp()
    const logFile = join(fake.app.userData, 'logs', 'main.log')
    await expect(
      ipcListener('catalog-desk:openExternal')(fromAppPage, 'http://example.com/'),
    ).rejects.toThrow(/invalid arguments/)
    await ipcListener('catalog-desk:openLogsFolder')(fromAppPage)
    expect(fake.shell.openPath).toHaveBeenCalledExactlyOnceWith(join(fake.app.userData, 'logs'))
    const log = await readFile(logFile, 'utf8')
    expect(log).toMatch(/\[info\]\s+Catalog Desk 9\.8\.7 starting \(installed build\)/)
    expect(log).toMatch(/\[warn\]\s+IPC openExternal: invalid arguments: argument 1: /)
  })

  it('a build without an update feed says so in Settings, and asks nobody', async () => {
    fake.app.isPackaged = true
    await startApp()
    const status = (await ipcListener('catalog-desk:checkForUpdates')(fromAppPage)) as UpdateStatus
    expect(status).toMatchObject({
      phase: 'not-set-up',
      currentVersion: '9.8.7',
      feed: 'none',
      message: expect.stringMatching(/^Updates are not set up for this build/),
    })
    expect(status.lastCheckAt).toBeUndefined()
  })
})
