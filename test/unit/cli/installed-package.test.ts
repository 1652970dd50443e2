import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { probeSecretService } from '../secrets/secret-service.ts'
import { FIXTURES_DIR, REPO_ROOT } from '../shared/contract-fixtures.ts'
import { runNpm, scratchFolder, startEnvironment } from '../scripts/fresh-clone.ts'

/**
 * The CLI as people get it: `npm pack` (which builds out/cli first: package.json's prepack), the
 * tarball installed with `npm install -g` into a prefix of its own, its dependencies from the
 * registry (or npm's cache), and run from there on this Node; and through npx. Node strips types
 * from no file under node_modules, so this is what proves the CLI runs as JavaScript, with every
 * package it imports installed beside it. Linux and macOS layout (<prefix>/bin, <prefix>/lib).
 */

const RUN_WITH_KEYCHAIN = '.ci/with-keychain.sh npx vitest run test/unit/cli/installed-package.test.ts'
const secretService = await probeSecretService(`Catalog Desk test ${randomUUID()}`)
if (!secretService.usable) {
  process.stderr.write(
    `Installed CLI's keychain test skipped: ${secretService.reason}. Run it with: ${RUN_WITH_KEYCHAIN}\n`,
  )
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a program to its end, without blocking this process (which serves files to some of them). */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    const ran: Ran = { code: null, stdout: '', stderr: '' }
    child.stdout.setEncoding('utf8').on('data', (text: string) => (ran.stdout += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (ran.stderr += text))
    child.on('error', reject)
    child.on('close', (code) => resolve({ ...ran, code }))
  })
}

/**
 * The project as `npm pack` reads it, in a folder of its own, so the build lands in the copy's
 * out/cli and the project's own out/ is never touched while other suites read it. Files at the top
 * and the folders package.json's `files` names are copied (npm packs no symlinked file), out/ is
 * left to the build, and the other folders (src, node_modules, …) are linked.
 */
function packableCopy(parent: string): string {
  const root = join(parent, 'project')
  mkdirSync(root)
  const { files } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] }
  const packed = new Set(files.map((entry) => entry.split('/')[0]))
  const skipped = new Set(['.git', '.tools', 'out', 'dist', 'test-results', 'playwright-report'])
  for (const entry of readdirSync(REPO_ROOT, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue
    const [from, to] = [join(REPO_ROOT, entry.name), join(root, entry.name)]
    if (entry.isFile() || packed.has(entry.name)) cpSync(from, to, { recursive: true })
    else symlinkSync(from, to)
  }
  return root
}

function filesUnder(dir: string, skip: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry !== skip && !entry.startsWith(`${skip}/`))
    .filter((entry) => statSync(join(dir, entry)).isFile())
    .sort()
}

const scratch = scratchFolder('installed-cli')
const prefix = join(scratch.dir, 'prefix')
const bin = join(prefix, 'bin', 'catalog-desk')
const installed = join(prefix, 'lib', 'node_modules', 'catalog-desk')
// This Node first on PATH: the installed bin starts with `#!/usr/bin/env node`.
const env = startEnvironment({})
let tarball = ''

/** The installed `catalog-desk ARGS`, in the scratch folder, far from this project's node_modules. */
const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  run(bin, args, { cwd: scratch.dir, env: { ...env, ...extra } })

beforeAll(async () => {
  const packed = join(scratch.dir, 'packed')
  mkdirSync(packed)
  const pack = await runNpm(['pack', '--pack-destination', packed], packableCopy(scratch.dir), env)
  expect(pack.status, pack.output).toBe(0)
  tarball = join(packed, readdirSync(packed).find((name) => name.endsWith('.tgz')) ?? 'no tarball')
  // Dependencies as npm would fetch them, from its cache when it holds them (2 s here; 2.5 s with none).
  const install = await runNpm(
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    scratch.dir,
    env,
  )
  expect(install.status, install.output).toBe(0)
}, 180_000)

afterAll(() => scratch.dispose())

