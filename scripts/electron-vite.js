// @ts-check
/**
 * `npm start` and `npm run dev`: electron-vite, once Electron's executable is present.
 *
 * electron-vite finds Electron only through `node_modules/electron/path.txt`, which Electron's
 * package writes after its first download, and fails with "Electron uninstall" before that. Here
 * the executable is made present first (electron-binary.js: downloaded where it can be, or
 * `ELECTRON_OVERRIDE_DIST_PATH`) and handed to electron-vite as `ELECTRON_EXEC_PATH`, which it
 * honours. Where it cannot be had, one line says why, before anything is built.
 *
 * Usage: node scripts/electron-vite.js <electron-vite command and options>
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ElectronBinaryError, resolveElectronBinary } from './electron-binary.js'

const root = process.cwd()

try {
  const electron = await resolveElectronBinary({
    root,
    onProgress: (line) => process.stderr.write(`${line}\n`),
  })
  process.env.ELECTRON_EXEC_PATH = electron.path
} catch (error) {
  if (!(error instanceof ElectronBinaryError)) throw error
  process.stderr.write(`catalog-desk: ${error.message}\n`)
  process.exit(1)
}

// electron-vite's own command line, in this process: it reads process.argv and handles signals
// and the exit status of the Electron it starts.
const require = createRequire(join(root, 'package.json'))
const manifestPath = require.resolve('electron-vite/package.json')
const manifest = require(manifestPath)
const cli = join(dirname(manifestPath), manifest.bin['electron-vite'])
process.argv = [process.argv[0] ?? process.execPath, cli, ...process.argv.slice(2)]
await import(pathToFileURL(cli).href)
