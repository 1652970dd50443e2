import { EventEmitter } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Updater, UpdaterLogger } from '#node/updates/update-service.ts'

/** Versions as numbers, part by part (the feeds the tests serve use plain x.y.z). */
function newer(offered: string, current: string): boolean {
  const a = offered.split('.').map(Number)
  const b = current.split('.').map(Number)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0)
  }
  return false
}

/**
 * A stand-in for electron-updater in the browser tests, where there is no Electron to run it: it
 * reads the feed main configured (the JSON file the update service writes), asks that feed for its
 * latest-linux.yml over HTTP, as the generic provider does, and downloads the file it names (its
 * `path`) into a folder of its own, reporting a few steps of progress; the update service then
 * checks that file's signature. It installs nothing: `installs` counts "Restart to update". The
 * real electron-updater is tested against a loopback feed in test/unit/main/updates.test.ts.
 */
export class FeedUpdater extends EventEmitter implements Updater {
  autoDownload = true
  autoInstallOnAppQuit = true
  forceDevUpdateConfig = false
  logger: UpdaterLogger | null = null
  updateConfigPath: string | null = null
  /** How many times "Restart to update" reached the updater. */
  installs = 0
  /** How long each step of the download takes: long enough for the page to show its progress. */
  stepMs = 400

  private readonly currentVersion: string
  /** Where the downloads go: a folder of this updater's own, removed by `dispose`. */
  private folder: Promise<string> | undefined

  constructor(currentVersion: string) {
    super()
    this.currentVersion = currentVersion
  }

  async checkForUpdates() {
    const config = JSON.parse(await readFile(this.updateConfigPath!, 'utf8')) as { url: string }
    const answer = await fetch(`${config.url}/latest-linux.yml`)
    if (!answer.ok)
      throw Object.assign(new Error(`${answer.status} ${answer.statusText}`), { statusCode: answer.status })
    const yml = await answer.text()
    const version = /^version:\s*(\S+)/m.exec(yml)?.[1]
    const path = /^path:\s*(\S+)/m.exec(yml)?.[1]
    if (!version || !path)
      throw Object.assign(new Error('no version or path'), { code: 'ERR_UPDATER_INVALID_UPDATE_INFO' })
    const updateInfo = { version }
    if (!newer(version, this.currentVersion)) return { isUpdateAvailable: false, updateInfo }
    this.emit('update-available', updateInfo)
    return {
      isUpdateAvailable: true,
      updateInfo,
      downloadPromise: this.autoDownload ? this.download(version, `${config.url}/${path}`, path) : null,
    }
  }

  private async download(version: string, address: string, name: string) {
    for (const percent of [0, 35, 70]) {
      await new Promise((resolve) => setTimeout(resolve, this.stepMs))
      this.emit('download-progress', { percent })
    }
    const answer = await fetch(address)
    if (!answer.ok)
      throw Object.assign(new Error(`${answer.status} ${answer.statusText}`), { statusCode: answer.status })
    this.folder ??= mkdtemp(join(tmpdir(), 'catalog-desk-e2e-update-'))
    const downloadedFile = join(await this.folder, name)
    await writeFile(downloadedFile, Buffer.from(await answer.arrayBuffer()))
    this.emit('download-progress', { percent: 100 })
    this.emit('update-downloaded', { version, downloadedFile })
    return [downloadedFile]
  }

  quitAndInstall() {
    this.installs++
  }

  async dispose() {
    if (this.folder) await rm(await this.folder, { recursive: true, force: true })
  }
}
