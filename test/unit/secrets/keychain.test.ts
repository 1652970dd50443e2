import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProfileStore } from '../../../src/main/profiles/profile-store.ts'
import { createTokenStore } from '../../../src/main/secrets/token-store.ts'
import { runNodeScript, TOKEN_STORE_MODULE } from './child-node.ts'
import { deleteEntries, probeSecretService, rawEntry, RUN_WITH_KEYCHAIN } from './secret-service.ts'
import { filesContaining } from './secret-scan.ts'

// A service name of its own per run: the tests never see or touch anyone's real entries.
const SERVICE = `Catalog Desk test ${randomUUID()}`
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

    await expect(tokens.set(id, `${token}\n`)).resolves.toEqual({ storage: 'keychain' })
    await expect(tokens.get(id)).resolves.toBe(token)
    await expect(tokens.has(id)).resolves.toEqual({ isSet: true, storage: 'keychain' })
    await expect(tokens.availability()).resolves.toEqual({ keychain: true })

    // Read behind the store's back: the entry really is in the Secret Service, under service + profile id.
    await expect(rawEntry(SERVICE, id).getPassword()).resolves.toBe(token)
    // No state shared with the first store.
    await expect(createTokenStore({ service: SERVICE }).get(id)).resolves.toBe(token)
    const child = await runNodeScript(
      `const { createTokenStore } = await import(process.env.TOKEN_STORE_MODULE)
       const tokens = createTokenStore({ service: process.env.SERVICE })
       const token = await tokens.get(process.env.PROFILE_ID)
       console.log(JSON.stringify({ matches: token === process.env.EXPECTED, has: await tokens.has(process.env.PROFILE_ID) }))`,
      { ...process.env, TOKEN_STORE_MODULE, SERVICE, PROFILE_ID: id, EXPECTED: token },
    )
    expect(child.result).toEqual({ matches: true, has: { isSet: true, storage: 'keychain' } })
  })

  it('clears the token from the Secret Service', async () => {
    const tokens = createTokenStore({ service: SERVICE })
    const id = account('staging')
    await tokens.set(id, newToken())
    await tokens.clear(id)

    await expect(rawEntry(SERVICE, id).getPassword()).resolves.toBeNull()
    await expect(tokens.has(id)).resolves.toEqual({ isSet: false, storage: null })
    await expect(createTokenStore({ service: SERVICE }).get(id)).resolves.toBeUndefined()
  })

  it('keeps the tokens of two profiles independent', async () => {
    const tokens = createTokenStore({ service: SERVICE })
    const [first, second] = [account('client-a'), account('client-b')]
    const [firstToken, secondToken] = [newToken(), newToken()]
    await tokens.set(first, firstToken)
    await tokens.set(second, secondToken)
    await expect(tokens.get(first)).resolves.toBe(firstToken)
    await expect(tokens.get(second)).resolves.toBe(secondToken)

    await tokens.set(first, `${firstToken}-replaced`)
    await tokens.clear(second)
    await expect(rawEntry(SERVICE, first).getPassword()).resolves.toBe(`${firstToken}-replaced`)
    await expect(rawEntry(SERVICE, second).getPassword()).resolves.toBeNull()
  })

  describe('the token is never written in plain text', () => {
    let profileDir: string
    beforeEach(async () => {
      profileDir = await mkdtemp(join(tmpdir(), 'catalog-desk-profiles-'))
    })
    afterEach(() => rm(profileDir, { recursive: true, force: true }))

    it('is found neither in the profiles directory nor in the keyring files', async () => {
      const tokens = createTokenStore({ service: SERVICE })
      const profiles = createProfileStore({ dir: profileDir, tokens })
      const id = account('client-eu')
      const token = newToken()
      await profiles.save({
        id,
        name: 'Client EU',
        kind: 'service',
        baseUrl: 'https://api.example.com',
        tokenEncoding: 'base64',
        batchSize: 50,
        concurrency: 1,
        timeouts: { connectMs: 10_000, responseMs: 60_000, totalMs: 120_000 },
      })
      await expect(tokens.set(id, token)).resolves.toEqual({ storage: 'keychain' })
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
