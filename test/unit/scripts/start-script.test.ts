import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  closedAddress,
  electronVersion,
  LAUNCH_RECORD_VARIABLE,
  readLaunch,
  standInDistribution,
  startElectronMirror,
} from './electron-stand-ins.ts'
import { freshClone, runNpm, scratchFolder, startEnvironment } from './fresh-clone.ts'

// `npm start` and `npm run dev` as a newcomer runs them, in a copy of the project whose Electron
// package has never downloaded its binary (no dist/, no path.txt): the stand-in executable proves
// what electron-vite launched and on what. Each run builds the app for real (about 2 s).
describe('npm start and npm run dev on a fresh clone', () => {
  const folders: Array<{ dispose(): void }> = []
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.dispose()
  })

  function fresh(): { dir: string; root: string; record: string; cache: string } {
    const folder = scratchFolder('start')
    folders.push(folder)
    const cache = join(folder.dir, 'electron-cache')
    mkdirSync(cache)
    return { dir: folder.dir, root: freshClone(folder.dir), record: join(folder.dir, 'launch.json'), cache }
  }

  it('npm start builds the app and launches the Electron that ELECTRON_OVERRIDE_DIST_PATH names on it', async () => {
    const { dir, root, record } = fresh()
    const env = startEnvironment({
      ELECTRON_OVERRIDE_DIST_PATH: standInDistribution(dir),
      [LAUNCH_RECORD_VARIABLE]: record,
    })

    const run = await runNpm(['start'], root, env)

    expect(run.output).not.toContain('Electron uninstall')
    expect(run.status, run.output).toBe(0)
    const launch = readLaunch(record)
    // electron-vite starts Electron on the project folder, whose package.json main is the built entry.
    expect(launch).toMatchObject({ argv: ['.'], mainBuilt: true, rendererUrl: null })
    expect(launch?.cwd).toBe(root)
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).main).toBe('./out/main/index.js')
    expect(existsSync(join(root, 'out/renderer/index.html'))).toBe(true)
    // Built for production, main does not even read the dev server's address: a page named in
    // the environment can never be loaded, and handed IPC, by npm start or a packaged app.
    expect(readFileSync(join(root, 'out/main/index.js'), 'utf8')).not.toContain('ELECTRON_RENDERER_URL')
    // Nothing was downloaded into the package: the override is all that made it work.
    expect(existsSync(join(root, 'node_modules/electron/path.txt'))).toBe(false)
  }, 60_000)

  it('npm start downloads Electron through its own package the first time, then launches it', async () => {
    const { root, record, cache } = fresh()
    const mirror = await startElectronMirror()
    try {
      const env = startEnvironment({
        ELECTRON_MIRROR: mirror.url,
        electron_use_remote_checksums: '1',
        electron_config_cache: cache,
        [LAUNCH_RECORD_VARIABLE]: record,
      })

      const first = await runNpm(['start'], root, env)

      expect(first.status, first.output).toBe(0)
      expect(first.output).toContain(`Downloading Electron ${electronVersion()}`)
      expect(mirror.requested).toContain(
        `/v${electronVersion()}/electron-v${electronVersion()}-${process.platform}-${process.arch}.zip`,
      )
      expect(readLaunch(record)).toMatchObject({ argv: ['.'], mainBuilt: true })
      // Written by Electron's package, so electron-vite, the Electron suite and CI find it next time.
      expect(readFileSync(join(root, 'node_modules/electron/path.txt'), 'utf8')).toBe('electron')

      const asked = mirror.requested.length
      const second = await runNpm(['start'], root, env)
      expect(second.status, second.output).toBe(0)
      expect(second.output).not.toContain('Downloading Electron')
      expect(mirror.requested).toHaveLength(asked)
    } finally {
      await mirror.close()
    }
  }, 90_000)

  it('npm run dev serves the renderer from the dev server to the Electron it launches', async () => {
    const { dir, root, record } = fresh()
    const env = startEnvironment({
      ELECTRON_OVERRIDE_DIST_PATH: standInDistribution(dir),
      [LAUNCH_RECORD_VARIABLE]: record,
    })

    const run = await runNpm(['run', 'dev'], root, env)

    expect(run.status, run.output).toBe(0)
    const launch = readLaunch(record)
    expect(launch).toMatchObject({ argv: ['.'], mainBuilt: true })
    expect(launch?.rendererUrl).toMatch(/^http:\/\/localhost:\d+\/?$/)
    expect(launch?.rendererPage).toEqual({ status: 200, title: 'Catalog Desk' })
    expect(readFileSync(join(root, 'out/main/index.js'), 'utf8')).toContain('ELECTRON_RENDERER_URL')
  }, 60_000)

  it('with no binary and no network, says in one line what failed and what to do, before building anything', async () => {
    const { root, record, cache } = fresh()
    const env = startEnvironment({
      // Nothing listens there: the download fails at once, as it does offline.
      ELECTRON_MIRROR: await closedAddress(),
      electron_config_cache: cache,
      [LAUNCH_RECORD_VARIABLE]: record,
    })

    const run = await runNpm(['start'], root, env)

    expect(run.status).not.toBe(0)
    expect(run.output).not.toContain('Electron uninstall')
    const ours = run.output.split('\n').filter((line) => line.startsWith('catalog-desk: '))
    expect(ours).toHaveLength(1)
    const line = ours[0] ?? ''
    expect(line).toContain(
      `Electron ${electronVersion()} could not be downloaded (no connection to its download host: TypeError: fetch failed)`,
    )
    for (const advice of [
      'npx --no install-electron',
      'ELECTRON_GET_USE_PROXY=1',
      'HTTPS_PROXY',
      'ELECTRON_MIRROR',
    ]) {
      expect(line).toContain(advice)
    }
    // No stack trace from Electron's package, no build, no launch.
    expect(run.output).not.toMatch(/^\s+at /m)
    expect(existsSync(join(root, 'out'))).toBe(false)
    expect(readLaunch(record)).toBeNull()
  }, 60_000)
})
