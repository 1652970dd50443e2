import { readFileSync } from 'node:fs'
import type { Configuration } from 'electron-builder'

/**
 * The installers (`npm run dist`, docs/installers.md): Linux AppImage and deb, macOS dmg for
 * Apple silicon and Intel, Windows NSIS. electron-builder reads this file when named (`--config`:
 * it loads TypeScript itself). Nothing is signed.
 *
 * What the package holds: the built app (`out/main`, `out/preload`, `out/renderer`; main's chunks
 * include three's Basis transcoder, copied there by the build), package.json, and of node_modules
 * only what main imports at run time (MAIN_RUNTIME_PACKAGES and what they depend on). The
 * preview's samples go beside the archive, where main reads them when packaged
 * (`<process.resourcesPath>/resources/preview`).
 */

/**
 * The packages main's bundle imports at run time (electron-vite leaves every `dependencies` entry
 * out of the bundle). test/unit/packaging/dist.test.ts checks that every bare import in out/main is
 * one of these, and that each is in the package.
 */
export const MAIN_RUNTIME_PACKAGES = [
  '@napi-rs/keyring',
  'electron-log',
  'electron-updater',
  'gltf-validator',
  'got',
  'ipaddr.js',
  'js-yaml',
  // The team workspace's replica (src/node/team/replica.ts): PouchDB on LevelDB.
  'leveldown',
  'pouchdb-adapter-http',
  'pouchdb-adapter-leveldb-core',
  'pouchdb-core',
  'pouchdb-fetch',
  'pouchdb-replication',
  'zod',
]

type Names = Record<string, string>

interface Lockfile {
  packages: Record<string, { dependencies?: Names; optionalDependencies?: Names; peerDependencies?: Names }>
}

/**
 * The lockfile entries (`node_modules/got`, `node_modules/a/node_modules/b`) that installing `roots`
 * brings, each dependency found as Node finds it: nested under its dependent first, then each
 * folder up.
 */
function reachable(lock: Lockfile, roots: string[]): Set<string> {
  const seen = new Set<string>()
  const visit = (name: string, from: string) => {
    let base = from
    for (;;) {
      const key = `${base}node_modules/${name}`
      const entry = lock.packages[key]
      if (entry) {
        if (seen.has(key)) return
        seen.add(key)
        const next = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies }
        for (const dependency of Object.keys(next)) visit(dependency, `${key}/`)
        return
      }
      if (base === '') return
      base = base.replace(/node_modules\/(@[^/]+\/)?[^/]+\/$/, '')
    }
  }
  for (const root of roots) visit(root, '')
  return seen
}

/** A package installed at the top of node_modules (a nested one goes with its parent). */
const HOISTED = /^node_modules\/(@[^/]+\/)?[^/]+$/

/**
 * The `dependencies` main does not use (the CLI's, which the npm package needs: papaparse and the
 * XLSX readers) stay out of the app, with whatever only they need: one exclusion a hoisted package.
 */
function cliOnlyExclusions(): string[] {
  const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'))
  const manifest = read('package.json') as { dependencies: Record<string, string> }
  const lock = read('package-lock.json') as Lockfile
  const others = Object.keys(manifest.dependencies).filter((name) => !MAIN_RUNTIME_PACKAGES.includes(name))
  const kept = reachable(lock, MAIN_RUNTIME_PACKAGES)
  return [...reachable(lock, others)]
    .filter((key) => HOISTED.test(key) && !kept.has(key))
    .map((key) => `!${key}/**`)
}

const config: Configuration = {
  appId: 'app.catalogdesk.desktop',
  productName: 'Catalog Desk',
  directories: { output: 'dist', buildResources: 'resources/icon' },
  // One source image for every platform: drawn by resources/icon/generate.ts; electron-builder
  // makes the .icns, the .ico and the Linux sizes from it.
  icon: 'resources/icon/icon.png',
  files: [
    // The app's three builds; out/cli, the npm package's CLI, is not the app's.
    'out/main/**/*',
    'out/preload/**/*',
    'out/renderer/**/*',
    'package.json',
    '!out/**/*.map',
    ...cliOnlyExclusions(),
    // What nothing loads at run time: source maps, type declarations, zod's TypeScript sources.
    '!node_modules/**/*.{map,d.cts,d.mts}',
    '!node_modules/zod/src/**',
    // leveldown's LevelDB sources (its prebuilt binaries are what loads), and its binaries for
    // other systems and processors: `${platform}-${arch}` as Node names them (linux-x64,
    // win32-ia32), or macOS's one for both processors (darwin-x64+arm64).
    '!node_modules/leveldown/deps/**',
    '!node_modules/leveldown/binding.{cc,gyp}',
    '!node_modules/leveldown/prebuilds/!(${platform}-${arch}|${platform}-x64+arm64)/**',
  ],
  asar: true,
  // A native module is loaded from the disk, not from inside an archive.
  asarUnpack: ['node_modules/@napi-rs/keyring-*/*.node', 'node_modules/leveldown/prebuilds/**'],
  extraResources: [
    { from: 'resources/preview', to: 'resources/preview', filter: ['*.glb', '*.hdr', '*.png'] },
  ],
  // @napi-rs/keyring and leveldown are N-API and prebuilt: nothing to rebuild against Electron's headers.
  npmRebuild: false,
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    // Checked by Electron on macOS and Windows (electron-builder writes the archive's hash into the
    // app); Electron has no such check on Linux.
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    // The page is served from app:// (src/main/app-protocol.ts) and nothing loads file://, so a
    // file:// page never needs more than a browser would give it.
    grantFileProtocolExtraPrivileges: false,
    // Flipping fuses breaks the ad-hoc signature an arm64 Electron comes with; unsigned, it is
    // made again, or macOS refuses to start the app.
    resetAdHocDarwinSignature: true,
  },
  linux: {
    target: ['AppImage', 'deb'],
    executableName: 'catalog-desk',
    category: 'Office',
    synopsis: 'Prepare SKUs and app configurations offline and send them in batches.',
    // The deb's maintainer field; its homepage comes from package.json or the git remote.
    maintainer: 'Catalog Desk',
  },
  mac: {
    // The zip beside the dmg is what electron-updater downloads on macOS (it cannot update from a
    // dmg); Squirrel.Mac still refuses an unsigned update, so until the app is signed a Mac installs
    // a new version by hand.
    target: [
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ],
    category: 'public.app-category.productivity',
    // Not signed with a Developer ID, nor notarized (docs/installers.md).
    identity: null,
    // macOS asks the person before an app uses the camera, showing this; without it the app may
    // not ask at all. (Signed with the hardened runtime, the camera entitlement will be needed too.)
    extendInfo: {
      NSCameraUsageDescription:
        'Catalog Desk uses the camera only when you turn it on in a SKU’s try-on, to show the frame on your face. Nothing it sees is saved or sent.',
    },
  },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
  },
}

export default config
