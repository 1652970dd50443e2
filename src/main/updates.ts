import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { app, autoUpdater as electronAutoUpdater, dialog } from 'electron'
import type { AppLog } from '#node/app-log.ts'
import type { PreferenceStore } from '#node/preferences.ts'
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

export interface UpdatesWiring {
  preferences: PreferenceStore
  log: AppLog
  dataDir: string
  loadUpdater?: () => Promise<Updater>
  /** Whether to start the automatic checks' timers (tests call autoCheck themselves). */
  timers?: boolean
}

/**
 * Updates in the app: the service (src/node/updates/update-service.ts) over electron-updater, fed
 * from Settings' address or the build's app-update.yml; the automatic check (at most once a day,
 * unless turned off); and the quit, where a downloaded update is installed unless the page is
 * syncing or importing, in which case it waits and the person is told.
 */
export function startUpdates({
  preferences,
  log,
  dataDir,
  loadUpdater = loadElectronUpdater,
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
  })
  // The service says what to tell once, at the first quit it holds the update back from.
  app.on('before-quit', () => {
    const notice = service.quitting()
    if (notice) dialog.showMessageBoxSync({ type: 'info', buttons: ['OK'], ...notice })
  })
  // Main's listener is registered now, electron-updater's when an update has been downloaded: main's
  // runs first and settles whether the update is installed at this quit.
  app.on('quit', () => void service.quitting())
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
