import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire, isBuiltin } from 'node:module'
import { join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { extractAll, listPackage } from '@electron/asar'
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIN_RUNTIME_PACKAGES } from '../../../electron-builder.config.ts'
import { runNpm, scratchFolder, startEnvironment, type Finished } from '../scripts/fresh-clone.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { distArguments, standInDistribution } from './stand-in-distribution.ts'

/**
 * `npm run dist -- --linux dir` as it runs on a release machine, against a stand-in Electron
 * distribution (electron-builder's `electronDist`): these machines cannot download Electron, and
 * electron-builder packs the `dir` target offline from an unpacked distribution. What it checks is
 * what electron-builder makes of the project: the archive, what is left beside it, the fuses.
 * It packs the project's own `out/`, which `npm test` builds before the unit suites.
 */

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) =>
    statSync(join(dir, entry)).isFile(),
  )
}

const sizeOf = (dir: string) => filesUnder(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0)

/** The package a bare import names: `zod`, `@napi-rs/keyring`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/')
}

describe('npm run dist -- --linux dir (against a stand-in Electron)', () => {
  let scratch: { dir: string; dispose(): void } | undefined
  let run: Finished
  let app: string
  let resources: string
  let asar: string
  /** app.asar's files, leading slash dropped (`out/main/index.js`). */
  let entries: string[]
  /** app.asar extracted (with its unpacked files) to read and load what is inside. */
  let extracted: string

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, 'out/main/index.js'))) {
      throw new Error('There is no build to pack: run `npm run build` first (`npm test` does).')
    }
    scratch = scratchFolder('dist')
    const electronDist = standInDistribution(join(scratch.dir, 'electron-dist'))
    const output = join(scratch.dir, 'dist')
    run = await runNpm(distArguments(electronDist, output), REPO_ROOT, startEnvironment({}))
    app = join(output, 'linux-unpacked')
    resources = join(app, 'resources')
    asar = join(resources, 'app.asar')
    if (run.status !== 0) throw new Error(`npm run dist failed (exit code ${run.status}):\n${run.output}`)
    entries = listPackage(asar, { isPack: false }).map((entry) =>
      entry.replace(/^[\\/]/, '').replaceAll('\\', '/'),
    )
    extracted = join(scratch.dir, 'extracted')
    extractAll(asar, extracted)
  }, 120_000)

  afterAll(() => scratch?.dispose())

  /**
   * Asks a Node process of its own, from a module beside main's bundle inside the extracted
   * package, what main would get: where bare imports resolve and whether they load (with a
   * stand-in for Electron's module, which only Electron provides), and the paths `?asset`
   * modules give.
   */
  function probeMain(ask: { imports?: string[]; assets?: string[] }): {
    imports: Record<string, { url: string; error: string | null }>
    assets: string[]
  } {
    const electron = join(extracted, 'node_modules/electron')
    mkdirSync(electron, { recursive: true })
    writeFileSync(join(electron, 'package.json'), '{ "name": "electron", "main": "index.js" }\n')
    writeFileSync(
      join(electron, 'index.js'),
      `const inert = new Proxy(function () {}, {
  get: (_, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : inert),
  apply: () => inert,
  construct: () => inert,
})
module.exports = inert
`,
    )
    const probe = join(extracted, 'out/main/probe.mjs')
    writeFileSync(
      probe,
      `const imports = {}
for (const specifier of ${JSON.stringify(ask.imports ?? [])}) {
  const url = import.meta.resolve(specifier)
  let error = null
  try {
    await import(specifier)
  } catch (caught) {
    error = String(caught?.stack ?? caught)
  }
  imports[specifier] = { url, error }
}
const assets = []
for (const asset of ${JSON.stringify(ask.assets ?? [])}) assets.push((await import(asset)).default)
process.stdout.write(JSON.stringify({ imports, assets }))
`,
    )
    const child = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 30_000 })
    expect(child.status, child.stderr).toBe(0)
    return JSON.parse(child.stdout) as ReturnType<typeof probeMain>
  }

  it('packs the app', () => {
    // How long packing takes is a benchmark line: `npm run bench -- pack` (bench/pack.ts).
    expect(existsSync(join(app, 'catalog-desk')), 'the executable, renamed').toBe(true)
  })

  it('puts the three builds and package.json in app.asar, and nothing of the sources', () => {
    expect(entries).toContain('package.json')
    expect(entries).toContain('out/main/index.js')
    expect(entries).toContain('out/preload/index.cjs')
    expect(entries).toContain('out/renderer/index.html')
    expect(entries.some((entry) => entry.startsWith('out/renderer/assets/'))).toBe(true)
    // What the page fetches by fixed names: the try-on's sample faces and its face model.
    expect(entries).toContain('out/renderer/faces/faces.json')
    expect(entries).toContain('out/renderer/face-model/facemesh.bin')
    expect(entries).toContain('out/renderer/face-model/tfjs-backend-wasm-simd.wasm')
    const foreign = entries.filter((entry) =>
      /^(src|test|bench|scripts|lint|resources|bin|\.ci|\.github)(\/|$)|^out\/cli(\/|$)/.test(entry),
    )
    expect(foreign).toEqual([])
    expect(entries.filter((entry) => entry.endsWith('.map'))).toEqual([])
    expect(entries.filter((entry) => !entry.includes('/')).sort()).toEqual([
      'node_modules',
      'out',
      'package.json',
    ])
  })

  it('keeps the native modules out of the archive, where they can be loaded', () => {
    const unpacked = join(resources, 'app.asar.unpacked')
    const natives = filesUnder(unpacked)
      .filter((file) => file.endsWith('.node'))
      .map((file) => file.split(sep).join('/'))
    // The keyring's binding npm installed for this machine (keyring-linux-x64-gnu here), and
    // leveldown's prebuilt ones for this system and processor (glibc and musl on Linux), no other.
    const keyring = /^node_modules\/@napi-rs\/keyring-[\w-]+\/keyring\.[\w-]+\.node$/
    const leveldown = new RegExp(
      `^node_modules/leveldown/prebuilds/${process.platform}-${process.arch}/[\\w.@-]+\\.node$`,
    )
    expect(natives.filter((file) => keyring.test(file))).toHaveLength(1)
    expect(natives.filter((file) => leveldown.test(file)).length).toBeGreaterThan(0)
    expect(natives.filter((file) => !keyring.test(file) && !leveldown.test(file))).toEqual([])
    // Required as main's bundle would, from where it is packed: the binding is found and loads.
    const requireFromMain = createRequire(join(extracted, 'out/main/index.js'))
    expect(requireFromMain.resolve('@napi-rs/keyring').startsWith(extracted + sep)).toBe(true)
    expect(typeof (requireFromMain('@napi-rs/keyring') as { Entry: unknown }).Entry).toBe('function')
    // leveldown loads its binary as it is required: found among its prebuilt ones, it loads.
    expect(requireFromMain.resolve('leveldown').startsWith(extracted + sep)).toBe(true)
    expect(typeof requireFromMain('leveldown')).toBe('function')
  })

  it('ships the preview’s samples where main reads them when packaged', () => {
    // src/main/index.ts: join(process.resourcesPath, 'resources'), then preview/<file>.
    const preview = join(resources, 'resources', 'preview')
    const samples = ['sample-glasses.glb', 'sample-product.png', 'studio.hdr']
    expect(readdirSync(preview).sort()).toEqual(samples)
    for (const file of samples) {
      expect(
        readFileSync(join(preview, file)).equals(readFileSync(join(REPO_ROOT, 'resources/preview', file))),
      ).toBe(true)
    }
  })

  it('holds the packages main imports, and none of the page’s or the CLI’s', () => {
    const main = join(extracted, 'out/main')
    const specifiers = new Set<string>()
    for (const file of filesUnder(main).filter((path) => path.endsWith('.js'))) {
      const text = readFileSync(join(main, file), 'utf8')
      for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport\s*\()\s*["']([^"'./][^"']*)["']/g)) {
        if (!isBuiltin(specifier!) && specifier !== 'electron') specifiers.add(specifier!)
      }
    }
    expect(specifiers.size).toBeGreaterThan(0)
    const unlisted = [...specifiers].filter(
      (specifier) => !MAIN_RUNTIME_PACKAGES.includes(packageOf(specifier)),
    )
    expect(unlisted).toEqual([])
    // Each resolves from main's folder inside the package and loads, what it needs in turn included.
    const { imports } = probeMain({ imports: [...specifiers] })
    const modules = pathToFileURL(join(extracted, 'node_modules')).href
    for (const specifier of specifiers) {
      expect(
        imports[specifier]?.url.startsWith(`${modules}/`),
        `${specifier}: ${imports[specifier]?.url}`,
      ).toBe(true)
      expect(imports[specifier]?.error, specifier).toBeNull()
    }

    const packed = new Set(
      entries.flatMap((entry) => /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(entry)?.slice(1, 2) ?? []),
    )
    for (const name of MAIN_RUNTIME_PACKAGES) expect(packed.has(name), name).toBe(true)
    const renderers = ['vue', 'vue-router', 'pinia', 'dexie', 'three', '@vue/runtime-core']
    const cliOnly = ['papaparse', 'read-excel-file', 'write-excel-file']
    expect([...renderers, ...cliOnly].filter((name) => packed.has(name))).toEqual([])
  })

  it('ships three’s Basis transcoder where main’s KTX2 transcoder reads it, without three', () => {
    const chunks = join(extracted, 'out/main/chunks')
    // The transcoder runs on a thread of main's, its worker a chunk of its own beside main's bundle:
    // its two `?asset` imports, each a small module giving the copied file's path, are made there.
    const worker = entries
      .filter((entry) => /^out\/main\/chunks\/ktx2-transcoder-worker-[\w-]+\.js$/.test(entry))
      .map((entry) => readFileSync(join(extracted, entry), 'utf8'))
      .find((code) => code.includes('basis_transcoder'))
    expect(worker).toBeDefined()
    const stubs = [...worker!.matchAll(/import\("\.\/(basis_transcoder-[\w-]+\.js)"\)/g)].map(
      (match) => match[1]!,
    )
    expect(stubs).toHaveLength(2)
    const { assets } = probeMain({ assets: stubs.map((stub) => `./chunks/${stub}`) })
    const three = createRequire(join(REPO_ROOT, 'package.json'))
    const original = (extension: string) =>
      readFileSync(three.resolve(`three/examples/jsm/libs/basis/basis_transcoder.${extension}`))
    expect(assets.map((path) => path.split('.').pop()).sort()).toEqual(['js', 'wasm'])
    for (const path of assets) {
      expect(path.startsWith(chunks + sep), path).toBe(true)
      expect(readFileSync(path).equals(original(path.endsWith('.wasm') ? 'wasm' : 'js')), path).toBe(true)
      expect(entries).toContain(`out/main/chunks/${relative(chunks, path)}`)
    }
  })

  it('carries main’s glTF-Validator worker inside the archive, beside what it imports', () => {
    const workers = entries.filter((entry) =>
      /^out\/main\/chunks\/model-inspection-worker-[\w-]+\.js$/.test(entry),
    )
    const worker = workers.find((entry) =>
      readFileSync(join(extracted, entry), 'utf8').includes('validateBytes'),
    )
    expect(worker, workers.join()).toBeDefined()
    expect(entries).toContain('node_modules/gltf-validator/package.json')
  })

  it('stays within its size budget', () => {
    // Measured: app.asar 8.9 MB, the unpacked keychain module 3.5 MB, the preview's samples
    // 0.2 MB: 12.6 MB beside Electron. The try-on (issue #39) adds 8 MB to app.asar: its face
    // model (5.7 MB: tfjs's WebAssembly runtime and three models' weights), the model's worker
    // (1.6 MB) and the sample portraits (0.8 MB); 21 MB in all. The team workspace's replica
    // (issue #41) adds PouchDB's modules and LevelDB, leveldown's binaries for this system unpacked
    // (0.9 MB): 25.2 MB measured, app.asar 20.6 MB. The budget leaves room to grow, not to pack a
    // renderer package, a source tree or another system's binaries again.
    const added =
      statSync(asar).size +
      sizeOf(join(resources, 'app.asar.unpacked')) +
      sizeOf(join(resources, 'resources'))
    expect(added).toBeLessThan(27_000_000)
    expect(statSync(asar).size).toBeLessThan(21_000_000)
  })

  it('flips the fuses', async () => {
    const wire = await getCurrentFuseWire(join(app, 'catalog-desk'))
    const { ENABLE, DISABLE } = FuseState
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspectArguments: wire[FuseV1Options.EnableNodeCliInspectArguments],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyLoadFromAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      fileProtocolPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
      // Left as Electron ships them.
      browserSnapshot: wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot],
      wasmTrapHandlers: wire[FuseV1Options.WasmTrapHandlers],
    }).toEqual({
      runAsNode: DISABLE,
      cookieEncryption: ENABLE,
      nodeOptions: DISABLE,
      inspectArguments: DISABLE,
      asarIntegrity: ENABLE,
      onlyLoadFromAsar: ENABLE,
      fileProtocolPrivileges: DISABLE,
      browserSnapshot: DISABLE,
      wasmTrapHandlers: ENABLE,
    })
  })
})
