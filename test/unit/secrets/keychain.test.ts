import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fromProfile } from '#cli/push/push-credentials.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { runNodeScript, TOKEN_STORE_MODULE } from './child-node.ts'
import { deleteEntries, probeSecretService, rawEntry, RUN_WITH_KEYCHAIN } from './secret-service.ts'
import { filesContaining } from './secret-scan.ts'

// A service name of its own per run: the tests never see or touch anyone's real entries.
const SERVICE = `Catalog Desk test ${randomUUID()}`
const ADDRESS = 'https://api.example.com'
const MOVED = 'https://api.moved.example.com'
const secretService = await probeSecretService(SERVICE)
if (!secretService.usable) {
  process.stderr.write(
    `Keychain tests skipped: ${secretService.reason}. Run them with: ${RUN_WITH_KEYCHAIN}\n`,
  )
}

const usedAccounts = new Set<string>()

function newToken(): string {
  return `cd-test-${randomUUID()}`
}

function account(name: string): string {
  const id = `${name}-${randomUUID().slice(0, 8)}`
  usedAccounts.add(id)
  return id
}

describe.skipIf(!secretService.usable)('token store with the real Secret Service', () => {
  afterAll(() => deleteEntries(SERVICE, usedAccounts))

  it('stores the token in the Secret Service, where a fresh store and a fresh process find it', async () => {
    const tokens = createTokenStore({ service: SERVICE })
    const id = account('production')
    const token = newToken()

    await expect(tokens.set(id, ADDRESS, `${token}\n`)).resolves.toEqual({ storage: 'keychain' })
    await expect(tokens.get(id, ADDRESS)).resolves.toBe(token)
    await expect(tokens.has(id, ADDRESS)).resolves.toEqual({ isSet: true, storage: 'keychain' })
    await expect(tokens.availability()).resolves.toEqual({ keychain: true })

    // Read behind the store's back: the entry really is in the Secret Service, under service + profile
    // id, with the address the token is bound to.
    const secret = await rawEntry(SERVICE, id).getPassword()
    expect(JSON.parse(secret ?? '')).toEqual({ format: 'catalog-desk-token/1', address: ADDRESS, token })
    // No state shared with the first store.
    await expect(createTokenStore({ service: SERVICE }).get(id, ADDRESS)).resolves.toBe(token)
    const child = await runNodeScript(
      `const { createTokenStore } = await import(process.env.TOKEN_STORE_MODULE)
       const tokens = createTokenStore({ service: process.env.SERVICE })
       const token = await tokens.get(process.env.PROFILE_ID, process.env.ADDRESS)
       const moved = await tokens.get(process.env.PROFILE_ID, process.env.MOVED)
       console.log(JSON.stringify({
         matches: token === process.env.EXPECTED,
         has: await tokens.has(process.env.PROFILE_ID, process.env.ADDRESS),
         moved: moved === undefined ? null : 'token given for another address',
       }))`,
      { ...process.env, TOKEN_STORE_MODULE, SERVICE, PROFILE_ID: id, EXPECTED: token, ADDRESS, MOVED },
    )
    expect(child.result).toEqual({ matches: true, has: { isSet: true, storage: 'keychain' }, moved: null })
  })

  it('clears the token from the Secret Service', async () => {
    const tokens = createTokenStore({ service: SERVICE })
    const id = account('staging')
    await tokens.set(id, ADDRESS, newToken())
    await tokens.clear(id)

    await expect(rawEntry(SERVICE, id).getPassword()).resolves.toBeNull()
    await expect(tokens.has(id, ADDRESS)).resolves.toEqual({ isSet: false, storage: null })
    await expect(createTokenStore({ service: SERVICE }).get(id, ADDRESS)).resolves.toBeUndefined()
  })

  it('keeps the tokens of two profiles independent', async () => {
    const tokens = createTokenStore({ service: SERVICE })
    const [first, second] = [account('client-a'), account('client-b')]
    const [firstToken, secondToken] = [newToken(), newToken()]
    await tokens.set(first, ADDRESS, firstToken)
    await tokens.set(second, ADDRESS, secondToken)
    await expect(tokens.get(first, ADDRESS)).resolves.toBe(firstToken)
    await expect(tokens.get(second, ADDRESS)).resolves.toBe(secondToken)

    await tokens.set(first, ADDRESS, `${firstToken}-replaced`)
    await tokens.clear(second)
    await expect(createTokenStore({ service: SERVICE }).get(first, ADDRESS)).resolves.toBe(
      `${firstToken}-replaced`,
    )
    await expect(rawEntry(SERVICE, second).getPassword()).resolves.toBeNull()
  })

  it('does not give a token left in the keychain for a former address, in this process or another', async () => {
    const tokens = createTokenStore({ service: SERVICE })
    const id = account('moved')
    const token = newToken()
    await tokens.set(id, ADDRESS, token)
    // As after a profile moved and deleting its entry failed: the entry is still there.
    await expect(createTokenStore({ service: SERVICE }).get(id, MOVED)).resolves.toBeUndefined()
    await expect(createTokenStore({ service: SERVICE }).lookup(id, MOVED)).resolves.toEqual({
      found: false,
      missing: 'other-address',
    })
    const child = await runNodeScript(
      `const { createTokenStore } = await import(process.env.TOKEN_STORE_MODULE)
       const tokens = createTokenStore({ service: process.env.SERVICE })
       console.log(JSON.stringify(await tokens.has(process.env.PROFILE_ID, process.env.MOVED)))`,
      { ...process.env, TOKEN_STORE_MODULE, SERVICE, PROFILE_ID: id, MOVED },
    )
    expect(child.result).toEqual({ isSet: false, storage: null })
    expect(child.stdout).not.toContain(token)
  })

  it('treats a bare token stored by an earlier version as no token, until it is set again', async () => {
    const id = account('legacy')
    const token = newToken()
    await rawEntry(SERVICE, id).setPassword(token)
    const tokens = createTokenStore({ service: SERVICE })
    await expect(tokens.get(id, ADDRESS)).resolves.toBeUndefined()
    await expect(tokens.has(id, ADDRESS)).resolves.toEqual({ isSet: false, storage: null })
    await expect(tokens.lookup(id, ADDRESS)).resolves.toEqual({ found: false, missing: 'unbound' })

    await tokens.set(id, ADDRESS, `${token}-again`)
    await expect(createTokenStore({ service: SERVICE }).get(id, ADDRESS)).resolves.toBe(`${token}-again`)
  })

  describe('the token is never written in plain text', () => {
    let profileDir: string
    beforeEach(async () => {
      profileDir = await mkdtemp(join(tmpdir(), 'catalog-desk-profiles-'))
    })
    afterEach(() => rm(profileDir, { recursive: true, force: true }))

    it('push --profile reads the bound token, and refuses it once the profile has moved', async () => {
      const tokens = createTokenStore({ service: SERVICE })
      const profiles = createProfileStore({ dir: profileDir, tokens })
      const id = account('cli')
      const token = newToken()
      const profile = {
        id,
        name: 'CLI profile',
        kind: 'service' as const,
        baseUrl: ADDRESS,
        tokenEncoding: 'raw' as const,
        batchSize: 50,
        concurrency: 1,
        timeouts: { connectMs: 10_000, responseMs: 60_000, totalMs: 120_000 },
      }
      await profiles.save(profile)
      await tokens.set(id, ADDRESS, token)
      const env = { CATALOG_DESK_DATA_DIR: profileDir }
      const cliTokens = createTokenStore({ service: SERVICE })
      const credentials = await fromProfile(id, env, { tokens: cliTokens })
      await expect(credentials.getToken()).resolves.toBe(token)

      // The address changes in profiles.json while the keychain keeps the old entry (a failed deletion).
      const file = join(profileDir, 'profiles.json')
      const json = JSON.parse(await readFile(file, 'utf8'))
      json.profiles.find((entry: { id: string }) => entry.id === id).baseUrl = MOVED
      await writeFile(file, JSON.stringify(json))
      await expect(fromProfile(id, env, { tokens: cliTokens })).rejects.toThrow(/set for another address/)
      await expect(rawEntry(SERVICE, id).getPassword()).resolves.toContain(ADDRESS)
    })

    it('is found neither in the profiles directory nor in the keyring files', async () => {
      const tokens = createTokenStore({ service: SERVICE })
      const profiles = createProfileStore({ dir: profileDir, tokens })
      const id = account('client-eu')
      const token = newToken()
      await profiles.save({
        id,
        name: 'Client EU',
        kind: 'service',
        baseUrl: ADDRESS,
        tokenEncoding: 'base64',
        batchSize: 50,
        concurrency: 1,
        timeouts: { connectMs: 10_000, responseMs: 60_000, totalMs: 120_000 },
      })
      await expect(tokens.set(id, ADDRESS, token)).resolves.toEqual({ storage: 'keychain' })
      await profiles.activate(id)

      const home = process.env.HOME ?? homedir()
      const dataHome = process.env.XDG_DATA_HOME ?? join(home, '.local', 'share')
      // The whole HOME only when it is the throwaway one of .ci/with-keychain.sh, never a person's own.
      const throwawayHome = basename(home).startsWith('catalog-desk-home.')
      const roots = [profileDir, join(dataHome, 'keyrings'), ...(throwawayHome ? [home] : [])]
      const scan = await filesContaining(roots, token)
      expect(scan.found).toEqual([])
      expect(scan.scanned).toContain(join(profileDir, 'profiles.json'))
      // gnome-keyring's own (encrypted) file was among those read.
      if (throwawayHome) expect(scan.scanned.some((file) => file.includes('/keyrings/'))).toBe(true)
    })
  })
})
