import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { load } from 'js-yaml'
import type { PageActivity, UpdatePhase, UpdateSettings, UpdateStatus } from '#shared/ipc.ts'
import { messageOf } from '#shared/error-message.ts'
import { z } from '#shared/schema/zod.ts'
import { normaliseFeedAddress } from '#shared/update-feed.ts'
import type { AppLog } from '../app-log.ts'
import { writeJsonAtomic } from '../atomic-json.ts'
import type { PreferenceStore } from '../preferences.ts'
import { releaseKeyOf } from './release-signature.ts'
import { verifyDownload } from './verify-download.ts'

/** What the updater says about a version (electron-updater's UpdateInfo, of which this is read). */
export interface UpdateInfoLike {
  version: string
}

/** What the updater says of a download done (electron-updater's UpdateDownloadedEvent). */
export interface UpdateDownloadedLike extends UpdateInfoLike {
  /** Where the installer was downloaded to. */
  downloadedFile: string
}

export interface UpdaterLogger {
  info(message?: unknown): void
  warn(message?: unknown): void
  error(message?: unknown): void
}

/**
 * The part of electron-updater's `AppUpdater` this service uses. Main hands it the real one
 * (src/main/updates.ts); tests hand it the real one too, over a feed on loopback, or a stand-in.
 */
export interface Updater {
  autoDownload: boolean
  /** Kept off: the updater itself never installs at a quit; this service does, once the download verified. */
  autoInstallOnAppQuit: boolean
  /** Lets the updater check when the app is not packaged: whether a check is possible is this service's to say. */
  forceDevUpdateConfig: boolean
  logger: UpdaterLogger | null
  /** Where the updater reads its feed (an app-update.yml); setting it makes the next check read it again. */
  updateConfigPath: string | null
  checkForUpdates(): Promise<{
    isUpdateAvailable: boolean
    updateInfo: UpdateInfoLike
    downloadPromise?: Promise<unknown> | null
  } | null>
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void
  on(event: 'update-available', listener: (info: UpdateInfoLike) => void): unknown
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown
  on(event: 'update-downloaded', listener: (info: UpdateDownloadedLike) => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
}

export interface UpdateServiceOptions {
  /** The updater, loaded on the first check (electron-updater is not loaded in a session that never checks). */
  loadUpdater(): Promise<Updater>
  preferences: PreferenceStore
  log: AppLog
  currentVersion: string
  /**
   * The build's own feed: the app-update.yml electron-builder writes into the package from its
   * `publish` setting. A build without one has no feed unless Settings gives an address.
   */
  buildFeedFile: string
  /** Where the feed from Settings is written as the updater's configuration. */
  dataDir: string
  /** Why this copy cannot install an update itself (not an installed build); undefined when it can. */
  installProblem?: string | undefined
  /**
   * Whether a downloaded update is installed when the app quits. Off on macOS, where Squirrel.Mac,
   * once handed an update, installs it at any quit, even one during a sync: there the update is
   * installed by "Restart to update" only.
   */
  installOnQuit: boolean
  /**
   * The public halves of the release keys (src/node/updates/release-keys.ts, as built in; tests hand
   * in keys of their own the same way): a download is installed only when its signature on the feed
   * verifies with one of them. None: this copy does not update itself.
   */
  releaseKeys: readonly string[]
  /**
   * Asks the person whether checks may go to a new feed address: a dialog of main's own, which the
   * page cannot answer. Anything but yes leaves the address as it was.
   */
  confirmFeedAddress(address: string): Promise<boolean>
  now?: () => number
}

/** What the person is told when the app quits during a sync or an import with an update ready. */
export interface QuitNotice {
  title: string
  message: string
  detail: string
}

export interface UpdateService {
  status(): UpdateStatus
  /** Asks the feed (unless a check or download is under way, or an update is ready); an update found is downloaded. */
  check(reason: 'asked' | 'automatic'): Promise<UpdateStatus>
  /** The automatic check: only when turned on, a feed is set up, and the last check is a day old or more. */
  autoCheck(): Promise<'checked' | 'off' | 'not-set-up' | 'not-due'>
  setSettings(settings: UpdateSettings): Promise<UpdateStatus>
  setActivity(activity: PageActivity): void
  /**
   * A request main sent for the sync engine: an install waits until it has ended, whatever the
   * page reports. A page reloaded (or closed, on macOS) mid-sync reports no run, and main's request
   * may still be out: quitting then would leave its drafts unknown.
   */
  holdFor(request: Promise<unknown>): void
  /** "Restart to update": quits and installs; refused during a sync (see `holdFor`) or an import. */
  install(): void
  /**
   * Called as the app begins to quit (before-quit, which a window may still cancel): whether the
   * update waits. Held back during a sync or an import; the first quit that holds it back returns
   * what to tell the person.
   */
  quitting(): QuitNotice | undefined
  /**
   * Called when the app quits (quit, once every window has closed): installs an update that is
   * ready (its signature verified), unless held back, this platform installs only on "Restart to
   * update", or the app exits with an error.
   */
  quit(exitCode: number): void
}

/** The automatic check asks at most this often. */
export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000
/** The file the feed from Settings is written to, as electron-updater reads a feed (JSON is YAML). */
export const FEED_FILE_NAME = 'update-feed.yml'
/** The folder electron-updater keeps downloads in (electron-builder names it `<package name>-updater`). */
const UPDATER_CACHE_DIR_NAME = 'catalog-desk-updater'

const NOT_SET_UP =
  'Updates are not set up for this build: it names no update feed. Enter a feed address to check one.'
const NO_RELEASE_KEY =
  'This build of Catalog Desk has no release key built in to check an update’s signature with, so it does not update itself.'

/** The build's own feed, as far as the signatures are concerned: a folder on a web server. */
const buildFeedSchema = z.object({ provider: z.literal('generic'), url: z.string().min(1) })

const LONGEST_WORDS = 240

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim()
  return line.length > LONGEST_WORDS ? `${line.slice(0, LONGEST_WORDS - 1)}…` : line
}