describe('the packed and installed CLI', () => {
  it('holds the built CLI and nothing of the sources, the tests or the app', () => {
    const files = filesUnder(installed, 'node_modules')
    expect(files.filter((file) => !/^out\/cli\/chunks\/[\w-]+\.js$/.test(file))).toEqual([
      'README.md',
      'bin/catalog-desk.js',
      'bin/run-cli.js',
      'out/cli/catalog-desk.js',
      'package.json',
    ])
    const bytes = files.reduce((sum, file) => sum + statSync(join(installed, file)).size, 0)
    // About 0.55 MB: the bundle unminified (0.45 MB) and the README.
    expect(bytes).toBeLessThan(1_000_000)
    expect(statSync(tarball).size).toBeLessThan(300_000)
  })

  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string
    }
    for (const option of ['--version', '-v']) {
      expect(await cli([option])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
    }
  })

  it('validates a file, with the exit status of its verdict', async () => {
    const valid = await cli(['validate', join(FIXTURES_DIR, 'bulk-upload-request.json')])
    expect(valid).toEqual({
      code: 0,
      stdout: '2 SKUs checked: 2 valid, 0 invalid, 0 warnings\n2 SKUs valid; 2 sendable; 0 held back\n',
      stderr: '',
    })

    const invalid = await cli(['validate', join(FIXTURES_DIR, 'invalid/sku-list-mixed.json')])
    expect(invalid.stderr).toBe('')
    expect(invalid.code).toBe(1)
    expect(invalid.stdout).toContain(
      '[1] arEffect.envSettings.intensity: Intensity must be a number, not the text "high"\n',
    )
  })

  it('converts to XLSX and reads it back (the sheet packages are installed)', async () => {
    const out = join(scratch.dir, 'skus.xlsx')
    const convert = await cli(['convert', join(FIXTURES_DIR, 'bulk-upload-request.json'), out])
    expect(convert).toMatchObject({ code: 0, stderr: '' })
    const validate = await cli(['validate', out])
    expect(validate).toEqual({
      code: 0,
      stdout: '2 SKUs checked: 2 valid, 0 invalid, 0 warnings\n2 SKUs valid; 2 sendable; 0 held back\n',
      stderr: '',
    })
  })

  it('checks a model with the glTF-Validator, loaded on demand (a chunk of the build)', async () => {
    const model = readFileSync(join(FIXTURES_DIR, 'assets/draco-textured.glb'))
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary' }).end(model)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/glasses.glb`
      const skus = join(scratch.dir, 'assets.json')
      const sku = {
        productName: 'Glasses',
        barcode: '8901000000011',
        arEffect: { effectAssets3D: [{ url }] },
      }
      writeFileSync(skus, JSON.stringify([sku]))
      const checked = await cli(['check-assets', skus, '--allow-local', '--json'])
      expect(checked.code, checked.stderr).toBe(0)
      const report = JSON.parse(checked.stdout) as {
        results: Array<{ status: string; facts?: { triangles?: number } }>
      }
      expect(report.results).toMatchObject([{ status: 'ok', facts: { triangles: 1552 } }])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('loads the keychain library and its native binding from the installed package', async () => {
    const script = `const { AsyncEntry } = await import('@napi-rs/keyring'); console.log(typeof AsyncEntry)`
    const loaded = await run(process.execPath, ['--input-type=module', '--eval', script], {
      cwd: installed,
      env,
    })
    expect(loaded).toEqual({ code: 0, stdout: 'function\n', stderr: '' })
  })

  it('runs through npx from the tarball', async () => {
    // A cache of its own: npx installs the package and its dependencies there, as on a new machine.
    const npx = await runNpm(
      ['exec', '--yes', '--', `./${relative(scratch.dir, tarball)}`, '--version'],
      scratch.dir,
      {
        ...env,
        npm_config_cache: join(scratch.dir, 'npx-cache'),
      },
    )
    expect(npx.status, npx.output).toBe(0)
    expect(npx.output).toMatch(/^\d+\.\d+\.\d+\S*$/m)
  }, 120_000)

  describe('against its own sandbox', () => {
    const token = `sandbox-${randomUUID()}`
    let sandbox: ChildProcess
    let url = ''

    beforeAll(async () => {
      sandbox = spawn(bin, ['sandbox', '--port', '0', '--token', token], {
        cwd: scratch.dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      sandbox.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text))
      url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The sandbox did not start:\n${output}`)), 20_000)
        sandbox.once('exit', (code) => reject(new Error(`The sandbox exited with ${code}:\n${output}`)))
        sandbox.stdout!.setEncoding('utf8').on('data', (text: string) => {
          output += text
          const listening = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output)?.[1]
          if (listening) {
            clearTimeout(timer)
            resolve(listening)
          }
        })
      })
    }, 30_000)

    afterAll(async () => {
      if (sandbox.exitCode !== null) return
      const exited = new Promise((resolve) => sandbox.once('exit', resolve))
      sandbox.kill('SIGTERM')
      expect(await exited).toBe(0)
    })

    async function received(): Promise<string[]> {
      const answer = await fetch(`${url}/__sandbox/received`)
      const { skus } = (await answer.json()) as { skus: Array<{ sku: { barcode?: string } }> }
      return skus.map(({ sku }) => sku.barcode ?? '')
    }

    /** A copy of the bulk request with barcodes of its own, so each push sends something new. */
    function skusFile(name: string, barcodes: [string, string]): string {
      const request = JSON.parse(readFileSync(join(FIXTURES_DIR, 'bulk-upload-request.json'), 'utf8')) as {
        skus: Array<{ barcode: string }>
      }
      request.skus.forEach((sku, at) => (sku.barcode = barcodes[at]!))
      const file = join(scratch.dir, name)
      writeFileSync(file, JSON.stringify(request))
      return file
    }

    it('pushes with a token from the environment', async () => {
      const file = skusFile('env-token.json', ['8901000000028', '8901000000035'])
      // The journal goes to the app's data folder unless --journal names one: this run's, not yours.
      const pushed = await cli(['push', file, '--base-url', url, '--token-env', 'SANDBOX_TOKEN'], {
        SANDBOX_TOKEN: token,
        CATALOG_DESK_DATA_DIR: join(scratch.dir, 'env-token-data'),
      })
      expect(pushed.code, pushed.stderr).toBe(0)
      expect(pushed.stdout).toBe('2 SKUs: 2 synced, 0 rejected, 0 failed, 0 unknown.\n')
      expect(await received()).toEqual(expect.arrayContaining(['8901000000028', '8901000000035']))
    })

    it.skipIf(!secretService.usable)(
      'pushes with the token the app keeps in the OS keychain (push --profile)',
      async () => {
        // The app's own keychain service ("Catalog Desk", which the CLI reads), under an account
        // of this run's that no profile of anyone's uses, removed at the end.
        const tokens = createTokenStore()
        const dataDir = join(scratch.dir, 'app-data')
        mkdirSync(dataDir)
        const id = `installed-cli-${randomUUID().slice(0, 8)}`
        try {
          const profiles = createProfileStore({ dir: dataDir, tokens })
          await profiles.save({
            ...DEFAULT_SENDING,
            id,
            name: 'Installed CLI test',
            kind: 'service',
            baseUrl: url,
          })
          await expect(tokens.set(id, url, token)).resolves.toEqual({ storage: 'keychain' })

          const file = skusFile('keychain-token.json', ['8901000000042', '8901000000059'])
          const pushed = await cli(['push', file, '--profile', id], { CATALOG_DESK_DATA_DIR: dataDir })
          expect(pushed.code, pushed.stderr).toBe(0)
          expect(pushed.stdout).toBe('2 SKUs: 2 synced, 0 rejected, 0 failed, 0 unknown.\n')
          expect(await received()).toEqual(expect.arrayContaining(['8901000000042', '8901000000059']))
        } finally {
          await tokens.clear(id)
        }
      },
    )
  })
})
