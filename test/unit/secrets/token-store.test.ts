import { describe, expect, it } from 'vitest'
import {
  createTokenStore,
  DEFAULT_KEYCHAIN_SERVICE,
  InvalidTokenError,
  MAX_TOKEN_LENGTH,
} from '#node/secrets/token-store.ts'
import { createFakeKeychain } from './fake-keychain.ts'

const SERVICE = 'Catalog Desk (unit)'
const TOKEN = 'tok-3f9a1c0e-5b7d-4e2a-9c1f-abcdef012345'
const ADDRESS = 'https://api.example.com'
const MOVED = 'https://api.moved.example.com'
const MEMORY_NOTICE =
  /^No system keychain is available \((.+)\): the token is kept in memory until Catalog Desk closes; you will need to paste it again next time\.$/

/** The keychain entry as the store wrote it: the token with the address it is bound to. */
function bound(token: string, address = ADDRESS) {
  return JSON.stringify({ format: 'catalog-desk-token/1', address, token })
}

function setup() {
  const keychain = createFakeKeychain()
  const tokens = createTokenStore({ service: SERVICE, keychain: keychain.backend })
  return { keychain, tokens }
}

describe('token store with a working keychain', () => {
  it('stores the trimmed token with its address in the keychain, under the service and the profile id', async () => {
    const { keychain, tokens } = setup()
    await expect(tokens.set('production', ADDRESS, `  ${TOKEN}\n`)).resolves.toEqual({ storage: 'keychain' })
    expect(keychain.stored(SERVICE, 'production')).toBe(bound(TOKEN))
    await expect(tokens.get('production', ADDRESS)).resolves.toBe(TOKEN)
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: true, storage: 'keychain' })
    await expect(tokens.availability()).resolves.toEqual({ keychain: true })
  })

  it('says a profile without a token has none', async () => {
    const { tokens } = setup()
    await expect(tokens.get('staging', ADDRESS)).resolves.toBeUndefined()
    await expect(tokens.has('staging', ADDRESS)).resolves.toEqual({ isSet: false, storage: null })
  })

  it('keeps the tokens of two profiles apart', async () => {
    const { tokens } = setup()
    await tokens.set('production', ADDRESS, `${TOKEN}-prod`)
    await tokens.set('staging', ADDRESS, `${TOKEN}-stage`)
    await tokens.clear('production')
    await expect(tokens.get('production', ADDRESS)).resolves.toBeUndefined()
    await expect(tokens.get('staging', ADDRESS)).resolves.toBe(`${TOKEN}-stage`)
  })

  it('clears the token from the keychain', async () => {
    const { keychain, tokens } = setup()
    await tokens.set('production', ADDRESS, TOKEN)
    await tokens.clear('production')
    expect(keychain.stored(SERVICE, 'production')).toBeUndefined()
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: false, storage: null })
  })

  it('runs a set and a clear of the same profile in the order they were asked for', async () => {
    const { keychain, tokens } = setup()
    keychain.slow('set', 30)
    const set = tokens.set('production', ADDRESS, TOKEN)
    const clear = tokens.clear('production')
    await Promise.all([set, clear])
    await expect(tokens.get('production', ADDRESS)).resolves.toBeUndefined()
  })

  it('uses "Catalog Desk" as the keychain service unless told otherwise', async () => {
    const keychain = createFakeKeychain()
    await createTokenStore({ keychain: keychain.backend }).set('production', ADDRESS, TOKEN)
    expect(keychain.stored(DEFAULT_KEYCHAIN_SERVICE, 'production')).toBe(bound(TOKEN))
  })
})

describe('token rules', () => {
  const cases: [string, unknown, RegExp][] = [
    ['empty', '', /The token is empty/],
    ['only whitespace', ' \n\t ', /The token is empty/],
    ['a line break inside', `${TOKEN}\n${TOKEN}`, /single line/],
    ['a control character inside', `${TOKEN}\u0007x`, /single line/],
    ['too long', `${TOKEN}${'x'.repeat(MAX_TOKEN_LENGTH)}`, /too long .*at most 8,192/],
    ['not text', 42, /must be text/],
  ]

  it.each(cases)('refuses a token that is %s, without repeating it', async (_case, token, message) => {
    const { keychain, tokens } = setup()
    const error = await tokens.set('production', ADDRESS, token as string).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidTokenError)
    expect((error as Error).message).toMatch(message)
    if (typeof token === 'string' && token.trim()) expect((error as Error).message).not.toContain(TOKEN)
    expect(keychain.calls).toEqual([])
  })

  it('accepts a token of exactly the maximum length', async () => {
    const { tokens } = setup()
    await expect(tokens.set('production', ADDRESS, 'x'.repeat(MAX_TOKEN_LENGTH))).resolves.toEqual({
      storage: 'keychain',
    })
  })

  it('refuses a missing profile id', async () => {
    const { tokens } = setup()
    await expect(tokens.set('', ADDRESS, TOKEN)).rejects.toThrow(/profile id/)
  })
})

