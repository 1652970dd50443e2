import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProfileStore, InvalidProfileError, type ProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore, type TokenStore } from '#node/secrets/token-store.ts'
import { BUILT_IN_PROFILES, DEFAULT_SENDING, type Profile } from '#shared/profile.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'

type ServiceProfile = Extract<Profile, { kind: 'service' }>

const TOKEN = 'tok-5c2e9d7a-profile-store'
const NOW = new Date('2025-03-04T05:06:07.089Z')
const ASIDE = 'profiles.json.corrupt-2025-03-04T05-06-07-089Z'
const EU = 'https://eu.example.com'
const PRODUCTION = 'https://api.pixelbin.io'

function customProfile(overrides: Partial<ServiceProfile> = {}): Profile {
  return {
    id: 'client-eu',
    name: 'Client EU',
    kind: 'service',
    baseUrl: EU,
    ...DEFAULT_SENDING,
    timeouts: { ...DEFAULT_SENDING.timeouts },
    ...overrides,
  }
}

function builtIn(id: string): Profile {
  return structuredClone(BUILT_IN_PROFILES.find((profile) => profile.id === id)!)
}

function builtInService(id: 'production' | 'staging'): ServiceProfile {
  return builtIn(id) as ServiceProfile
}

let dir: string
let tokens: TokenStore
let store: ProfileStore

/** A new store on the same directory: what the next start of the app sees. */
function reopen(): ProfileStore {
  return createProfileStore({ dir, tokens, now: () => NOW })
}