/** A failed check or download, in words a person can act on. */
export function updateErrorWords(error: unknown): string {
  const { code, statusCode } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown
    statusCode?: unknown
  }
  const message = messageOf(error)
  switch (code) {
    case 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND': {
      const file = /channel "([^"]+)"/.exec(message)?.[1]
      return `The feed has no ${file ?? 'update information'} for this computer: no version is published there for it.`
    }
    case 'ERR_UPDATER_INVALID_UPDATE_INFO':
    case 'ERR_UPDATER_INVALID_VERSION':
    case 'ERR_UPDATER_NO_FILES_PROVIDED':
    case 'ERR_UPDATER_NO_CHECKSUM':
      return `The feed's update information could not be read (${firstLine(message)}).`
    case 'ERR_CHECKSUM_MISMATCH':
      return 'The downloaded update did not match the checksum the feed gave, so it was thrown away. Try again later.'
  }
  if (typeof statusCode === 'number')
    return `The feed answered HTTP ${statusCode}: no update information was read.`
  const network =
    /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|net::ERR_[A-Z_]+)\b/.exec(message)
  if (network) {
    return `The feed could not be reached (${network[1]}). Check its address and this computer's connection.`
  }
  return `The update did not go through: ${firstLine(message)}`
}

/**
 * What holds an install back: a sync run or an import the page reports, and main's own sync
 * requests still out (see `UpdateService.holdFor`).
 */
function workUnderWay(log: AppLog) {
  let activity: PageActivity = { sync: false, import: false }
  let requestsOut = 0
  const syncing = () => activity.sync || requestsOut > 0
  return {
    busy: () => syncing() || activity.import,
    words: () =>
      syncing() && activity.import ? 'a sync run and an import' : syncing() ? 'a sync run' : 'an import',
    setActivity(next: PageActivity) {
      const before = activity
      activity = { sync: next.sync, import: next.import }
      if (before.sync !== activity.sync)
        log.info(activity.sync ? 'A sync run started in the window.' : 'The sync run ended.')
      if (before.import !== activity.import)
        log.info(activity.import ? 'An import started in the window.' : 'The import ended.')
    },
    holdFor(request: Promise<unknown>) {
      requestsOut++
      const ended = () => void requestsOut--
      request.then(ended, ended)
    },
  }
}

