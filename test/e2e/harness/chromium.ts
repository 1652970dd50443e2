import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chromium } from '@playwright/test'

/**
 * Which Chromium the browser suite and the benchmarks drive, and getting one on a machine that
 * has none: the variable's, else Debian's (these machines cannot download Playwright's), else
 * Playwright's own, installed on first need.
 */

export const CHROMIUM_VARIABLE = 'CATALOG_DESK_CHROMIUM'
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/** Without the background-networking flags Chromium keeps dialling Google on a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/**
 * The executable to launch, or undefined for Playwright's own. Read when the configuration loads,
 * so it only looks: `ensureChromium` is what acts on it.
 */
export function chromiumExecutable(
  env: NodeJS.ProcessEnv = process.env,
  debian = DEBIAN_CHROMIUM,
): string | undefined {
  const chosen = env[CHROMIUM_VARIABLE]
  if (chosen) return chosen
  return existsSync(debian) ? debian : undefined
}

export class ChromiumMissing extends Error {
  override name = 'ChromiumMissing'

  constructor(message: string) {
    super(message)
    // What to run is the whole message: no stack, so the test report shows no code frame either.
    this.stack = `${this.name}: ${message}`
  }
}

/** Starts a Chromium and closes it; throws what Playwright says when it cannot. */
export type LaunchCheck = (executablePath: string | undefined) => Promise<void>
/** Downloads Playwright's own Chromium; resolves to the installer's exit status. */
export type Installer = () => Promise<number>

const launchCheck: LaunchCheck = async (executablePath) => {
  const browser = await chromium.launch({
    headless: true,
    args: CHROMIUM_ARGS,
    ...(executablePath ? { executablePath } : {}),
  })
  await browser.close()
}

/** `playwright install chromium` with this Node, its progress shown unless `quiet`. */
export function playwrightInstaller(env: NodeJS.ProcessEnv = process.env, { quiet = false } = {}): Installer {
  return () =>
    new Promise((done) => {
      const cli = createRequire(import.meta.url).resolve('@playwright/test/cli')
      const output = quiet ? 'ignore' : 'inherit'
      const child = spawn(process.execPath, [cli, 'install', 'chromium'], {
        env,
        stdio: ['ignore', output, output],
      })
      child.on('error', () => done(-1))
      child.on('close', (status) => done(status ?? -1))
    })
}

const WHAT_TO_RUN = `run \`npx playwright install chromium\` where the network allows, install Chromium (Debian or Ubuntu: \`apt-get install chromium\`), or set ${CHROMIUM_VARIABLE} to a Chromium or Chrome executable.`

/** Playwright's words when its own browser was never downloaded. */
function isNotInstalled(error: unknown): boolean {
  return error instanceof Error && /Executable doesn't exist/.test(error.message)
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}

/**
 * Makes sure a Chromium starts, installing Playwright's own on first need, and says which one it
 * is. Throws `ChromiumMissing` with one line saying what to run.
 */
export async function ensureChromium({
  env = process.env,
  debian = DEBIAN_CHROMIUM,
  launch = launchCheck,
  install = playwrightInstaller(env),
}: {
  env?: NodeJS.ProcessEnv
  debian?: string
  launch?: LaunchCheck
  install?: Installer
} = {}): Promise<string> {
  const executable = chromiumExecutable(env, debian)
  if (env[CHROMIUM_VARIABLE] && !existsSync(executable ?? '')) {
    throw new ChromiumMissing(`${CHROMIUM_VARIABLE} is ${executable}, which does not exist: ${WHAT_TO_RUN}`)
  }
  if (executable) {
    try {
      await launch(executable)
    } catch (error) {
      throw new ChromiumMissing(`${executable} does not start (${firstLine(error)}): ${WHAT_TO_RUN}`)
    }
    return executable
  }

  try {
    await launch(undefined)
    return "Playwright's Chromium"
  } catch (error) {
    if (!isNotInstalled(error)) {
      throw new ChromiumMissing(`Playwright's Chromium does not start (${firstLine(error)}): ${WHAT_TO_RUN}`)
    }
  }
  const status = await install()
  if (status !== 0) {
    throw new ChromiumMissing(
      `No Chromium for the browser suite, and Playwright could not download its own (exit status ${status}): ${WHAT_TO_RUN}`,
    )
  }
  try {
    await launch(undefined)
  } catch (error) {
    throw new ChromiumMissing(
      `Playwright's Chromium, just installed, does not start (${firstLine(error)}): ${WHAT_TO_RUN}`,
    )
  }
  return "Playwright's Chromium, installed just now"
}
