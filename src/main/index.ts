import { join } from 'node:path'
import { app, BrowserWindow, clipboard, dialog, net, protocol, session, shell } from 'electron'
import type { AppInfo } from '#shared/ipc.ts'
import { appPage } from './app-page.ts'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appProtocolHandler, devServerThumbnails } from './app-protocol.ts'
import { moveProfilesToSandbox, startEmbeddedSandbox } from './embedded-sandbox.ts'
import { openPreferences } from '#node/preferences.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { knownTokens, rememberingTokens } from '#node/secrets/known-tokens.ts'
import { createTokenStore, type TokenStore } from '#node/secrets/token-store.ts'
import { createTeamWorkspace } from '#node/team/workspace-service.ts'
import type { AppLog } from '#node/app-log.ts'
import { closeBeforeQuit } from './close-before-quit.ts'
import { createHandlers } from './handlers/index.ts'
import { registerIpc } from './ipc.ts'
import { createDispatcher } from './ipc-dispatch.ts'
import {
  applyContentSecurityPolicy,
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  handlePermissions,
  lockDownAllWebContents,
} from './security.ts'
import { createMainWindow } from './window.ts'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import { createFacePhotoStore } from '#node/face-photos.ts'
import { thumbnailRoute } from '#node/thumbnail-route.ts'
import { startupFailure } from './startup-failure.ts'
import { startMainLog } from './logging.ts'
import { startUpdates } from './updates.ts'

// Built layout: out/main/index.js, out/preload/index.cjs, out/renderer/index.html.
const preloadPath = join(import.meta.dirname, '../preload/index.cjs')
const rendererDir = join(import.meta.dirname, '../renderer')

const page = appPage({
  // Only `npm run dev` builds main in development mode; `npm start` and a packaged app are built
  // for production, where this is false at build time and the variable is not even read: a page
  // taken from the environment would be handed IPC, whatever address it names.
  devServerUrl: import.meta.env.DEV && !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined,
})

function appInfo(): AppInfo {
  const { electron, chrome, node } = process.versions
  return {
    name: app.getName(),
    version: app.getVersion(),
    versions: { electron, chrome, node },
    platform: process.platform,
  }
}

const openExternal = (url: string) => shell.openExternal(url)

/** Every token main holds this session, kept out of the log and the diagnostics. */
const tokensSeen = knownTokens()
/** Main's log, once the start has made it: a failed start is written there too. */
let log: AppLog | undefined

function openMainWindow(): BrowserWindow {
  const window = createMainWindow(preloadPath)
  window.loadURL(page.url).catch((error: unknown) => {
    console.error('Could not load the app page', error)
    log?.error('Could not load the app page', error)
  })
  return window
}

async function start(): Promise<void> {
  let mainWindow: BrowserWindow | undefined
  const mainLog = startMainLog(tokensSeen.redact)
  log = mainLog

  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  lockDownAllWebContents(app, { isAppUrl: page.isAppUrl, openExternal })

  await app.whenReady()

  applyContentSecurityPolicy(
    session.defaultSession,
    page.devServerUrl ? DEV_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY,
  )
  // Nothing but the try-on's camera, after the person's click (the allowCamera channel).
  const camera = handlePermissions(session.defaultSession, page)

  const dataDir = app.getPath('userData')
  const sandbox = await startEmbeddedSandbox(dataDir)
  const closing = closeBeforeQuit(app, (what, error) => mainLog.error(what, error))
  const running = sandbox.running
  if (running) closing.add({ name: 'The embedded sandbox', close: () => running.close() })
  const preferences = await openPreferences(dataDir)
  // The preview's bundled samples. Unpackaged, the app path is the project folder, so this is the
  // repository's resources/; packaged, the folder is to be shipped beside the app's archive, as
  // <process.resourcesPath>/resources.
  const resourcesDir = app.isPackaged
    ? join(process.resourcesPath, 'resources')
    : join(app.getAppPath(), 'resources')
  // The list's photos, fetched here for the page; before the window opens, as the page's files.
  const thumbnails = thumbnailRoute({
    policy: page.devServerUrl ? DEV_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY,
    allowLocalAddresses: () => preferences.current().allowLocalAddresses,
    resourcesDir,
  })
  if (!page.devServerUrl) protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir, thumbnails))
  else {
    const passOn = (request: Request) => net.fetch(request, { bypassCustomProtocolHandlers: true })
    protocol.handle('http', devServerThumbnails(page.devServerUrl, thumbnails, passOn))
  }
  // Every token that enters main or leaves the keychain is known to the log's redaction first.
  const tokens = rememberingTokens(createTokenStore(), tokensSeen)
  const profiles = createProfileStore({ dir: dataDir, tokens })
  // A sandbox that could not have its port again takes the profiles pointed at it along.
  const sandboxView = await moveProfilesToSandbox(sandbox, { profiles, tokens })
  const team = teamWorkspace(dataDir, tokens, mainLog)
  closing.add({ name: 'The team workspace', close: () => team.close() })
  const handlers = createHandlers({
    appInfo,
    openExternal,
    writeClipboard: (text) => clipboard.writeText(text),
    previewAssets: createPreviewAssetLoader({
      resourcesDir,
      allowLocalAddresses: () => preferences.current().allowLocalAddresses,
    }),
    preferences,
    profiles,
    tokens,
    sandbox: sandboxView,
    log: mainLog,
    updates: startUpdates({ preferences, log: mainLog, dataDir }),
    openPath: (path) => shell.openPath(path),
    dataDir,
    facePhotos: createFacePhotoStore({ dataDir }),
    camera,
    redact: tokensSeen.redact,
    team,
  })
  registerIpc(createDispatcher(handlers, mainLog), page.isAppUrl)

  mainWindow = openMainWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = openMainWindow()
  })
}

/**
 * The team workspace joined from Settings (issue #41): the one kept from before is opened again and
 * replicates, without holding up the window (a keychain or a replica that fails is said in
 * Settings and the log, never a start that fails). Quitting waits for the replica to close.
 */
function teamWorkspace(dataDir: string, tokens: TokenStore, mainLog: AppLog) {
  const team = createTeamWorkspace({ dataDir, tokens, remember: tokensSeen.remember, log: mainLog })
  team
    .reopen()
    .catch((error: unknown) => mainLog.error('The team workspace could not be opened again', error))
  return team
}

if (app.requestSingleInstanceLock()) {
  // Every renderer sandboxed, whatever its web preferences say.
  app.enableSandbox()
  // Privileges can only be given before the app is ready.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])
  start().catch((error: unknown) => {
    console.error('Catalog Desk could not start', error)
    log?.error('Catalog Desk could not start', error)
    // Never a silent exit: the person sees why, and where to look.
    const { title, content } = startupFailure(error, app.getPath('userData'))
    dialog.showErrorBox(title, content)
    app.exit(1)
  })
} else {
  app.quit()
}