export function createUpdateService(options: UpdateServiceOptions): UpdateService {
  const { preferences, log, currentVersion, installOnQuit } = options
  const now = options.now ?? Date.now
  const feedFile = join(options.dataDir, FEED_FILE_NAME)
  const releaseKeys = options.releaseKeys.map(releaseKeyOf)
  const installProblem = options.installProblem ?? (releaseKeys.length === 0 ? NO_RELEASE_KEY : undefined)

  let phase: Exclude<UpdatePhase, 'not-set-up'> = 'idle'
  let version: string | undefined
  let percent: number | undefined
  let message: string | undefined
  const work = workUnderWay(log)
  /** The quit under way was held back: the update waits for another quit. */
  let heldAtQuit = false
  /** The install has been started ("Restart to update", or at this quit): it is not started again. */
  let installing = false
  let checking: Promise<UpdateStatus> | undefined
  let updater: Promise<Updater> | undefined
  /** The updater once loaded: what happens at quit must happen at once, not a promise later. */
  let loadedUpdater: Updater | undefined
  /** The feed folder of the check whose download is under way: its signature is fetched from there. */
  let downloadFeedFolder: string | undefined

  const { busy, words: busyWords } = work

  function feed(): UpdateStatus['feed'] {
    if (preferences.current().updates.feedAddress) return 'address'
    return existsSync(options.buildFeedFile) ? 'build' : 'none'
  }

  function status(): UpdateStatus {
    const { automatic, feedAddress, lastCheckAt } = preferences.current().updates
    const where = feed()
    // A download under way or done stays so, even when the feed has gone since.
    const shown: UpdatePhase =
      where === 'none' && phase !== 'downloading' && phase !== 'downloaded' ? 'not-set-up' : phase
    return {
      phase: shown,
      currentVersion,
      ...(version !== undefined && shown !== 'not-set-up' ? { version } : {}),
      ...(percent !== undefined && shown === 'downloading' ? { percent } : {}),
      ...(shown === 'not-set-up' ? { message: NOT_SET_UP } : message !== undefined ? { message } : {}),
      ...(lastCheckAt !== undefined ? { lastCheckAt } : {}),
      feed: where,
      busy: busy(),
      canInstall: installProblem === undefined,
      settings: { automatic, feedAddress },
    }
  }

  /**
   * A download is admitted only once its signature verified: until then the phase stays
   * "downloading", so neither "Restart to update" nor a quit installs it. A download that does
   * not verify is deleted, and Settings says why.
   */
  async function admit(info: UpdateDownloadedLike) {
    const check = await verifyDownload({
      file: info.downloadedFile,
      version: info.version,
      feedFolder: downloadFeedFolder,
      keys: releaseKeys,
    }).catch((error: unknown) => ({ verified: false as const, problem: messageOf(error) }))
    version = info.version
    percent = undefined
    if (!check.verified) {
      // electron-updater keeps no other copy: a check downloads it again, and checks it again.
      await rm(info.downloadedFile, { force: true }).catch((error: unknown) =>
        log.warn('The refused download could not be deleted', error),
      )
      phase = 'failed'
      message = `Version ${info.version} was downloaded, but ${check.problem}, so it was thrown away and nothing was installed. Only updates signed with Catalog Desk’s release key are installed.`
      log.error(`The update was refused: ${message}`)
      return
    }
    phase = 'downloaded'
    message = installOnQuit
      ? 'It is installed when Catalog Desk quits, or now with “Restart to update”.'
      : 'Press “Restart to update” to install it.'
    log.info(
      `Version ${info.version} was downloaded and its signature verified (release key ${check.keyId}): it is installed ${installOnQuit ? 'at the next quit or ' : ''}by "Restart to update".`,
    )
  }

  function loadUpdater(): Promise<Updater> {
    updater ??= options.loadUpdater().then((loaded) => {
      // electron-updater's own lines go to the log, as Updater: …
      const line = (text: unknown) => `Updater: ${typeof text === 'string' ? text : messageOf(text)}`
      loaded.logger = {
        info: (text) => log.info(line(text)),
        warn: (text) => log.warn(line(text)),
        error: (text) => log.error(line(text)),
      }
      loaded.forceDevUpdateConfig = true
      loaded.autoDownload = installProblem === undefined
      // electron-updater would install at any quit once downloaded (and on macOS hand the download to
      // Squirrel.Mac at once), before the signature is checked: this service installs, in `quit`.
      loaded.autoInstallOnAppQuit = false
      loaded.on('download-progress', (progress) => {
        if (phase !== 'available' && phase !== 'downloading') return
        phase = 'downloading'
        percent = Math.max(0, Math.min(100, Math.floor(progress.percent)))
      })
      loaded.on('update-downloaded', (info) => {
        phase = 'downloading'
        percent = 100
        void admit(info)
      })
      // Said by the check's or the download's promise, which the updater also rejects.
      loaded.on('error', () => {})
      loadedUpdater = loaded
      return loaded
    })
    // A loader that failed is tried again at the next check.
    updater.catch(() => (updater = undefined))
    return updater
  }

  /** The folder of the build's own feed, when it is one (a generic feed's `url`). */
  async function buildFeedFolder(): Promise<string | undefined> {
    try {
      const parsed = buildFeedSchema.safeParse(load(await readFile(options.buildFeedFile, 'utf8')))
      return parsed.success ? normaliseFeedAddress(parsed.data.url) : undefined
    } catch {
      return undefined
    }
  }

  /** The updater's configuration for this check: the feed from Settings, else the build's own, else none. */
  async function feedConfig(): Promise<
    { file: string; words: string; folder: string | undefined } | undefined
  > {
    const { feedAddress } = preferences.current().updates
    if (feedAddress) {
      await writeJsonAtomic(feedFile, {
        provider: 'generic',
        url: feedAddress,
        updaterCacheDirName: UPDATER_CACHE_DIR_NAME,
      })
      return { file: feedFile, words: feedAddress, folder: feedAddress }
    }
    return existsSync(options.buildFeedFile)
      ? { file: options.buildFeedFile, words: "the build's own feed", folder: await buildFeedFolder() }
      : undefined
  }

  function fail(what: 'check' | 'download', error: unknown) {
    phase = 'failed'
    percent = undefined
    message = updateErrorWords(error)
    log.error(`The update ${what} failed: ${message}`, error)
  }

  async function run(reason: 'asked' | 'automatic'): Promise<UpdateStatus> {
    try {
      const config = await feedConfig()
      if (!config) {
        log.info(`No update check (${reason}): no feed is set up.`)
        return status()
      }
      phase = 'checking'
      version = percent = message = undefined
      const updates = preferences.current().updates
      // A time that could not be kept only means the next automatic check may come sooner.
      await preferences
        .update({ updates: { ...updates, lastCheckAt: now() } })
        .catch((error: unknown) => log.warn('The time of this update check could not be kept', error))
      log.info(
        `Checking for updates (${reason === 'asked' ? 'asked in Settings' : 'automatic'}) at ${config.words}.`,
      )
      const loaded = await loadUpdater()
      loaded.updateConfigPath = config.file
      downloadFeedFolder = config.folder
      const result = await loaded.checkForUpdates()
      if (!result) throw new Error('the updater is not active in this copy of Catalog Desk')
      version = result.updateInfo.version
      if (!result.isUpdateAvailable) {
        phase = 'up-to-date'
        log.info(`Up to date: ${currentVersion} (the feed's latest is ${version}).`)
        return status()
      }
      if (phase === 'checking') phase = 'available'
      if (installProblem !== undefined) message = `${installProblem} Install version ${version} by hand.`
      log.info(
        `Version ${version} is available${installProblem === undefined ? ': downloading it.' : `, and not downloaded: ${installProblem}`}`,
      )
      result.downloadPromise?.then(undefined, (error: unknown) => {
        if (phase === 'available' || phase === 'downloading') fail('download', error)
      })
    } catch (error) {
      fail('check', error)
    }
    return status()
  }

  function check(reason: 'asked' | 'automatic'): Promise<UpdateStatus> {
    if (checking) return checking
    if (phase === 'downloading' || phase === 'downloaded') return Promise.resolve(status())
    checking = run(reason).finally(() => (checking = undefined))
    return checking
  }

  /** Whether a quit now holds the update back, and whether it is the first to (which is logged). */
  function holdsBack(): { hold: boolean; first: boolean } {
    const hold = heldAtQuit || busy()
    const first = hold && !heldAtQuit
    heldAtQuit = hold
    if (first) log.warn(`Quitting during ${busyWords()}: version ${version} is not installed this time.`)
    return { hold, first }
  }

  return {
    status,
    check,

    async autoCheck() {
      const { automatic, lastCheckAt } = preferences.current().updates
      if (!automatic) return 'off'
      if (feed() === 'none') return 'not-set-up'
      const at = now()
      // A last check "in the future" (the clock was set back) does not hold checks off.
      if (lastCheckAt !== undefined && lastCheckAt <= at && at - lastCheckAt < CHECK_INTERVAL_MS)
        return 'not-due'
      await check('automatic')
      return 'checked'
    },

    async setSettings({ automatic, feedAddress }) {
      const kept = preferences.current().updates.feedAddress
      // A new address is asked about in main's own dialog: the page cannot make main trust a feed.
      // (No address at all is the build's own feed, which needs no asking.)
      if (feedAddress && feedAddress !== kept) {
        const confirmed = await options.confirmFeedAddress(feedAddress).catch((error: unknown) => {
          log.error('The question about the new update feed could not be asked', error)
          return false
        })
        if (!confirmed) {
          log.info(`Update feed ${feedAddress} not confirmed: nothing changed.`)
          return status()
        }
      }
      // Read again: the settings may have changed while the dialog was open.
      const before = preferences.current().updates
      await preferences.update({ updates: { ...before, automatic, feedAddress } })
      if (before.automatic !== automatic)
        log.info(`Automatic update checks turned ${automatic ? 'on' : 'off'}.`)
      if (before.feedAddress !== feedAddress) {
        log.info(`Update feed: ${feedAddress || "the build's own"}.`)
        // What the old feed said no longer stands; a download under way or done is kept.
        if (phase !== 'downloading' && phase !== 'downloaded' && phase !== 'checking') {
          phase = 'idle'
          version = message = undefined
        }
      }
      return status()
    },

    setActivity: work.setActivity,
    holdFor: work.holdFor,

    install() {
      if (busy()) {
        throw new Error(
          `${busyWords()[0]!.toUpperCase()}${busyWords().slice(1)} is under way: restart to update once it has ended.`,
        )
      }
      if (phase !== 'downloaded' || !loadedUpdater) {
        throw new Error('No update is ready to install: check for updates first.')
      }
      log.info(`Restarting to install version ${version}.`)
      installing = true
      // Silent (Windows' installer shows no pages) and started again afterwards.
      loadedUpdater.quitAndInstall(true, true)
    },

    quitting() {
      if (phase !== 'downloaded' || !installOnQuit || installing) return undefined
      if (!holdsBack().first) return undefined
      return {
        title: 'Update not installed',
        message: `Version ${version} was not installed: Catalog Desk closed during ${busyWords()}.`,
        detail:
          'An update is never installed while drafts are being sent or imported. It is installed the next time Catalog Desk quits, or with Settings › Updates › Restart to update.',
      }
    },

    quit(exitCode) {
      if (phase !== 'downloaded' || !installOnQuit || installing || !loadedUpdater) return
      if (holdsBack().hold) return
      if (exitCode !== 0) {
        log.info(
          `Version ${version} is not installed at this quit: Catalog Desk exits with code ${exitCode}.`,
        )
        return
      }
      installing = true
      log.info(`Installing version ${version} as Catalog Desk quits.`)
      // As electron-updater's own quit listener would: silent, and not started again.
      loadedUpdater.quitAndInstall(true, false)
    },
  }
}
