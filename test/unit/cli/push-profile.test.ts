import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '#cli/main.ts'
import { appDataDir, fromProfile } from '#cli/push/push-credentials.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'
import { fixture } from '../shared/contract-fixtures.ts'

/** `push --profile`: the app's profiles.json and the token the app put in the keychain. */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-push-profile-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const ADDRESS = 'https://api.example.com'
const SERVICE = 'catalog-desk-test'

async function savedProfile(token?: string) {
  const keychain = createFakeKeychain()
  const tokens = createTokenStore({ service: SERVICE, keychain: keychain.backend })
  const store = createProfileStore({ dir, tokens })
  await store.save({
    ...DEFAULT_SENDING,
    id: 'acme',
    name: 'Acme production',
    kind: 'service',
    baseUrl: `${ADDRESS}/`,
    tokenEncoding: 'base64',
    batchSize: 25,
  })
  if (token) await tokens.set('acme', ADDRESS, token)
  return { tokens, keychain }
}

const profilesFile = () => join(dir, 'profiles.json')

/** Edits profiles.json behind the app's back, as another app version or a person might. */
async function editProfilesFile(edit: (json: { profiles: Record<string, unknown>[] }) => void) {
  const json = JSON.parse(await readFile(profilesFile(), 'utf8'))
  edit(json)
  await writeFile(profilesFile(), JSON.stringify(json, null, 2))
}

async function run(argv: string[], env: Record<string, string>) {
  const out = { code: -1, stdout: '', stderr: '' }
  out.code = await main(argv, {
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    cwd: dir,
    env,
  })
  return out
}

describe('push --profile', () => {
  it('reads the address, encoding and token of a profile, by id or by name', async () => {
    const { tokens } = await savedProfile('secret-123')
    const env = { CATALOG_DESK_DATA_DIR: dir }
    for (const name of ['acme', 'Acme Production']) {
      const credentials = await fromProfile(name, env, { tokens })
      expect(credentials).toMatchObject({ baseUrl: 'https://api.example.com', tokenEncoding: 'base64' })
      expect(credentials.profile).toMatchObject({ batchSize: 25 })
      expect(await credentials.getToken()).toBe('secret-123')
    }
  })

  it('says what to do when the profile has no token, does not exist, or is the embedded sandbox', async () => {
    const { tokens } = await savedProfile()
    const env = { CATALOG_DESK_DATA_DIR: dir }
    await expect(fromProfile('acme', env, { tokens })).rejects.toThrow(
      /has no token in the keychain.*--token-env/,
    )
    await expect(fromProfile('nope', env, { tokens })).rejects.toThrow(
      /There is no profile "nope".*sandbox, production, staging, acme/,
    )
    await expect(fromProfile('sandbox', env, { tokens })).rejects.toThrow(
      /sandbox inside the app.*--base-url and --token-env/,
    )
  })

  it('through the command: exit 2 with the reason, nothing sent', async () => {
    const out = await run(['push', 'x.json', '--profile', 'sandbox'], { CATALOG_DESK_DATA_DIR: dir })
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/sandbox inside the app/)
  })

  it('does not send a token left in the keychain for the address the profile had before', async () => {
    // The app cleared the token when the address changed, but the keychain kept it (deletion failed).
    const { tokens } = await savedProfile('secret-123')
    await editProfilesFile((json) => {
      json.profiles.find((profile) => profile.id === 'acme')!.baseUrl = 'https://api.moved.example.com'
    })
    await expect(fromProfile('acme', { CATALOG_DESK_DATA_DIR: dir }, { tokens })).rejects.toThrow(
      /"Acme production" was set for another address, not for https:\/\/api.moved.example.com, so it is not sent: set it again in the app's Settings, or use --token-env/,
    )
  })

  it('treats a token stored before tokens were bound to an address as absent', async () => {
    const { tokens, keychain } = await savedProfile()
    keychain.put(SERVICE, 'acme', 'secret-123')
    const error = await fromProfile('acme', { CATALOG_DESK_DATA_DIR: dir }, { tokens }).catch((e: Error) => e)
    expect((error as Error).message).toMatch(
      /stored by an earlier Catalog Desk without the address it is for, so it is not sent anywhere: set it again/,
    )
    expect((error as Error).message).not.toContain('secret-123')
  })

  it('says when the keychain cannot be read', async () => {
    const { tokens, keychain } = await savedProfile('secret-123')
    keychain.fail('The name org.freedesktop.secrets was not provided')
    await expect(fromProfile('acme', { CATALOG_DESK_DATA_DIR: dir }, { tokens })).rejects.toThrow(
      /The keychain cannot be read \(The name org.freedesktop.secrets was not provided\): use --token-env/,
    )
  })

  it('only reads profiles.json: an entry the app would drop is left in the file, and named', async () => {
    const { tokens } = await savedProfile('secret-123')
    await editProfilesFile((json) => {
      json.profiles.push({ id: 'broken', name: 'Broken', kind: 'service', baseUrl: 'http://x.example' })
    })
    const before = await readFile(profilesFile(), 'utf8')
    const env = { CATALOG_DESK_DATA_DIR: dir }
    await expect(fromProfile('acme', env, { tokens })).resolves.toMatchObject({ baseUrl: ADDRESS })
    await expect(fromProfile('broken', env, { tokens })).rejects.toThrow(
      /There is no profile "broken".*also holds entries that cannot be used: profile "Broken":/,
    )
    expect(await readFile(profilesFile(), 'utf8')).toBe(before)
    expect(await readdir(dir)).toEqual(['profiles.json'])
  })

  it('refuses a name two profiles share, listing their ids, and takes either by its id', async () => {
    const { tokens } = await savedProfile('secret-123')
    await editProfilesFile((json) => {
      const acme = json.profiles.find((profile) => profile.id === 'acme')!
      json.profiles.push({ ...acme, id: 'acme-eu', baseUrl: 'https://eu.api.example.com' })
    })
    await tokens.set('acme-eu', 'https://eu.api.example.com', 'secret-eu')
    const env = { CATALOG_DESK_DATA_DIR: dir }
    await expect(fromProfile('acme production', env, { tokens })).rejects.toThrow(
      /2 profiles are named "acme production" \(ids acme, acme-eu\).*takes an id/,
    )
    await expect(fromProfile('acme-eu', env, { tokens })).resolves.toMatchObject({
      baseUrl: 'https://eu.api.example.com',
    })
    await expect(fromProfile('acme', env, { tokens })).resolves.toMatchObject({ baseUrl: ADDRESS })
    const out = await run(['push', 'x.json', '--profile', 'Acme production'], env)
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/ids acme, acme-eu/)
  })

  it('refuses a damaged profiles.json without moving it aside', async () => {
    const { tokens } = await savedProfile('secret-123')
    await writeFile(profilesFile(), '{"version": 1, "profiles": [')
    await expect(fromProfile('acme', { CATALOG_DESK_DATA_DIR: dir }, { tokens })).rejects.toThrow(
      /profiles .*profiles.json cannot be used \(it is not valid JSON\): open Catalog Desk.*--token-env/,
    )
    expect(await readdir(dir)).toEqual(['profiles.json'])
    expect(await readFile(profilesFile(), 'utf8')).toBe('{"version": 1, "profiles": [')
  })

  it('offers the built-in profiles when the app has saved none, and writes nothing', async () => {
    const tokens = createTokenStore({ service: SERVICE, keychain: createFakeKeychain().backend })
    await expect(fromProfile('production', { CATALOG_DESK_DATA_DIR: dir }, { tokens })).rejects.toThrow(
      /"Production" has no token/,
    )
    expect(await readdir(dir)).toEqual([])
  })

  it("uses the profile's token encoding, and refuses a --token-encoding that contradicts it", async () => {
    const { tokens } = await savedProfile('secret-123')
    const env = { CATALOG_DESK_DATA_DIR: dir }
    await expect(fromProfile('acme', env, { tokens, tokenEncoding: 'base64' })).resolves.toMatchObject({
      tokenEncoding: 'base64',
    })
    await expect(fromProfile('acme', env, { tokens, tokenEncoding: 'raw' })).rejects.toThrow(
      /"Acme production" sets the token encoding to base64; --token-encoding raw contradicts it/,
    )
    // Refused before the keychain is asked: through the command, whose keychain is the real one.
    const out = await run(['push', 'x.json', '--profile', 'acme', '--token-encoding', 'raw'], env)
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/--token-encoding raw contradicts it/)
  })

  it("finds the app's data folder as Electron names it", () => {
    expect(appDataDir({ CATALOG_DESK_DATA_DIR: '/x' })).toBe('/x')
    if (process.platform === 'linux') {
      expect(appDataDir({ HOME: '/home/a' })).toBe('/home/a/.config/catalog-desk')
      expect(appDataDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/catalog-desk')
    }
  })
})

