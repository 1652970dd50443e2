import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { createProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { createServiceHandlers } from '#main/handlers/service.ts'
import { createHandlers } from '#main/handlers/index.ts'
import type { Profile } from '#shared/profile.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { serviceDeps } from './service-deps.ts'

// The profile, token and connection channels, against a real sandbox on loopback and real stores.
let sandbox: Sandbox

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, token: 'sandbox', tokenEncoding: 'either' })
})

afterEach(async () => {
  await sandbox.close()
})

function setup() {
  const deps = serviceDeps({ url: sandbox.url, token: 'sandbox' })
  return { deps, handlers: createServiceHandlers(deps) }
}

const custom = (baseUrl: string): Profile => ({
  ...DEFAULT_SENDING,
  timeouts: { ...DEFAULT_SENDING.timeouts },
  id: 'local',
  name: 'Local',
  kind: 'service',
  baseUrl,
})

describe('profile channels', () => {
  it('lists the built-ins with the Sandbox active at its live address, needing no token', async () => {
    const { handlers } = setup()
    const state = await handlers.listProfiles()
    expect(state.activeId).toBe('sandbox')
    expect(state.profiles.map((p) => [p.id, p.url, p.hasToken, p.tokenStorage])).toEqual([
      ['sandbox', sandbox.url, true, 'embedded-sandbox'],
      ['production', 'https://api.pixelbin.io', false, null],
      ['staging', 'https://api.pixelbinz0.de', false, null],
    ])
  })

  it('tells whether a token is set and where, and never returns it', async () => {
    const { handlers, deps } = setup()
    const saved = await handlers.setToken('production', '  tok-123456  ')
    expect(saved).toEqual({ storage: 'keychain' })
    expect(await deps.tokens.get('production', 'https://api.pixelbin.io')).toBe('tok-123456')
    const state = await handlers.listProfiles()
    expect(state.profiles.find((p) => p.id === 'production')).toMatchObject({
      hasToken: true,
      tokenStorage: 'keychain',
    })
    expect(JSON.stringify(state)).not.toContain('tok-123456')
    await handlers.clearToken('production')
    expect((await handlers.listProfiles()).profiles.find((p) => p.id === 'production')?.hasToken).toBe(false)
  })

  it('keeps the token in memory, and says so, when the keychain is unavailable', async () => {
    const { handlers, deps } = setup()
    deps.keychain.fail('The name org.freedesktop.secrets was not provided')
    const saved = await handlers.setToken('production', 'tok-in-memory')
    expect(saved.storage).toBe('memory')
    expect(saved.notice).toMatch(/No system keychain is available.*kept in memory/)
    expect(saved.notice).not.toContain('tok-in-memory')
  })

  it('refuses a token for the embedded sandbox and for a profile that does not exist', async () => {
    const { handlers } = setup()
    await expect(handlers.setToken('sandbox', 'x')).rejects.toThrow(/needs no token/)
    await expect(handlers.setToken('nope', 'x')).rejects.toThrow(/no profile "nope"/)
  })

  it('drops a profile’s token when its address changes, and keeps it for other edits', async () => {
    const { handlers } = setup()
    await handlers.saveProfile(custom(sandbox.url))
    await handlers.setToken('local', 'sandbox')
    let state = await handlers.saveProfile({ ...custom(sandbox.url), batchSize: 10 })
    expect(state.profiles.find((p) => p.id === 'local')).toMatchObject({ hasToken: true, batchSize: 10 })
    state = await handlers.saveProfile(custom(`${sandbox.url}/v2`))
    expect(state.profiles.find((p) => p.id === 'local')?.hasToken).toBe(false)
  })

  it('never sends a token left in the keychain for a former address, even after a restart', async () => {
    const { deps, handlers } = setup()
    const former = 'http://127.0.0.1:9'
    await handlers.saveProfile(custom(former))
    await handlers.setToken('local', 'sandbox')
    // The address changes while the keychain is away: the old entry cannot be deleted.
    deps.keychain.fail()
    await handlers.saveProfile(custom(sandbox.url))
    deps.keychain.recover()

    // The app starts again: nothing in memory remembers the failed deletion.
    const tokens = createTokenStore({ service: 'Catalog Desk test', keychain: deps.keychain.backend })
    const restarted = createServiceHandlers({
      ...deps,
      tokens,
      profiles: createProfileStore({ dir: deps.dir, tokens }),
    })
    const state = await restarted.listProfiles()
    expect(state.profiles.find((p) => p.id === 'local')).toMatchObject({
      hasToken: false,
      tokenStorage: null,
    })
    expect(await restarted.testConnection('local')).toMatchObject({ ok: false, kind: 'needs-token' })
    expect(sandbox.requests()).toHaveLength(0)

    // Set again, the token is bound to the new address and used there.
    await restarted.setToken('local', 'sandbox')
    expect(await restarted.testConnection('local')).toMatchObject({ ok: true })
    expect(await tokens.get('local', former)).toBeUndefined()
  })

  it('checks a saved profile against the shared schema before it reaches the store', async () => {
    const dispatch = createDispatcher(
      createHandlers({ ...setup().deps, appInfo: () => ({}) as never, openExternal: async () => {} }),
    )
    await expect(dispatch('saveProfile', [custom('http://api.example.com')])).rejects.toThrow(
      /saveProfile: invalid arguments.*allowed only for this computer/,
    )
    await expect(dispatch('saveProfile', [{ ...custom('https://x.example'), batchSize: 0 }])).rejects.toThrow(
      /At least 1 SKU a batch/,
    )
  })
})

