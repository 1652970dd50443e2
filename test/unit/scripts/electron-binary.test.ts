import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  downloadFailure,
  ElectronBinaryError,
  resolveElectronBinary,
} from '../../../scripts/electron-binary.js'
import { electronVersion, standInDistribution, startElectronMirror } from './electron-stand-ins.ts'
import { freshClone, scratchFolder, startEnvironment } from './fresh-clone.ts'
import { oneLineFailure } from '../one-line-failure.ts'

// The resolver behind `npm start`, `npm run dev`, the Electron suite and CI, on a fresh clone's
// Electron package (never downloaded) and the real package code.
describe('resolveElectronBinary', () => {
  const folders: Array<{ dispose(): void }> = []
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.dispose()
  })

  function fresh(): { dir: string; root: string; cache: string } {
    const folder = scratchFolder('electron-binary')
    folders.push(folder)
    const cache = join(folder.dir, 'electron-cache')
    mkdirSync(cache)
    return { dir: folder.dir, root: freshClone(folder.dir), cache }
  }

  it('finds the executable in the folder ELECTRON_OVERRIDE_DIST_PATH names, without downloading', async () => {
    const { dir, root } = fresh()
    const dist = standInDistribution(dir)
    const found = await resolveElectronBinary({
      root,
      env: startEnvironment({ ELECTRON_OVERRIDE_DIST_PATH: dist }),
    })
    expect(found).toEqual({ path: join(dist, 'electron'), version: electronVersion() })
  })

  it('names the variable and the folder when ELECTRON_OVERRIDE_DIST_PATH holds no Electron', async () => {
    const { dir, root } = fresh()
    const message = await oneLineFailure(
      resolveElectronBinary({ root, env: startEnvironment({ ELECTRON_OVERRIDE_DIST_PATH: dir }) }),
      ElectronBinaryError,
    )
    expect(message).toBe(
      `ELECTRON_OVERRIDE_DIST_PATH is ${dir}, but it holds no Electron executable (looked for ${join(dir, 'electron')}).`,
    )
  })

  it('takes ELECTRON_EXEC_PATH, which electron-vite honours, as it is; refuses one that is not executable', async () => {
    const { dir, root } = fresh()
    const executable = join(standInDistribution(dir), 'electron')
    expect(
      await resolveElectronBinary({ root, env: startEnvironment({ ELECTRON_EXEC_PATH: executable }) }),
    ).toEqual({
      path: executable,
      version: electronVersion(),
    })

    const notExecutable = join(dir, 'electron-text')
    writeFileSync(notExecutable, 'not a program')
    chmodSync(notExecutable, 0o644)
    expect(
      await oneLineFailure(
        resolveElectronBinary({ root, env: startEnvironment({ ELECTRON_EXEC_PATH: notExecutable }) }),
        ElectronBinaryError,
      ),
    ).toBe(`ELECTRON_EXEC_PATH is ${notExecutable}, which is not an executable file.`)
  })

  it('says the address when the download host answers with an error', async () => {
    const { root, cache } = fresh()
    const mirror = await startElectronMirror({ status: 404 })
    try {
      const message = await oneLineFailure(
        resolveElectronBinary({
          root,
          env: startEnvironment({ ELECTRON_MIRROR: mirror.url, electron_config_cache: cache }),
        }),
        ElectronBinaryError,
      )
      const version = electronVersion()
      expect(message).toContain(
        `Electron ${version} could not be downloaded (HTTPError: Response code 404 (Not Found) for ${mirror.url}v${version}/electron-v${version}-${process.platform}-${process.arch}.zip)`,
      )
      expect(message).toContain('npx --no install-electron')
    } finally {
      await mirror.close()
    }
  })

  it('tells when a download starts, so a slow one is not taken for a hang', async () => {
    const { root, cache } = fresh()
    const mirror = await startElectronMirror()
    const progress: string[] = []
    try {
      const found = await resolveElectronBinary({
        root,
        env: startEnvironment({
          ELECTRON_MIRROR: mirror.url,
          electron_use_remote_checksums: '1',
          electron_config_cache: cache,
        }),
        onProgress: (line) => progress.push(line),
      })
      expect(found.path).toBe(join(root, 'node_modules/electron/dist/electron'))
      expect(progress[0]).toBe(
        `Downloading Electron ${electronVersion()} for ${process.platform}-${process.arch}, once (about 100 MB)…`,
      )
    } finally {
      await mirror.close()
    }
  })

  it('says to run npm ci when Electron is not installed at all', async () => {
    const folder = scratchFolder('no-electron')
    folders.push(folder)
    writeFileSync(join(folder.dir, 'package.json'), '{"name":"empty"}')
    expect(
      await oneLineFailure(
        resolveElectronBinary({ root: folder.dir, env: startEnvironment({}) }),
        ElectronBinaryError,
      ),
    ).toBe(`Electron's package is not installed in ${folder.dir}: run \`npm ci\` first.`)
  })
})

describe('downloadFailure', () => {
  it('keeps the specific error, not the package generic advice after it', () => {
    const output = [
      'Downloading Electron binary...',
      'HTTPError: Response code 403 (Forbidden) for https://mirror.example/v1/electron.zip',
      '    at FetchDownloader.download (file:///x.js:1:1)',
      '/project/node_modules/electron/index.js:52',
      'Error: Electron failed to install correctly. Please delete `node_modules/electron` and run "npx install-electron --no" manually.',
    ].join('\n')
    expect(downloadFailure(output)).toBe(
      'HTTPError: Response code 403 (Forbidden) for https://mirror.example/v1/electron.zip',
    )
  })

  it('says what a bare "fetch failed" means', () => {
    expect(downloadFailure('TypeError: fetch failed\n    at x')).toBe(
      'no connection to its download host: TypeError: fetch failed',
    )
  })
})