describe('token store when the keychain cannot be used', () => {
  it('keeps the token in memory for the session and says so in words a person understands', async () => {
    const { keychain, tokens } = setup()
    keychain.fail()
    const result = await tokens.set('production', ADDRESS, TOKEN)
    expect(result.storage).toBe('memory')
    expect(result.notice).toMatch(MEMORY_NOTICE)
    expect(result.notice).toContain("Couldn't access platform storage: AccessDenied")
    await expect(tokens.get('production', ADDRESS)).resolves.toBe(TOKEN)
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: true, storage: 'memory' })
    await expect(tokens.availability()).resolves.toEqual({
      keychain: false,
      reason: "Couldn't access platform storage: AccessDenied",
    })
  })

  it('never repeats the token when the keychain error happens to contain it', async () => {
    const { keychain, tokens } = setup()
    const base64 = Buffer.from(TOKEN).toString('base64')
    keychain.fail(`refused secret ${TOKEN} (encoded ${base64})\nat line 2`)
    const { notice } = await tokens.set('production', ADDRESS, TOKEN)
    expect(notice).toMatch(MEMORY_NOTICE)
    expect(notice).not.toContain(TOKEN)
    expect(notice).not.toContain(base64)
    expect(notice).toContain('refused secret [token removed] (encoded [token removed]) at line 2')
  })

  it('keeps trying the keychain, and never loses a token held in memory meanwhile', async () => {
    const { keychain, tokens } = setup()
    await tokens.set('staging', ADDRESS, `${TOKEN}-stage`)
    keychain.fail()
    await tokens.set('production', ADDRESS, TOKEN)

    keychain.recover()
    // The memory token is newer than anything the keychain may hold: it stays in use.
    await expect(tokens.get('production', ADDRESS)).resolves.toBe(TOKEN)
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: true, storage: 'memory' })
    await expect(tokens.get('staging', ADDRESS)).resolves.toBe(`${TOKEN}-stage`)

    keychain.fail()
    await expect(tokens.get('production', ADDRESS)).resolves.toBe(TOKEN)
    // A keychain token that cannot be read now is simply not available: no error reaches the caller.
    await expect(tokens.has('staging', ADDRESS)).resolves.toEqual({ isSet: false, storage: null })

    keychain.recover()
    await expect(tokens.set('production', ADDRESS, `${TOKEN}-new`)).resolves.toEqual({ storage: 'keychain' })
    expect(keychain.stored(SERVICE, 'production')).toBe(bound(`${TOKEN}-new`))
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: true, storage: 'keychain' })
  })

  it('clears a memory token even while the keychain is away', async () => {
    const { keychain, tokens } = setup()
    keychain.fail()
    await tokens.set('production', ADDRESS, TOKEN)
    await tokens.clear('production')
    await expect(tokens.get('production', ADDRESS)).resolves.toBeUndefined()
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: false, storage: null })
  })

  it('hides a keychain token it could not delete, and deletes it once the keychain answers again', async () => {
    const { keychain, tokens } = setup()
    await tokens.set('production', ADDRESS, TOKEN)
    keychain.fail()
    await tokens.clear('production')
    keychain.recover()
    expect(keychain.stored(SERVICE, 'production')).toBe(bound(TOKEN))
    await expect(tokens.get('production', ADDRESS)).resolves.toBeUndefined()
    expect(keychain.stored(SERVICE, 'production')).toBeUndefined()
  })
})

