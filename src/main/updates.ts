import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  app,
  BrowserWindow,
  autoUpdater as electronAutoUpdater,
  dialog,
  type MessageBoxOptions,
} from 'electron'
import type { AppLog } from '#node/app-log.ts'
import type { PreferenceStore } from '#node/preferences.ts'
import { RELEASE_PUBLIC_KEYS } from '#node/updates/release-keys.ts'
import { createUpdateService, type Updater, type UpdateService } from '#node/updates/update-service.ts'

/** The first automatic check waits for the start to settle; later, each hour looks whether a day has passed. */
const FIRST_CHECK_DELAY_MS = 30_000
const RECHECK_EVERY_MS = 60 * 60 * 1000

/** Why this copy cannot install an update itself, or undefined when it can. */
export function installProblem(): string | undefined {
  if (!app.isPackaged) {
    return 'This is a development copy of Catalog Desk, not an installed build, so it cannot update itself.'
  }
  // electron-updater replaces the AppImage in place, or installs the .deb electron-builder marked
  // (resources/package-type); any other Linux copy (an unpacked folder) has nothing to replace.
  if (
    process.platform === 'linux' &&
    !process.env.APPIMAGE &&
    !existsSync(join(process.resourcesPath, 'package-type'))
  ) {
    return 'This copy of Catalog Desk was not installed from the AppImage or the .deb package, so it cannot update itself.'
  }
  return undefined
}

/** electron-updater's updater for this platform (AppImage, deb, NSIS, macOS), loaded when first needed. */
async function loadElectronUpdater(): Promise<Updater> {
  const { default: electronUpdater } = await import('electron-updater')
  return electronUpdater.autoUpdater
}

/**
 * Asks, in main's own dialog over the window, whether checks may go to a new feed address: what
 * is downloaded from it runs at the next update, so a page (or a pasted link) cannot decide it alone.
 */
async function confirmFeedAddressInDialog(address: string): Promise<boolean> {
  const options: MessageBoxOptions = {
    type: 'question',
    buttons: ['Use this feed', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Change the update feed',
    message: `Get Catalog Desk's updates from ${address}?`,
    detail:
      'Catalog Desk will download its updates from this address. Use it only if you typed it yourself or it came from whoever manages Catalog Desk for you, not from a message you did not expect. An update is installed only if it is signed with Catalog Desk’s release key.',
  }
  const window = BrowserWindow.getFocusedWindow()
  const { response } = await (window
    ? dialog.showMessageBox(window, options)
    : dialog.showMessageBox(options))
  return response === 0
}

export interface UpdatesWiring {
  preferences: PreferenceStore
  log: AppLog
  dataDir: string
  loadUpdater?: () => Promise<Updater>
  /** The public release keys an update must be signed with: the built-in ones unless a test gives its own. */
  releaseKeys?: readonly string[]
  /** Whether to start the automatic checks' timers (tests call autoCheck themselves). */
  timers?: boolean
}

/**
 * Updates in the app: the service (src/node/updates/update-service.ts) over electron-updater, fed
 * from Settings' address (confirmed in main's dialog) or the build's app-update.yml; the automatic
 * check (at most once a day, unless turned off); and the quit, where a downloaded update whose
 * signature verified is installed unless the page is syncing or importing (or main still has a sync
 * request out), in which case it waits and the person is told.
 */
export function startUpdates({
  preferences,
  log,
  dataDir,
  loadUpdater = loadElectronUpdater,
  releaseKeys = RELEASE_PUBLIC_KEYS,
  timers = true,
}: UpdatesWiring): UpdateService {
  const service = createUpdateService({
    loadUpdater,
    preferences,
    log,
    currentVersion: app.getVersion(),
    // Where electron-updater itself looks: in the package's resources, or the project when unpackaged.
    buildFeedFile: app.isPackaged
      ? join(process.resourcesPath, 'app-update.yml')
      : join(app.getAppPath(), 'dev-app-update.yml'),
    dataDir,
    installProblem: installProblem(),
    installOnQuit: process.platform !== 'darwin',
    releaseKeys,
    confirmFeedAddress: confirmFeedAddressInDialog,
  })
  // The service says what to tell once, at the first quit it holds the update back from.
  app.on('before-quit', () => {
    const notice = service.quitting()
    if (notice) dialog.showMessageBoxSync({ type: 'info', buttons: ['OK'], ...notice })
  })
  // The install itself waits for `quit` (every window closed, nothing left to cancel the quit).
  app.on('quit', (_event, exitCode) => service.quit(exitCode))
  // "Restart to update" starts the new version while this one is still quitting (electron-updater
  // says so on Electron's autoUpdater just before it quits): the new one must get the single-instance
  // lock, or it would quit at once and nothing would be running.
  electronAutoUpdater.on('before-quit-for-update', () => app.releaseSingleInstanceLock())
  if (timers) {
    const auto = () =>
      void service
        .autoCheck()
        .catch((error: unknown) => log.error('The automatic update check failed', error))
    setTimeout(auto, FIRST_CHECK_DELAY_MS).unref()
    setInterval(auto, RECHECK_EVERY_MS).unref()
  }
  return service
}
