import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../src/cli/main.ts'
import { appDataDir, fromProfile } from '../../../src/cli/push/push-credentials.ts'
import { createProfileStore } from '../../../src/main/profiles/profile-store.ts'
import { createTokenStore } from '../../../src/main/secrets/token-store.ts'
import { DEFAULT_SENDING } from '../../../src/shared/profile.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'

/** `push --profile`: the app's profiles.json and the token the app put in the keychain. */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-push-profile-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function savedProfile(token?: string) {
  const tokens = createTokenStore({ service: 'catalog-desk-test', keychain: createFakeKeychain().backend })
  const store = createProfileStore({ dir, tokens })
  await store.save({
    ...DEFAULT_SENDING,
    id: 'acme',
    name: 'Acme production',
    kind: 'service',
    baseUrl: 'https://api.example.com/',
    tokenEncoding: 'base64',
    batchSize: 25,
  })
  if (token) await tokens.set('acme', token)
  return tokens
}

describe('push --profile', () => {
  it('reads the address, encoding and token of a profile, by id or by name', async () => {
    const tokens = await savedProfile('secret-123')
    const env = { CATALOG_DESK_DATA_DIR: dir }
    for (const name of ['acme', 'Acme Production']) {
      const credentials = await fromProfile(name, env, tokens)
      expect(credentials).toMatchObject({ baseUrl: 'https://api.example.com', tokenEncoding: 'base64' })
      expect(credentials.profile).toMatchObject({ batchSize: 25 })
      expect(await credentials.getToken()).toBe('secret-123')
    }
  })

  it('says what to do when the profile has no token, does not exist, or is the embedded sandbox', async () => {
    const tokens = await savedProfile()
    const env = { CATALOG_DESK_DATA_DIR: dir }
    await expect(fromProfile('acme', env, tokens)).rejects.toThrow(
      /has no token in the keychain.*--token-env/,
    )
    await expect(fromProfile('nope', env, tokens)).rejects.toThrow(
      /There is no profile "nope".*sandbox, production, staging, acme/,
    )
    await expect(fromProfile('sandbox', env, tokens)).rejects.toThrow(
      /sandbox inside the app.*--base-url and --token-env/,
    )
  })

  it('through the command: exit 2 with the reason, nothing sent', async () => {
    const out = { stdout: '', stderr: '' }
    const code = await main(['push', 'x.json', '--profile', 'sandbox'], {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      cwd: dir,
      env: { CATALOG_DESK_DATA_DIR: dir },
    })
    expect(code).toBe(2)
    expect(out.stderr).toMatch(/sandbox inside the app/)
  })

  it("finds the app's data folder as Electron names it", () => {
    expect(appDataDir({ CATALOG_DESK_DATA_DIR: '/x' })).toBe('/x')
    if (process.platform === 'linux') {
      expect(appDataDir({ HOME: '/home/a' })).toBe('/home/a/.config/catalog-desk')
      expect(appDataDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/catalog-desk')
    }
  })
})