describe('a token is bound to the address it was set for', () => {
  it('gives the token for its own address only, in any spelling of it', async () => {
    const { tokens } = setup()
    await tokens.set('production', ADDRESS, TOKEN)
    await expect(tokens.get('production', `${ADDRESS}/ `)).resolves.toBe(TOKEN)
    await expect(tokens.get('production', MOVED)).resolves.toBeUndefined()
    await expect(tokens.has('production', MOVED)).resolves.toEqual({ isSet: false, storage: null })
    await expect(tokens.lookup('production', MOVED)).resolves.toEqual({
      found: false,
      missing: 'other-address',
    })
    await expect(tokens.lookup('production', ADDRESS)).resolves.toEqual({
      found: true,
      token: TOKEN,
      storage: 'keychain',
    })
  })

  it('never hands out a token whose deletion failed, even after a restart forgot the pending deletion', async () => {
    const { keychain, tokens } = setup()
    await tokens.set('production', ADDRESS, TOKEN)
    // The profile moves: the app clears the token, but the keychain is away and keeps it.
    keychain.fail()
    await tokens.clear('production')
    keychain.recover()
    expect(keychain.stored(SERVICE, 'production')).toBe(bound(TOKEN))

    // A new process (the app restarted, or the CLI) knows nothing of the failed deletion.
    const fresh = createTokenStore({ service: SERVICE, keychain: keychain.backend })
    await expect(fresh.get('production', MOVED)).resolves.toBeUndefined()
    await expect(fresh.has('production', MOVED)).resolves.toEqual({ isSet: false, storage: null })
    await expect(fresh.lookup('production', MOVED)).resolves.toEqual({
      found: false,
      missing: 'other-address',
    })

    // Set again for the new address, it is used there and nowhere else.
    await fresh.set('production', MOVED, `${TOKEN}-moved`)
    await expect(fresh.get('production', MOVED)).resolves.toBe(`${TOKEN}-moved`)
    await expect(fresh.get('production', ADDRESS)).resolves.toBeUndefined()
  })

  it('binds a token kept in memory (no keychain) to its address too', async () => {
    const { keychain, tokens } = setup()
    keychain.fail()
    await expect(tokens.set('production', ADDRESS, TOKEN)).resolves.toMatchObject({ storage: 'memory' })
    await expect(tokens.get('production', ADDRESS)).resolves.toBe(TOKEN)
    await expect(tokens.get('production', MOVED)).resolves.toBeUndefined()
    await expect(tokens.has('production', MOVED)).resolves.toEqual({ isSet: false, storage: null })
    await expect(tokens.lookup('production', MOVED)).resolves.toEqual({
      found: false,
      missing: 'other-address',
    })
    // Memory wins over the keychain even when its address does not match: no older token slips through.
    keychain.recover()
    keychain.put(SERVICE, 'production', bound(`${TOKEN}-old`, MOVED))
    await expect(tokens.get('production', MOVED)).resolves.toBeUndefined()
  })

  it.each([
    ['a bare token, as stored before tokens were bound', TOKEN],
    ['an entry without an address', JSON.stringify({ format: 'catalog-desk-token/1', token: TOKEN })],
    ['an entry of an unknown format', JSON.stringify({ format: 'other/2', address: ADDRESS, token: TOKEN })],
    ['an entry with an empty address', bound(TOKEN, '')],
    ['text that is not JSON', '{not json'],
  ])('treats %s as no token: it is set again, never sent', async (_case, secret) => {
    const { keychain, tokens } = setup()
    keychain.put(SERVICE, 'production', secret)
    await expect(tokens.get('production', ADDRESS)).resolves.toBeUndefined()
    await expect(tokens.has('production', ADDRESS)).resolves.toEqual({ isSet: false, storage: null })
    await expect(tokens.lookup('production', ADDRESS)).resolves.toEqual({ found: false, missing: 'unbound' })
    // Left in place until replaced or cleared: reading changes nothing.
    expect(keychain.stored(SERVICE, 'production')).toBe(secret)

    await expect(tokens.set('production', ADDRESS, `${TOKEN}-again`)).resolves.toEqual({
      storage: 'keychain',
    })
    await expect(tokens.get('production', ADDRESS)).resolves.toBe(`${TOKEN}-again`)
  })

  it('says when the keychain cannot be read, apart from a missing token', async () => {
    const { keychain, tokens } = setup()
    await expect(tokens.lookup('production', ADDRESS)).resolves.toEqual({ found: false, missing: 'none' })
    keychain.fail()
    await expect(tokens.lookup('production', ADDRESS)).resolves.toEqual({
      found: false,
      missing: 'unreadable',
    })
  })

  it('refuses a missing address', async () => {
    const { keychain, tokens } = setup()
    await expect(tokens.set('production', ' / ', TOKEN)).rejects.toThrow(/address is missing/)
    await expect(tokens.get('production', '')).rejects.toThrow(/address is missing/)
    await expect(tokens.has('production', undefined as unknown as string)).rejects.toThrow(/address/)
    expect(keychain.calls).toEqual([])
  })

  it('never repeats the token when the keychain echoes the entry, where it is JSON-escaped', async () => {
    const { keychain, tokens } = setup()
    const token = `${TOKEN}"quoted\\slash`
    keychain.fail(`refused secret ${bound(token)}`)
    const { notice } = await tokens.set('production', ADDRESS, token)
    expect(notice).toMatch(MEMORY_NOTICE)
    expect(notice).not.toContain(TOKEN)
    expect(notice).toContain('[token removed]')
  })
})