describe('push --token-encoding with --token-env', () => {
  let sandbox: Sandbox
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, token: 'enc-token-77', tokenEncoding: 'base64' })
  })
  afterEach(() => sandbox.close())

  it('sends the token raw by default and base64-encoded when asked', async () => {
    const request = fixture('bulk-upload-request.json') as { skus: unknown[] }
    await writeFile(join(dir, 'skus.json'), JSON.stringify({ skus: request.skus.slice(0, 1) }))
    const env = { PUSH_TOKEN: 'enc-token-77' }
    const args = ['push', 'skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json']
    const raw = await run([...args, '--journal', 'raw.jsonl'], env)
    expect(raw.code).toBe(1)
    expect(JSON.parse(raw.stdout)).toMatchObject({ synced: 0, status: 'paused', reason: 'needs-token' })
    const encoded = await run([...args, '--journal', 'encoded.jsonl', '--token-encoding', 'base64'], env)
    expect(encoded.code).toBe(0)
    expect(JSON.parse(encoded.stdout)).toMatchObject({ total: 1, synced: 1, status: 'finished' })
  })

  it('a refused token: the advice names the profile it came from', async () => {
    const keychain = createFakeKeychain()
    const tokens = createTokenStore({ service: SERVICE, keychain: keychain.backend })
    await createProfileStore({ dir, tokens }).save({
      ...DEFAULT_SENDING,
      id: 'acme',
      name: 'Acme production',
      kind: 'service',
      baseUrl: sandbox.url,
      tokenEncoding: 'base64',
    })
    await tokens.set('acme', sandbox.url, 'an-old-token')
    const request = fixture('bulk-upload-request.json') as { skus: unknown[] }
    await writeFile(join(dir, 'skus.json'), JSON.stringify({ skus: request.skus.slice(0, 1) }))
    const out = { code: -1, stdout: '', stderr: '' }
    out.code = await main(['push', 'skus.json', '--profile', 'acme', '--journal', 'acme.jsonl'], {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      cwd: dir,
      env: { CATALOG_DESK_DATA_DIR: dir },
      tokens,
    })
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(
      `Nothing was created. Set a valid token for the profile "Acme production" in the app's Settings, or use --token-env.`,
    )
  })

  it('refuses an unknown encoding', async () => {
    const out = await run(
      ['push', 'x.json', '--base-url', sandbox.url, '--token-env', 'T', '--token-encoding', 'hex'],
      {
        T: 'x',
      },
    )
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/--token-encoding is raw or base64, not "hex"/)
  })
})