async function fileJson(): Promise<{ version: number; activeId: string; profiles: Profile[] }> {
  return JSON.parse(await readFile(join(dir, 'profiles.json'), 'utf8'))
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-profiles-'))
  tokens = createTokenStore({ service: 'Catalog Desk (unit)', keychain: createFakeKeychain().backend })
  store = reopen()
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('profile store: first run and persistence', () => {
  it('offers the built-in profiles with the sandbox active, before any file exists', async () => {
    await expect(store.list()).resolves.toEqual({
      profiles: [...BUILT_IN_PROFILES],
      activeId: 'sandbox',
      readOnly: false,
    })
    await expect(readdir(dir)).resolves.toEqual([])
  })

  it('keeps saved and activated profiles for the next start', async () => {
    await store.save(customProfile())
    await store.activate('client-eu')

    const { profiles, activeId } = await reopen().list()
    expect(profiles.map((profile) => profile.id)).toEqual(['sandbox', 'production', 'staging', 'client-eu'])
    expect(activeId).toBe('client-eu')
    await expect(reopen().get('client-eu')).resolves.toEqual(customProfile())
    const file = await fileJson()
    expect(file.version).toBe(1)
    expect(file.activeId).toBe('client-eu')
  })

  it('replaces a profile saved again under the same id', async () => {
    await store.save(customProfile())
    await store.save(customProfile({ name: 'Client Europe', batchSize: 20 }))
    const { profiles } = await reopen().list()
    expect(profiles.filter((profile) => profile.id === 'client-eu')).toEqual([
      customProfile({ name: 'Client Europe', batchSize: 20 }),
    ])
  })

  it('stores the base URL trimmed and without trailing slashes, and says what it stored', async () => {
    const saved = await store.save(customProfile({ baseUrl: '  https://eu.example.com/v2//  ' }))
    expect(saved).toEqual(customProfile({ baseUrl: 'https://eu.example.com/v2' }))
    await expect(reopen().get('client-eu')).resolves.toEqual(saved)
  })

  it('answers undefined for a profile that does not exist', async () => {
    await expect(store.get('nope')).resolves.toBeUndefined()
  })
})

describe('profile store: built-in profiles', () => {
  it('persists edits to built-ins and writes only the edited ones', async () => {
    const production = {
      ...builtInService('production'),
      batchSize: 200,
      baseUrl: 'https://api.eu.pixelbin.io',
    }
    const sandbox = {
      ...builtIn('sandbox'),
      timeouts: { connectMs: 5_000, responseMs: 30_000, totalMs: 60_000 },
    }
    await store.save(production)
    await store.save(sandbox)

    await expect(reopen().get('production')).resolves.toEqual(production)
    await expect(reopen().get('sandbox')).resolves.toEqual(sandbox)
    // Staging was left as shipped: not written, so it follows the app's defaults.
    expect((await fileJson()).profiles.map((profile) => profile.id)).toEqual(['sandbox', 'production'])
  })

  it('gives the built-ins back when the file lacks them', async () => {
    await writeFile(
      join(dir, 'profiles.json'),
      JSON.stringify({ version: 1, activeId: 'client-eu', profiles: [customProfile()] }),
    )
    const list = await store.list()
    expect(list.profiles).toEqual([...BUILT_IN_PROFILES, customProfile()])
    expect(list.activeId).toBe('client-eu')
    expect(list.notice).toBeUndefined()
  })

  it('refuses to remove a built-in', async () => {
    await expect(store.remove('production')).rejects.toThrow(
      'The Production profile is built in and cannot be removed.',
    )
    await expect(store.remove('sandbox')).rejects.toThrow(/Sandbox profile is built in/)
    expect((await store.list()).profiles).toHaveLength(3)
  })

  it('keeps the sandbox profile on the embedded sandbox, and the services on an address', async () => {
    const sandboxAsService = {
      ...builtIn('sandbox'),
      kind: 'service',
      baseUrl: 'https://x.example.com',
    } as Profile
    await expect(store.save(sandboxAsService)).rejects.toThrow(
      'The Sandbox profile always uses the sandbox built into Catalog Desk.',
    )
    const { baseUrl: _dropped, ...productionFields } = builtIn('production') as Extract<
      Profile,
      { kind: 'service' }
    >
    await expect(store.save({ ...productionFields, kind: 'embedded-sandbox' })).rejects.toThrow(
      /Production profile is built in and always sends to a service address/,
    )
    const { baseUrl: _also, ...customFields } = customProfile() as ServiceProfile
    await expect(store.save({ ...customFields, kind: 'embedded-sandbox' })).rejects.toThrow(
      'Only the built-in Sandbox profile uses the sandbox built into Catalog Desk.',
    )
  })
})

describe('profile store: a token is bound to its address', () => {
  // Checked at the former address: the token store would not give it for the new one anyway; the
  // profile store also deletes it.
  it('drops the token when the base URL changes', async () => {
    await store.save(customProfile())
    await tokens.set('client-eu', EU, TOKEN)
    await store.save(customProfile({ baseUrl: 'https://other.example.com' }))
    await expect(tokens.has('client-eu', EU)).resolves.toEqual({ isSet: false, storage: null })
    await expect(tokens.has('client-eu', 'https://other.example.com')).resolves.toEqual({
      isSet: false,
      storage: null,
    })
  })

  it('drops the token of a built-in whose address changes', async () => {
    await tokens.set('production', PRODUCTION, TOKEN)
    await store.save({ ...builtInService('production'), baseUrl: 'https://api.eu.pixelbin.io' })
    await expect(tokens.get('production', PRODUCTION)).resolves.toBeUndefined()
  })

  it('keeps the token through other edits, and through another spelling of the same address', async () => {
    await store.save(customProfile())
    await tokens.set('client-eu', EU, TOKEN)
    await store.save(
      customProfile({ name: 'Renamed', batchSize: 10, concurrency: 2, tokenEncoding: 'base64' }),
    )
    await store.save(customProfile({ baseUrl: 'https://eu.example.com/ ' }))
    await expect(tokens.get('client-eu', EU)).resolves.toBe(TOKEN)
  })

  it('drops a memory token too when the address changes', async () => {
    const keychain = createFakeKeychain()
    keychain.fail()
    tokens = createTokenStore({ service: 'Catalog Desk (unit)', keychain: keychain.backend })
    store = reopen()
    await store.save(customProfile())
    await expect(tokens.set('client-eu', EU, TOKEN)).resolves.toMatchObject({ storage: 'memory' })
    await store.save(customProfile({ baseUrl: 'https://other.example.com' }))
    await expect(tokens.get('client-eu', EU)).resolves.toBeUndefined()
  })

  it('starts a new profile without a token, whatever was left under its id', async () => {
    await tokens.set('client-eu', EU, TOKEN)
    await store.save(customProfile())
    await expect(tokens.get('client-eu', EU)).resolves.toBeUndefined()
  })

  it('removes a profile with its token, and activates the sandbox when it was active', async () => {
    await store.save(customProfile())
    await store.activate('client-eu')
    await tokens.set('client-eu', EU, TOKEN)
    await store.remove('client-eu')

    await expect(tokens.get('client-eu', EU)).resolves.toBeUndefined()
    const list = await reopen().list()
    expect(list.activeId).toBe('sandbox')
    expect(list.profiles.map((profile) => profile.id)).not.toContain('client-eu')
  })

  it('keeps the active profile when another one is removed', async () => {
    await store.save(customProfile())
    await store.save(customProfile({ id: 'client-us', name: 'Client US' }))
    await store.activate('client-us')
    await store.remove('client-eu')
    await expect(reopen().list()).resolves.toMatchObject({ activeId: 'client-us' })
  })
})

describe('profile store: validation', () => {
  const cases: [string, Partial<ServiceProfile> | Record<string, unknown>, RegExp][] = [
    [
      'an http address to another computer',
      { baseUrl: 'http://api.example.com' },
      /http:\/\/ is allowed only for this computer/,
    ],
    [
      'an address with credentials',
      { baseUrl: 'https://user:pass@api.example.com' },
      /without a user name or password/,
    ],
    // A bare "#" or "?" is an empty fragment or query to the URL API, yet text after it would
    // follow the operation's path: http://127.0.0.1:2375/containers/create# posted to /containers/create.
    [
      'an address ending in a bare #',
      { baseUrl: 'http://127.0.0.1:2375/containers/create#' },
      /without a query or fragment: remove everything from the “#”/,
    ],
    [
      'an address ending in a bare ?',
      { baseUrl: 'https://api.example.com/v1?' },
      /without a query or fragment: remove everything from the “\?”/,
    ],
    [
      'an address with a query',
      { baseUrl: 'https://api.example.com?region=eu' },
      /without a query or fragment/,
    ],
    ['an address with a fragment', { baseUrl: 'https://api.example.com/#/x' }, /without a query or fragment/],
    ['a batch size of 0', { batchSize: 0 }, /At least 1 SKU a batch/],
    ['a batch size over 1,000', { batchSize: 1_001 }, /At most 1,000 SKUs a batch/],
    ['9 requests at a time', { concurrency: 9 }, /At most 8 requests at a time/],
    ['no name', { name: '   ' }, /Give the profile a name/],
    ['an id with capitals', { id: 'Client-EU' }, /Profile ids are lower-case letters, digits and dashes/],
  ]

  it.each(cases)(
    'refuses %s with the schema’s message and writes nothing',
    async (_case, change, message) => {
      const error = await store
        .save({ ...customProfile(), ...change } as Profile)
        .catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(InvalidProfileError)
      expect((error as Error).message).toMatch(message)
      expect((error as InvalidProfileError).issues.length).toBeGreaterThan(0)
      await expect(readdir(dir)).resolves.toEqual([])
    },
  )

  it('allows http to this computer (a local sandbox)', async () => {
    await expect(store.save(customProfile({ baseUrl: 'http://127.0.0.1:8080' }))).resolves.toMatchObject({
      baseUrl: 'http://127.0.0.1:8080',
    })
  })

  it('refuses to activate or remove a profile that does not exist, leaving the file alone', async () => {
    await store.save(customProfile())
    const before = await readFile(join(dir, 'profiles.json'), 'utf8')
    await expect(store.activate('nope')).rejects.toThrow('There is no profile "nope".')
    await expect(store.remove('nope')).rejects.toThrow('There is no profile "nope".')
    await expect(readFile(join(dir, 'profiles.json'), 'utf8')).resolves.toBe(before)
  })
})

describe('profile store: damaged and newer files', () => {
  it('sets a corrupt file aside, starts from the built-ins and says so', async () => {
    await writeFile(join(dir, 'profiles.json'), '{"version": 1, "profiles": [')
    const list = await store.list()
    expect(list.profiles).toEqual([...BUILT_IN_PROFILES])
    expect(list.activeId).toBe('sandbox')
    expect(list.notice).toBe(
      `The saved profiles could not be used (it is not valid JSON): the built-in profiles were restored and the old file was kept as ${join(dir, ASIDE)}.`,
    )
    await expect(readFile(join(dir, ASIDE), 'utf8')).resolves.toBe('{"version": 1, "profiles": [')
    await expect(readdir(dir)).resolves.toEqual([ASIDE])

    // Still said on the next look, and the store works again.
    await store.save(customProfile())
    expect((await store.list()).notice).toContain(ASIDE)
    const next = await reopen().list()
    expect(next.notice).toBeUndefined()
    expect(next.readOnly).toBe(false)
    expect(next.profiles).toContainEqual(customProfile())
  })

  it.each([
    ['a list instead of an object', '[]'],
    ['no version', JSON.stringify({ activeId: 'sandbox', profiles: [] })],
    ['profiles that are not a list', JSON.stringify({ version: 1, activeId: 'sandbox', profiles: {} })],
  ])('treats %s as corrupt', async (_case, text) => {
    await writeFile(join(dir, 'profiles.json'), text)
    const list = await store.list()
    expect(list.notice).toMatch(/^The saved profiles could not be used/)
    expect(list.profiles).toEqual([...BUILT_IN_PROFILES])
    await expect(readFile(join(dir, ASIDE), 'utf8')).resolves.toBe(text)
  })

  it('sets an unreadable file aside', async () => {
    // A directory where the file should be: reading it fails whatever the user's rights.
    await mkdir(join(dir, 'profiles.json'))
    const list = await store.list()
    expect(list.notice).toMatch(/could not be used \(it could not be read: .*EISDIR/)
    expect(list.readOnly).toBe(false)
    await store.save(customProfile())
    await expect(reopen().get('client-eu')).resolves.toEqual(customProfile())
  })

  it('leaves out the entries it cannot use, keeps the others and a copy of the file', async () => {
    const original = JSON.stringify({
      version: 1,
      activeId: 'broken',
      profiles: [customProfile(), { ...customProfile({ id: 'broken', name: 'Broken' }), batchSize: 0 }],
    })
    await writeFile(join(dir, 'profiles.json'), original)
    const list = await store.list()
    expect(list.profiles).toEqual([...BUILT_IN_PROFILES, customProfile()])
    expect(list.activeId).toBe('sandbox')
    expect(list.notice).toBe(
      `1 saved profile could not be used and was left out (profile "Broken": At least 1 SKU a batch); the file as it was is kept as ${join(dir, ASIDE)}.`,
    )
    await expect(readFile(join(dir, ASIDE), 'utf8')).resolves.toBe(original)
    // Rewritten without it, so it is not set aside again on every start.
    expect((await fileJson()).profiles.map((profile) => profile.id)).toEqual(['client-eu'])
    expect((await reopen().list()).notice).toBeUndefined()
  })

  it('reads a profile saved before the check-digit setting as not holding bad check digits, and keeps the choice once made', async () => {
    const { holdBadCheckDigits: _absent, requiredFields: _older, ...saved } = customProfile()
    await writeFile(
      join(dir, 'profiles.json'),
      JSON.stringify({ version: 1, activeId: 'client-eu', profiles: [saved] }),
    )
    const read = await store.get('client-eu')
    expect(read?.holdBadCheckDigits).toBe(false)
    expect(read).toEqual(customProfile())
    expect((await store.list()).notice).toBeUndefined()
    await store.save({ ...read!, holdBadCheckDigits: true })
    await expect(reopen().get('client-eu')).resolves.toEqual(customProfile({ holdBadCheckDigits: true }))
    expect(BUILT_IN_PROFILES.every((profile) => profile.holdBadCheckDigits === false)).toBe(true)
  })

  it('activates the sandbox when the stored active profile is gone', async () => {
    await writeFile(
      join(dir, 'profiles.json'),
      JSON.stringify({ version: 1, activeId: 'gone', profiles: [] }),
    )
    const list = await store.list()
    expect(list.activeId).toBe('sandbox')
    expect(list.notice).toBeUndefined()
  })

  it('shows a file from a newer version read-only and never overwrites it', async () => {
    const newer = JSON.stringify({
      version: 2,
      activeId: 'client-eu',
      profiles: [customProfile(), { id: 'future', kind: 'teleport' }],
      somethingNew: true,
    })
    await writeFile(join(dir, 'profiles.json'), newer)

    const list = await store.list()
    expect(list.readOnly).toBe(true)
    expect(list.notice).toBe(
      'The saved profiles were written by a newer version of Catalog Desk (format 2): they are shown read-only and the file is left as it is. Update Catalog Desk to change them.',
    )
    expect(list.profiles).toEqual([...BUILT_IN_PROFILES, customProfile()])
    expect(list.activeId).toBe('client-eu')

    await expect(store.save(customProfile({ name: 'Changed' }))).rejects.toThrow(
      /newer version of Catalog Desk/,
    )
    await expect(store.activate('sandbox')).rejects.toThrow(/newer version/)
    await expect(store.remove('client-eu')).rejects.toThrow(/newer version/)
    await expect(readFile(join(dir, 'profiles.json'), 'utf8')).resolves.toBe(newer)
    await expect(readdir(dir)).resolves.toEqual(['profiles.json'])
  })
})

describe('profile store: writes', () => {
  it('keeps every one of 20 concurrent saves, in a valid file, with no temporary file left', async () => {
    const saves = Array.from({ length: 20 }, (_, n) =>
      store.save(customProfile({ id: `client-${n}`, name: `Client ${n}`, batchSize: n + 1 })),
    )
    await Promise.all([...saves, store.activate('production')])

    const file = await fileJson()
    expect(file.profiles.map((profile) => profile.id).sort()).toEqual(
      Array.from({ length: 20 }, (_, n) => `client-${n}`).sort(),
    )
    const { profiles, activeId } = await reopen().list()
    expect(profiles).toHaveLength(23)
    expect(profiles.find((profile) => profile.id === 'client-7')).toMatchObject({ batchSize: 8 })
    expect(activeId).toBe('production')
    await expect(readdir(dir)).resolves.toEqual(['profiles.json'])
  })

  it('keeps concurrent changes made by two stores of the same process in order', async () => {
    const other = reopen()
    await Promise.all([store.save(customProfile()), store.activate('staging')])
    await other.save(customProfile({ id: 'client-us', name: 'Client US' }))
    const { profiles, activeId } = await reopen().list()
    expect(profiles.map((profile) => profile.id)).toEqual([
      'sandbox',
      'production',
      'staging',
      'client-eu',
      'client-us',
    ])
    expect(activeId).toBe('staging')
  })

  it('creates the directory when it does not exist yet', async () => {
    const nested = join(dir, 'Catalog Desk', 'data')
    const nestedStore = createProfileStore({ dir: nested, tokens })
    await nestedStore.save(customProfile())
    await expect(readdir(nested)).resolves.toEqual(['profiles.json'])
  })
})
