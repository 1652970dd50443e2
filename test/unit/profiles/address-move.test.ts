import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { moveProfileAddress } from '#node/profiles/address-move.ts'
import { createProfileStore, type ProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore, type TokenStore } from '#node/secrets/token-store.ts'
import { BUILT_IN_PROFILES, DEFAULT_SENDING, type Profile } from '#shared/profile.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'

const OLD = 'http://127.0.0.1:41001'
const OLD_LOCALHOST = 'http://localhost:41001'
const NEW = 'http://127.0.0.1:41002'
const TOKEN = 'tok-3f9a1c-address-move'

function serviceProfile(id: string, baseUrl: string): Profile {
  return {
    id,
    name: `Profile ${id}`,
    kind: 'service',
    baseUrl,
    ...DEFAULT_SENDING,
    timeouts: { ...DEFAULT_SENDING.timeouts },
  }
}

let dir: string
let tokens: TokenStore
let profiles: ProfileStore

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-address-move-'))
  tokens = createTokenStore({ service: 'Catalog Desk (unit)', keychain: createFakeKeychain().backend })
  profiles = createProfileStore({ dir, tokens })
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const move = (store: ProfileStore = profiles) =>
  moveProfileAddress({ profiles: store, tokens, from: [OLD, OLD_LOCALHOST], to: NEW })

describe('moving profiles to a new address', () => {
  it('moves the custom profiles at any spelling of the old address, each with its token', async () => {
    await profiles.save(serviceProfile('local', `${OLD}/`))
    await profiles.save(serviceProfile('local-name', OLD_LOCALHOST))
    await tokens.set('local', OLD, TOKEN)
    await tokens.set('local-name', OLD_LOCALHOST, `${TOKEN}-2`)

    const result = await move()

    expect(result.moved.map((profile) => [profile.id, profile.baseUrl])).toEqual([
      ['local', NEW],
      ['local-name', NEW],
    ])
    expect(result).toMatchObject({ left: [], notices: [] })
    await expect(profiles.get('local')).resolves.toEqual(serviceProfile('local', NEW))
    await expect(tokens.get('local', NEW)).resolves.toBe(TOKEN)
    await expect(tokens.get('local-name', NEW)).resolves.toBe(`${TOKEN}-2`)
    // Bound to the new address only, as any token is.
    await expect(tokens.get('local', OLD)).resolves.toBeUndefined()
  })

  it('leaves built-in profiles and profiles elsewhere as they are', async () => {
    const production = { ...serviceProfile('production', OLD), name: 'Production' }
    await profiles.save(production)
    await profiles.save(serviceProfile('remote', 'https://eu.example.com'))
    await profiles.save(serviceProfile('other-port', 'http://127.0.0.1:41003'))
    await tokens.set('production', OLD, TOKEN)

    const result = await move()

    expect(result).toEqual({ moved: [], left: [], notices: [] })
    const { profiles: after } = await profiles.list()
    expect(after.find((profile) => profile.id === 'sandbox')).toEqual(BUILT_IN_PROFILES[0])
    expect(after.find((profile) => profile.id === 'production')).toEqual(production)
    await expect(tokens.get('production', OLD)).resolves.toBe(TOKEN)
  })

  it('moves a profile without a token, and sets none', async () => {
    await profiles.save(serviceProfile('local', OLD))
    const result = await move()
    expect(result.moved).toHaveLength(1)
    await expect(tokens.has('local', NEW)).resolves.toEqual({ isSet: false, storage: null })
  })

  it('a read-only profile file leaves the profiles and their tokens where they were, and says so', async () => {
    const newer = JSON.stringify({ version: 2, activeId: 'local', profiles: [serviceProfile('local', OLD)] })
    await writeFile(join(dir, 'profiles.json'), newer)
    await tokens.set('local', OLD, TOKEN)

    const result = await move()

    expect(result.moved).toEqual([])
    expect(result.left).toEqual([
      { profile: serviceProfile('local', OLD), reason: 'the saved profiles cannot be changed now' },
    ])
    await expect(readFile(join(dir, 'profiles.json'), 'utf8')).resolves.toBe(newer)
    await expect(tokens.get('local', OLD)).resolves.toBe(TOKEN)
  })

  it('a save that fails after dropping the token puts the token back at the old address', async () => {
    await profiles.save(serviceProfile('local', OLD))
    await profiles.save(serviceProfile('second', OLD))
    await tokens.set('local', OLD, TOKEN)
    // The store drops the token before it writes the file; here the write is what fails.
    const failing: ProfileStore = {
      ...profiles,
      save: async (profile) => {
        if (profile.id !== 'local') return profiles.save(profile)
        await tokens.clear(profile.id)
        throw new Error('no space left on the disk')
      },
    }

    const result = await move(failing)

    expect(result.left).toEqual([
      { profile: serviceProfile('local', OLD), reason: 'no space left on the disk' },
    ])
    // One failure does not keep the others from moving.
    expect(result.moved.map((profile) => profile.id)).toEqual(['second'])
    await expect(profiles.get('local')).resolves.toEqual(serviceProfile('local', OLD))
    await expect(tokens.get('local', OLD)).resolves.toBe(TOKEN)
  })

  it('a token the keychain refuses for the new address is kept in memory, and the notice says so', async () => {
    const keychain = createFakeKeychain()
    tokens = createTokenStore({ service: 'Catalog Desk (unit)', keychain: keychain.backend })
    profiles = createProfileStore({ dir, tokens })
    await profiles.save(serviceProfile('local', OLD))
    await tokens.set('local', OLD, TOKEN)
    // Readable, but it refuses new entries.
    const set = keychain.backend.set
    keychain.backend.set = async () => {
      throw new Error('the keychain is read-only')
    }

    const result = await move()

    keychain.backend.set = set
    expect(result.moved).toHaveLength(1)
    expect(result.notices).toEqual([
      expect.stringMatching(/^The token of "Profile local": No system keychain/),
    ])
    await expect(tokens.has('local', NEW)).resolves.toEqual({ isSet: true, storage: 'memory' })
  })
})