describe('testConnection', () => {
  it('reaches the embedded sandbox without a token and creates nothing', async () => {
    const { handlers } = setup()
    const result = await handlers.testConnection('sandbox')
    // The sandbox refuses an empty batch, as a service may: the token was taken, and that is all.
    expect(result).toMatchObject({ ok: true, kind: 'rejected', status: 400, url: sandbox.url })
    expect(result.message).toMatch(
      /^The service took the token but refused the empty test batch \(HTTP 400\)/,
    )
    expect(result.message).toContain('The batch was empty, so nothing was created')
    expect(sandbox.requests()).toHaveLength(1)
    expect(sandbox.received()).toEqual({ skus: [], apps: [] })
  })

  it('never says the empty test batch may have created anything, whatever the service answers', async () => {
    const { handlers } = setup()
    sandbox.addFaults([
      { kind: 'bad-gateway', stage: 'before', endpoint: 'skus' },
      { kind: 'server-error', stage: 'before', endpoint: 'skus' },
      { kind: 'reset', stage: 'after', endpoint: 'skus' },
    ])
    const answers = [
      await handlers.testConnection('sandbox'),
      await handlers.testConnection('sandbox'),
      await handlers.testConnection('sandbox'),
    ]
    expect(answers.map(({ ok, kind, status }) => [ok, kind, status])).toEqual([
      [false, 'unknown', 502],
      [false, 'failed', 500],
      [false, 'unknown', undefined],
    ])
    for (const { message } of answers) {
      expect(message).toMatch(/The request carried no SKUs, so nothing was created\.$/)
      expect(message).not.toMatch(/may or may not|may have created/)
    }
  })

  it('says a token is missing without sending anything, and reads a refused token as such', async () => {
    const { handlers } = setup()
    await handlers.saveProfile(custom(sandbox.url))
    const missing = await handlers.testConnection('local')
    expect(missing).toMatchObject({ ok: false, kind: 'needs-token' })
    expect(sandbox.requests()).toHaveLength(0)

    await handlers.setToken('local', 'wrong-token')
    const refused = await handlers.testConnection('local')
    expect(refused).toMatchObject({ ok: false, kind: 'needs-token', status: 401 })
    expect(refused.message).not.toContain('wrong-token')

    await handlers.setToken('local', 'sandbox')
    expect(await handlers.testConnection('local')).toMatchObject({ ok: true })
  })

  it('tries the encoding asked for, this test only, and leaves the profile as it was', async () => {
    const rawOnly = await startSandbox({ port: 0, token: 'only-raw', tokenEncoding: 'raw' })
    try {
      const { handlers } = setup()
      await handlers.saveProfile({ ...custom(rawOnly.url), tokenEncoding: 'base64' })
      await handlers.setToken('local', 'only-raw')
      expect(await handlers.testConnection('local')).toMatchObject({ status: 401, encoding: 'base64' })
      expect(await handlers.testConnection('local', 'raw')).toMatchObject({ ok: true, encoding: 'raw' })
      expect(await handlers.testConnection('local', 'base64')).toMatchObject({ ok: false, status: 401 })
      const stored = (await handlers.listProfiles()).profiles.find((profile) => profile.id === 'local')
      expect(stored?.tokenEncoding).toBe('base64')
    } finally {
      await rawOnly.close()
    }
  })

  it('says when the address is wrong or nothing listens there', async () => {
    const { handlers } = setup()
    await handlers.saveProfile(custom(`${sandbox.url}/not-the-service`))
    await handlers.setToken('local', 'sandbox')
    expect(await handlers.testConnection('local')).toMatchObject({
      ok: false,
      kind: 'wrong-address',
      status: 404,
    })

    const closed = await startSandbox({ port: 0, token: 'sandbox' })
    const deadUrl = closed.url
    await closed.close()
    await handlers.saveProfile({ ...custom(deadUrl), id: 'dead', name: 'Dead' })
    await handlers.setToken('dead', 'sandbox')
    expect(await handlers.testConnection('dead')).toMatchObject({ ok: false, kind: 'unreachable' })
  })
})
