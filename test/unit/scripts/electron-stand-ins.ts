import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'

/**
 * Stand-ins for what these machines cannot have (Electron's binary, its download host), so the
 * real start scripts and the real Electron package run end to end over them.
 */

/** What the stand-in Electron saw when it was launched. */
export interface Launch {
  argv: string[]
  cwd: string
  /** Whether the app's main entry was built when Electron was started. */
  mainBuilt: boolean
  rendererUrl: string | null
  /** The dev server's answer to the renderer address, when there was one. */
  rendererPage: { status: number; title: string | null } | null
}

/** The file the stand-in writes its launch to; the test sets it in the environment. */
export const LAUNCH_RECORD_VARIABLE = 'CATALOG_DESK_TEST_LAUNCH_RECORD'

/**
 * The text of an executable that records how it was launched, as Electron would be: its
 * arguments, its folder, whether the app was built, and (under `electron-vite dev`) what the dev
 * server answers at the renderer's address. It is a Node script run by this very Node.
 */
export function standInExecutable(): string {
  return `#!${process.execPath}
const { existsSync, writeFileSync } = require('node:fs')
const rendererUrl = process.env.ELECTRON_RENDERER_URL ?? null
async function main() {
  let rendererPage = null
  if (rendererUrl) {
    const answer = await fetch(rendererUrl)
    const html = await answer.text()
    rendererPage = { status: answer.status, title: /<title>([^<]*)<\\/title>/.exec(html)?.[1] ?? null }
  }
  writeFileSync(process.env.${LAUNCH_RECORD_VARIABLE}, JSON.stringify({
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    mainBuilt: existsSync('out/main/index.js'),
    rendererUrl,
    rendererPage,
  }))
}
main().catch((error) => { console.error(error); process.exit(3) })
`
}

/** A folder laid out as an unpacked Electron distribution, holding the stand-in. */
export function standInDistribution(parent: string): string {
  const dir = join(parent, 'electron-dist')
  mkdirSync(dir, { recursive: true })
  const executable = join(dir, executableName())
  writeFileSync(executable, standInExecutable())
  chmodSync(executable, 0o755)
  return dir
}

/** The executable's name inside Electron's distribution, as Electron's package writes path.txt. */
function executableName(): string {
  return process.platform === 'win32' ? 'electron.exe' : 'electron'
}

export function electronVersion(): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8'))
  return String(manifest.version)
}

export function readLaunch(file: string): Launch | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Launch) : null
}

/**
 * A loopback stand-in for Electron's download host (`ELECTRON_MIRROR`): it serves a zip of the
 * stand-in distribution under the name Electron's package asks for, and the SHASUMS256.txt that
 * `electron_use_remote_checksums` makes it check the zip against. `status` makes every answer an
 * error instead. It records the paths asked for.
 */
export async function startElectronMirror(options: { status?: number } = {}): Promise<{
  url: string
  requested: string[]
  close(): Promise<void>
}> {
  const zip = zipSync({
    // The executable bit travels in the entry's Unix attributes, as in Electron's own zips.
    [executableName()]: [Buffer.from(standInExecutable()), { os: 3, attrs: (0o100755 << 16) >>> 0 }],
    version: Buffer.from(electronVersion()),
  })
  const requested: string[] = []
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://mirror').pathname
    requested.push(path)
    if (options.status) {
      response.writeHead(options.status).end()
    } else if (path.endsWith('.zip')) {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length }).end(zip)
    } else if (path.endsWith('/SHASUMS256.txt')) {
      const name = `electron-v${electronVersion()}-${process.platform}-${process.arch}.zip`
      const sum = createHash('sha256').update(zip).digest('hex')
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`${sum} *${name}\n`)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requested,
    close: () => new Promise((closed) => server.close(() => closed())),
  }
}

/** A loopback address nothing listens on: a download from it fails at once, as offline. */
export async function closedAddress(): Promise<string> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  await new Promise((closed) => server.close(closed))
  return `http://127.0.0.1:${port}/`
}
