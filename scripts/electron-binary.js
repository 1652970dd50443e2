// @ts-check
/**
 * Where Electron's executable is, downloading it first where it is missing: for `npm start`,
 * `npm run dev` (through electron-vite.js), the Electron test suite and CI.
 *
 * Electron's npm package has no install script since version 45: its binary arrives the first
 * time `require('electron')` runs (or from `npx install-electron`), while electron-vite only reads
 * the package's `path.txt`, which nothing has written before that. So the binary is resolved here
 * by requiring Electron's package itself, which downloads where it can and honours
 * `ELECTRON_OVERRIDE_DIST_PATH`, `ELECTRON_MIRROR` and the rest exactly as Electron does. It runs
 * in a child process because the package downloads synchronously and answers a failure with a
 * stack trace: the child's output is kept, and a failure becomes one line that says what failed
 * and what to do.
 *
 * Plain JavaScript (checked by tsc through JSDoc) so that `npm start` works on every Node the
 * project supports, including those that do not strip TypeScript types by default.
 *
 * Run directly (`node scripts/electron-binary.js`), it prints the executable's path, or the line
 * on stderr and exits 1.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The command that downloads the binary again; `--no` keeps npx from fetching a package. */
export const RETRY_COMMAND = 'npx --no install-electron'

/**
 * What Electron's download honours (its package and `@electron/get`), said once wherever a
 * download failed, so a person behind a proxy or without access to GitHub knows what to set.
 */
const DOWNLOAD_SETTINGS =
  'Behind a proxy, set ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY (and NO_PROXY); to download from a mirror, ELECTRON_MIRROR; to use an Electron you already have, ELECTRON_OVERRIDE_DIST_PATH=its folder.'

/** How often a download in progress is reported, so a slow one is not taken for a hang. */
const PROGRESS_INTERVAL_MS = 15_000

export class ElectronBinaryError extends Error {
  /** @override */
  name = 'ElectronBinaryError'
}

/**
 * @typedef {object} ResolveOptions
 * @property {string} [root] The project whose `node_modules/electron` is used (default: the working folder).
 * @property {NodeJS.ProcessEnv} [env] The environment Electron's package sees (default: this process's).
 * @property {(line: string) => void} [onProgress] Told when a download starts and while it runs.
 */

/**
 * The path of Electron's executable, present on disk.
 *
 * @param {ResolveOptions} [options]
 * @returns {Promise<{ path: string, version: string }>}
 * @throws {ElectronBinaryError} with one line saying what failed and what to do
 */
export async function resolveElectronBinary({ root = process.cwd(), env = process.env, onProgress } = {}) {
  const electron = electronPackage(root)

  // electron-vite launches this one when it is set; it is the person's own choice, so it wins.
  const chosen = env.ELECTRON_EXEC_PATH
  if (chosen) {
    if (!isExecutable(chosen)) {
      throw new ElectronBinaryError(`ELECTRON_EXEC_PATH is ${chosen}, which is not an executable file.`)
    }
    return { path: chosen, version: electron.version }
  }

  const outcome = await requireElectron(electron, root, env, onProgress)
  if (outcome.path === undefined) {
    throw new ElectronBinaryError(
      `Electron ${electron.version} could not be downloaded (${outcome.cause}). Retry with \`${RETRY_COMMAND}\` or \`npm start\`. ${DOWNLOAD_SETTINGS}`,
    )
  }
  if (!isExecutable(outcome.path)) {
    const override = env.ELECTRON_OVERRIDE_DIST_PATH
    throw new ElectronBinaryError(
      override
        ? `ELECTRON_OVERRIDE_DIST_PATH is ${override}, but it holds no Electron executable (looked for ${outcome.path}).`
        : `Electron's package names ${outcome.path} as its executable, which is missing or not executable. Delete node_modules/electron/dist and retry with \`${RETRY_COMMAND}\`.`,
    )
  }
  return { path: outcome.path, version: electron.version }
}

/**
 * @param {string} root
 * @returns {{ dir: string, version: string }}
 */
function electronPackage(root) {
  const require = createRequire(join(resolve(root), 'package.json'))
  let manifest
  try {
    manifest = require.resolve('electron/package.json')
  } catch {
    throw new ElectronBinaryError(
      `Electron's package is not installed in ${resolve(root)}: run \`npm ci\` first.`,
    )
  }
  const { version } = require(manifest)
  return { dir: dirname(manifest), version: String(version) }
}

/**
 * Runs `require('electron')` in a child Node. The package's answer comes back on a channel of
 * its own (fd 3): its download prints to stdout and stderr, which are kept for the failure's cause.
 *
 * @param {{ dir: string, version: string }} electron
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 * @param {((line: string) => void) | undefined} onProgress
 * @returns {Promise<{ path: string, cause?: undefined } | { path?: undefined, cause: string }>}
 */
function requireElectron(electron, root, env, onProgress) {
  const program = `require('node:fs').writeSync(3, require(${JSON.stringify(electron.dir)}))`
  const child = spawn(process.execPath, ['-e', program], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    windowsHide: true,
  })
  let output = ''
  let answer = ''
  let progress = /** @type {NodeJS.Timeout | undefined} */ (undefined)
  const started = Date.now()
  child.stdout?.on('data', (chunk) => {
    output += chunk
    // Electron's package says this just before it starts the download.
    if (!progress && /Downloading Electron/i.test(output)) {
      onProgress?.(
        `Downloading Electron ${electron.version} for ${process.platform}-${process.arch}, once (about 100 MB)…`,
      )
      progress = setInterval(() => {
        onProgress?.(`Still downloading Electron (${Math.round((Date.now() - started) / 1000)} s)…`)
      }, PROGRESS_INTERVAL_MS)
    }
  })
  child.stderr?.on('data', (chunk) => (output += chunk))
  const answers = /** @type {import('node:stream').Readable} */ (child.stdio[3])
  answers.on('data', (chunk) => (answer += chunk))

  return new Promise((done) => {
    child.on('error', (error) => {
      clearInterval(progress)
      done({ cause: `Node could not be started: ${error.message}` })
    })
    child.on('close', (status) => {
      clearInterval(progress)
      if (status === 0 && answer) done({ path: answer })
      else done({ cause: downloadFailure(output) })
    })
  })
}

/**
 * The line of the download's output that says what went wrong: its first error line, which names
 * the address for an HTTP error, rather than the package's generic advice that follows it.
 *
 * @param {string} output
 */
export function downloadFailure(output) {
  const lines = output.split(/\r?\n/).map((line) => line.trim())
  const errors = lines.filter((line) => /^[\w.]*Error\b.*:/.test(line))
  const specific = errors.find((line) => !/failed to install correctly/i.test(line))
  const cause = specific ?? errors[0] ?? lines.filter(Boolean).at(-1) ?? 'no output'
  // Node's fetch says only this for every failure below HTTP (name lookup, refused, TLS, time-out).
  if (cause === 'TypeError: fetch failed') return `no connection to its download host: ${cause}`
  return cause.length > 300 ? `${cause.slice(0, 299)}…` : cause
}

/** @param {string} path */
function isExecutable(path) {
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false
  if (process.platform === 'win32') return true
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { path } = await resolveElectronBinary({ onProgress: (line) => process.stderr.write(`${line}\n`) })
    process.stdout.write(`${path}\n`)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}
