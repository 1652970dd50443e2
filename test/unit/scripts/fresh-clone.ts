import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'

/** A copy of the project as a newcomer's fresh clone has it, and npm run in it as they type it. */

/** A scratch folder removed by `dispose`. */
export function scratchFolder(prefix: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), `catalog-desk-${prefix}-`))
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A copy of the project as a fresh clone would have it after `npm ci` on a machine where Electron
 * has never been downloaded: the sources linked, `node_modules` linked entry by entry, except
 * Electron's package, which is copied without `dist/` or `path.txt`. Whatever is built lands in
 * the copy's own `out/`, and a download in the copy's Electron package.
 */
export function freshClone(parent: string): string {
  const root = join(parent, 'project')
  mkdirSync(join(root, 'node_modules'), { recursive: true })
  const skipped = new Set(['.git', '.tools', 'node_modules', 'out', 'test-results', 'dist'])
  for (const entry of readdirSync(REPO_ROOT)) {
    if (!skipped.has(entry)) symlinkSync(join(REPO_ROOT, entry), join(root, entry))
  }
  const modules = join(REPO_ROOT, 'node_modules')
  for (const entry of readdirSync(modules)) {
    // Caches are written to; this copy keeps its own.
    if (entry === 'electron' || entry === '.vite' || entry === '.cache') continue
    symlinkSync(join(modules, entry), join(root, 'node_modules', entry))
  }
  const electron = join(modules, 'electron')
  for (const entry of readdirSync(electron)) {
    if (entry === 'dist' || entry === 'path.txt') continue
    cpSync(join(electron, entry), join(root, 'node_modules', 'electron', entry), { recursive: true })
  }
  return root
}

/** An environment for the start scripts: this Node first on PATH, no Electron settings of the machine's. */
export function startEnvironment(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of Object.keys(env)) {
    if (/^(ELECTRON_|npm_config_electron|electron_)/i.test(name)) delete env[name]
  }
  const nodeDir = process.execPath.slice(0, -basename(process.execPath).length)
  return { ...env, PATH: `${nodeDir}${process.platform === 'win32' ? ';' : ':'}${env.PATH ?? ''}`, ...extra }
}

export interface Finished {
  status: number | null
  output: string
}

/** Runs `npm ARGS` in a folder, as a person types it, with both streams kept in order. */
export function runNpm(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  // Under `npm test` this is npm's own entry; run directly, the npm on PATH.
  const npmCli = process.env.npm_execpath
  const [command, commandArgs] =
    npmCli && /npm-cli\.c?js$/.test(npmCli) ? [process.execPath, [npmCli, ...args]] : ['npm', args]
  return new Promise((done, fail) => {
    const child = spawn(command, commandArgs, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', fail)
    child.on('close', (status) => done({ status, output }))
  })
}
