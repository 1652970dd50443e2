import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  CHROMIUM_VARIABLE,
  chromiumExecutable,
  ChromiumMissing,
  ensureChromium,
  playwrightInstaller,
  type LaunchCheck,
} from '../../e2e/harness/chromium.ts'
import { closedAddress } from '../scripts/electron-stand-ins.ts'
import { scratchFolder } from '../scripts/fresh-clone.ts'
import { oneLineFailure } from '../one-line-failure.ts'

// How the browser suite gets its Chromium on a developer's laptop: Playwright's own, installed on
// first need, or one line saying what to run. Launches are stand-ins that answer as Playwright
// does; the installer in the last test is Playwright's real one, with nowhere to download from.
describe('the browser suite Chromium', () => {
  const folders: Array<{ dispose(): void }> = []
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.dispose()
  })

  function folder(): string {
    const made = scratchFolder('chromium')
    folders.push(made)
    return made.dir
  }

  const notInstalled: LaunchCheck = async () => {
    throw new Error(
      "browserType.launch: Executable doesn't exist at /home/me/.cache/ms-playwright/chromium/chrome\n╔═══╗",
    )
  }

  it('takes the variable first, then Debian’s, then leaves it to Playwright', () => {
    const dir = folder()
    const debian = join(dir, 'chromium')
    expect(chromiumExecutable({}, debian)).toBeUndefined()
    writeFileSync(debian, '')
    expect(chromiumExecutable({}, debian)).toBe(debian)
    expect(chromiumExecutable({ [CHROMIUM_VARIABLE]: '/opt/chrome/chrome' }, debian)).toBe(
      '/opt/chrome/chrome',
    )
  })

  it('names the variable when it points at nothing, and launches nothing', async () => {
    const launched: Array<string | undefined> = []
    const message = await oneLineFailure(
      ensureChromium({
        env: { [CHROMIUM_VARIABLE]: '/nowhere/chrome' },
        launch: async (path) => void launched.push(path),
      }),
      ChromiumMissing,
    )
    expect(message).toMatch(
      /^CATALOG_DESK_CHROMIUM is \/nowhere\/chrome, which does not exist: run `npx playwright install chromium`/,
    )
    expect(launched).toEqual([])
  })

  it('installs Playwright’s own on first need, then uses it', async () => {
    let installed = false
    const launches: Array<string | undefined> = []
    const which = await ensureChromium({
      env: {},
      debian: join(folder(), 'no-chromium'),
      launch: async (path) => {
        launches.push(path)
        if (!installed) await notInstalled(path)
      },
      install: async () => {
        installed = true
        return 0
      },
    })
    expect(which).toBe("Playwright's Chromium, installed just now")
    expect(launches).toEqual([undefined, undefined])
  })

  it('says in one line what to run when Playwright cannot download its Chromium', async () => {
    const dir = folder()
    const browsers = join(dir, 'browsers')
    mkdirSync(browsers)
    const message = await oneLineFailure(
      ensureChromium({
        env: {},
        debian: join(dir, 'no-chromium'),
        launch: notInstalled,
        // Playwright's real installer, offline: nothing listens at its download host.
        install: playwrightInstaller(
          {
            ...process.env,
            PLAYWRIGHT_BROWSERS_PATH: browsers,
            PLAYWRIGHT_DOWNLOAD_HOST: await closedAddress(),
          },
          { quiet: true },
        ),
      }),
      ChromiumMissing,
    )
    expect(message).toMatch(
      /^No Chromium for the browser suite, and Playwright could not download its own \(exit status [1-9]\d*\): /,
    )
    for (const advice of ['npx playwright install chromium', 'apt-get install chromium', CHROMIUM_VARIABLE]) {
      expect(message).toContain(advice)
    }
  }, 60_000)

  it('says so when a Chromium is there but does not start', async () => {
    const dir = folder()
    const debian = join(dir, 'chromium')
    writeFileSync(debian, '')
    const message = await oneLineFailure(
      ensureChromium({
        env: {},
        debian,
        launch: async () => {
          throw new Error(
            'browserType.launch: Failed to launch chromium because executable is not a program\nmore',
          )
        },
      }),
      ChromiumMissing,
    )
    expect(message).toMatch(new RegExp(`^${debian} does not start \\(browserType.launch: Failed to launch`))
  })
})
