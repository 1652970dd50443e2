import { execFile } from 'node:child_process'
import { createHash, generateKeyPairSync } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signReleaseFolder } from '#node/updates/release-folder.ts'
import { checkSignature, publicKeyText, releaseKeyOf } from '#node/updates/release-signature.ts'

// The release's signing (scripts/sign-release.ts over release-folder.ts), on a dist folder as
// electron-builder leaves it: installers, their blockmaps and the latest*.yml that name them. The
// keys are made here; the app's side of the same signatures is tested in test/unit/main/updates.test.ts.

const script = fileURLToPath(new URL('../../../scripts/sign-release.ts', import.meta.url))
const run = promisify(execFile)

const key = generateKeyPairSync('ed25519')
const nextKey = generateKeyPairSync('ed25519')
const trusted = [key, nextKey].map((pair) => releaseKeyOf(publicKeyText(pair.publicKey)))

let dist = ''
beforeEach(async () => {
  dist = await mkdtemp(join(tmpdir(), 'catalog-desk-sign-'))
})
afterEach(() => rm(dist, { recursive: true, force: true }))

const sha512 = (bytes: string) => createHash('sha512').update(bytes).digest('base64')

/** An installer in the folder, and its entry in update information. */
async function installer(onDisk: string, bytes: string, named = onDisk) {
  await writeFile(join(dist, onDisk), bytes)
  return `  - url: ${named}\n    sha512: ${sha512(bytes)}\n    size: ${bytes.length}\n`
}

async function updateInfo(file: string, version: string, entries: string[]) {
  await writeFile(
    join(dist, file),
    `version: ${version}\nfiles:\n${entries.join('')}releaseDate: '2026-02-01T00:00:00.000Z'\n`,
  )
}

/** A release of three platforms: Windows' installer named in latest.yml other than on disk, as for GitHub. */
async function release() {
  await updateInfo('latest-linux.yml', '1.2.0', [await installer('Catalog-Desk-1.2.0.AppImage', 'appimage')])
  await updateInfo('latest-mac.yml', '1.2.0', [
    await installer('Catalog Desk-1.2.0-arm64-mac.zip', 'zip'),
    await installer('Catalog Desk-1.2.0-arm64.dmg', 'dmg'),
  ])
  await updateInfo('latest.yml', '1.2.0', [
    await installer('Catalog Desk Setup 1.2.0.exe', 'exe', 'Catalog-Desk-Setup-1.2.0.exe'),
  ])
  await writeFile(join(dist, 'Catalog Desk Setup 1.2.0.exe.blockmap'), 'blockmap')
}

describe('signing a release folder', () => {
  it('signs every installer the latest*.yml name, under the name they give it, for their version', async () => {
    await release()
    const signed = await signReleaseFolder(dist, [key.privateKey], trusted)
    expect(signed.map((entry) => entry.name).sort()).toEqual([
      'Catalog Desk-1.2.0-arm64-mac.zip',
      'Catalog Desk-1.2.0-arm64.dmg',
      'Catalog-Desk-1.2.0.AppImage',
      'Catalog-Desk-Setup-1.2.0.exe',
    ])
    const bytes: Record<string, string> = {
      'Catalog Desk-1.2.0-arm64-mac.zip': 'zip',
      'Catalog Desk-1.2.0-arm64.dmg': 'dmg',
      'Catalog-Desk-1.2.0.AppImage': 'appimage',
      'Catalog-Desk-Setup-1.2.0.exe': 'exe',
    }
    for (const [name, content] of Object.entries(bytes)) {
      const text = await readFile(join(dist, `${name}.sig`), 'utf8')
      expect(checkSignature(text, '1.2.0', sha512(content), trusted)).toEqual({
        verified: true,
        keyId: trusted[0]!.id,
      })
      // Bound to its version: the same installer offered as another one does not verify.
      expect(checkSignature(text, '1.3.0', sha512(content), trusted)).toMatchObject({ verified: false })
    }
  })

  it('with two keys (a rotation), each signature file has both, and either key verifies it', async () => {
    await updateInfo('latest-linux.yml', '1.2.0', [
      await installer('Catalog-Desk-1.2.0.AppImage', 'appimage'),
    ])
    await signReleaseFolder(dist, [key.privateKey, nextKey.privateKey], trusted)
    const text = await readFile(join(dist, 'Catalog-Desk-1.2.0.AppImage.sig'), 'utf8')
    expect(text.trim().split('\n')).toHaveLength(2)
    expect(checkSignature(text, '1.2.0', sha512('appimage'), [trusted[1]!])).toEqual({
      verified: true,
      keyId: trusted[1]!.id,
    })
    expect(checkSignature(text, '1.2.0', sha512('appimage'), [trusted[0]!])).toMatchObject({ verified: true })
  })

  it('an installer named in the update information but missing from the folder: refused, nothing written', async () => {
    await release()
    await rm(join(dist, 'Catalog Desk-1.2.0-arm64.dmg'))
    await expect(signReleaseFolder(dist, [key.privateKey], trusted)).rejects.toThrow(
      `latest-mac.yml names Catalog Desk-1.2.0-arm64.dmg, and no file in ${dist} has its sha512: copy the installers with their update information`,
    )
    expect((await readdir(dist)).filter((name) => name.endsWith('.sig'))).toEqual([])
  })

  it('a folder without update information is refused', async () => {
    await expect(signReleaseFolder(dist, [key.privateKey], trusted)).rejects.toThrow(
      `${dist} has no latest*.yml: build the installers first (npm run dist)`,
    )
  })
})

describe('scripts/sign-release.ts', () => {
  const pem = (pair: typeof key) => pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

  it('refuses a key the app does not trust, and writes nothing', async () => {
    await release()
    const signing = run(process.execPath, [script, dist], {
      env: { ...process.env, CATALOG_DESK_RELEASE_KEY: pem(key) },
    })
    await expect(signing).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `The release key ${trusted[0]!.id} is not one the app trusts (src/node/updates/release-keys.ts), so the app would refuse this release. Add its public half there (${publicKeyText(key.publicKey)})`,
      ),
    })
    expect((await readdir(dist)).filter((name) => name.endsWith('.sig'))).toEqual([])
  })

  it('without a key in CATALOG_DESK_RELEASE_KEY, says so', async () => {
    await release()
    const env = { ...process.env }
    delete env.CATALOG_DESK_RELEASE_KEY
    await expect(run(process.execPath, [script, dist], { env })).rejects.toMatchObject({
      code: 1,
      stderr: 'CATALOG_DESK_RELEASE_KEY holds no private key (PKCS#8 PEM, "-----BEGIN PRIVATE KEY-----")\n',
    })
  })

  it('--new-key writes a private key only its owner can read, never over a file, and prints the public line', async () => {
    const file = join(dist, 'release-key.pem')
    const { stdout } = await run(process.execPath, [script, '--new-key', file])
    const written = await readFile(file, 'utf8')
    expect(written).toMatch(/^-----BEGIN PRIVATE KEY-----\n/)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const line = /^ {2}'([A-Za-z0-9_-]{43})',$/m.exec(stdout)
    expect(line).not.toBeNull()
    expect(stdout).toContain(`key ${releaseKeyOf(line![1]!).id}`)

    await expect(run(process.execPath, [script, '--new-key', file])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('EEXIST'),
    })
    expect(await readFile(file, 'utf8')).toBe(written)
    expect(existsSync(join(dist, 'release-key.pem.sig'))).toBe(false)
  })
})
