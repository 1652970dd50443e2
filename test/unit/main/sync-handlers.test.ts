import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import { createHandlers } from '#main/handlers/index.ts'
import type { HandlerDeps } from '#main/handlers/types.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { DEFAULT_SENDING, type Profile } from '#shared/profile.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import appRequest from '../../fixtures/app-create-request.json'
import { serviceDeps } from './service-deps.ts'

// The sync transport channels, through the real dispatcher, against real sandboxes on loopback:
// `sandbox` is the app's embedded one, `service` another one standing for a service at an address.
let sandbox: Sandbox
let service: Sandbox

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, token: 'sandbox', tokenEncoding: 'either' })
  service = await startSandbox({ port: 0, token: 'service', tokenEncoding: 'either' })
})

afterEach(async () => {
  await sandbox.close()
  await service.close()
})

const SANDBOX = EMBEDDED_SANDBOX_DESTINATION

function setup() {
  const deps = {
    ...serviceDeps({ url: sandbox.url, token: 'sandbox' }),
    appInfo: () => ({ name: 'Catalog Desk', version: '0', versions: { node: '22' }, platform: 'linux' }),
    openExternal: async () => {},
  } satisfies HandlerDeps
  const handlers = createHandlers(deps)
  return { deps, handlers, dispatch: createDispatcher(handlers) }
}

const local = (baseUrl: string): Profile => ({
  ...DEFAULT_SENDING,
  timeouts: { ...DEFAULT_SENDING.timeouts },
  id: 'local',
  name: 'Local',
  kind: 'service',
  baseUrl,
})

const skus = (...barcodes: string[]) => barcodes.map((barcode) => ({ ...structuredClone(full), barcode }))

describe('sync transport channels', () => {
  it('sends a batch with the embedded sandbox profile and returns the classified outcome', async () => {
    const { dispatch } = setup()
    const outcome = await dispatch('syncSend', [
      'sandbox',
      SANDBOX,
      { operation: 'bulk-upload', argument: skus('111', '222') },
    ])
    expect(outcome).toMatchObject({ kind: 'created', processed: 'yes', status: 201 })
    expect(sandbox.received().skus.map((entry) => (entry.sku as { barcode: string }).barcode)).toEqual([
      '111',
      '222',
    ])
  })

  it('the Sandbox profile’s destination is the embedded sandbox, not its port of the day', async () => {
    const { dispatch } = setup()
    expect(
      await dispatch('syncSend', ['sandbox', sandbox.url, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'wrong-address',
      processed: 'no',
      message: expect.stringMatching(/Nothing was sent\.$/),
    })
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('a profile pointed at the embedded sandbox’s address sends there as the embedded sandbox', async () => {
    const { dispatch, deps } = setup()
    await dispatch('saveProfile', [local(sandbox.url)])
    await deps.tokens.set('local', sandbox.url, 'sandbox')
    expect(
      await dispatch('syncSend', ['local', sandbox.url, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'wrong-address',
    })
    // Pointed elsewhere, a run started for the embedded sandbox is refused, and named so.
    await dispatch('saveProfile', [local(service.url)])
    expect(
      await dispatch('syncSend', ['local', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'wrong-address',
      message: expect.stringMatching(
        /^This run was started for the embedded sandbox; the profile now points at/,
      ),
    })
    await dispatch('saveProfile', [local(sandbox.url)])
    await deps.tokens.set('local', sandbox.url, 'sandbox')
    expect(
      await dispatch('syncSend', ['local', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({ kind: 'created' })
    expect(sandbox.received().skus).toHaveLength(1)
  })

  it('uses the named profile’s token from the keychain, which never comes back', async () => {
    const { dispatch, deps } = setup()
    await dispatch('saveProfile', [local(service.url)])
    // No token: nothing is sent, the run is told a token is needed.
    expect(
      await dispatch('syncSend', ['local', service.url, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'needs-token',
    })
    expect(service.requests()).toHaveLength(0)

    await deps.tokens.set('local', service.url, 'wrong-secret-token')
    const refused = await dispatch('syncSend', [
      'local',
      service.url,
      { operation: 'bulk-upload', argument: skus('1') },
    ])
    expect(refused).toMatchObject({ kind: 'needs-token', status: 401 })
    expect(JSON.stringify(refused)).not.toContain('wrong-secret-token')

    await deps.tokens.set('local', service.url, 'service')
    expect(
      await dispatch('syncSend', ['local', service.url, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'created',
    })
    expect(service.received().skus).toHaveLength(1)
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('follows a profile edited between batches, but never takes a run to another destination', async () => {
    const { dispatch } = setup()
    await dispatch('saveProfile', [local('http://127.0.0.1:9')])
    await dispatch('setToken', ['local', 'service'])
    const first = 'http://127.0.0.1:9'
    expect(
      await dispatch('syncSend', ['local', first, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'unreachable',
    })
    // The profile now points at another address: a run started for the old one sends nothing there.
    await dispatch('saveProfile', [local(service.url)])
    await dispatch('setToken', ['local', 'service'])
    expect(
      await dispatch('syncSend', ['local', first, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'wrong-address',
      processed: 'no',
      message: expect.stringMatching(/started for http:\/\/127\.0\.0\.1:9; the profile now points at/),
    })
    expect(service.requests()).toHaveLength(0)
    // The same address with a trailing slash is the same destination: a run started for it is sent,
    // with the same client and token.
    await dispatch('saveProfile', [local(`${service.url}/`)])
    expect(
      await dispatch('syncSend', ['local', service.url, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'created',
    })
    expect(service.received().skus).toHaveLength(1)
  })

  it('reports a server error after processing as failed, without resending', async () => {
    const { dispatch } = setup()
    sandbox.addFaults([{ kind: 'server-error', stage: 'after' }])
    const outcome = await dispatch('syncSend', [
      'sandbox',
      SANDBOX,
      { operation: 'bulk-upload', argument: skus('1') },
    ])
    expect(outcome).toMatchObject({ kind: 'failed', processed: 'maybe', status: 500 })
    expect(sandbox.requests().filter((r) => r.endpoint === 'skus')).toHaveLength(1)
    expect(sandbox.received().skus).toHaveLength(1)
  })

  it('creates an app and returns the service’s answer', async () => {
    const { dispatch } = setup()
    const outcome = (await dispatch('syncSend', [
      'sandbox',
      SANDBOX,
      { operation: 'create-app', argument: structuredClone(appRequest) },
    ])) as {
      kind: string
      body: { app: { _id: string } }
    }
    expect(outcome.kind).toBe('created')
    expect(outcome.body.app._id).toBe(sandbox.received().apps[0]!.id)
  })

  it('validates the arguments before anything is sent', async () => {
    const { dispatch } = setup()
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'bulk-upload', argument: 'not a list' }]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', ['', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }]),
    ).rejects.toThrow(/argument 1/)
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'bulk-upload', argument: [] }]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'bulk-upload', argument: ['not an object'] }]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'bulk-upload', argument: Array.from({ length: 1_001 }, () => ({})) },
      ]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', ['sandbox', '', { operation: 'bulk-upload', argument: skus('1') }]),
    ).rejects.toThrow(/argument 2/)
    // An extra argument is refused: the tuple has exactly three places.
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }, 'r1']),
    ).rejects.toThrow(/invalid arguments/)
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'create-app', argument: ['not', 'an', 'object'] },
      ]),
    ).rejects.toThrow(/argument 3/)
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('sends only the operations of the table, built by main: the page names one, never a path or a method', async () => {
    const { dispatch } = setup()
    // An operation the table does not hold, or a request that carries anything but a key and an argument.
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'delete-everything', argument: skus('1') }]),
    ).rejects.toThrow(/argument 3/)
    for (const extra of [
      { path: '/service/platform/misc/v1.0/apps' },
      { method: 'DELETE' },
      { url: 'http://127.0.0.1:1/' },
      { headers: { authorization: 'Bearer x' } },
    ]) {
      await expect(
        dispatch('syncSend', [
          'sandbox',
          SANDBOX,
          { operation: 'bulk-upload', argument: skus('1'), ...extra },
        ]),
      ).rejects.toThrow(/argument 3/)
    }
    // One operation's argument is not taken for another's.
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'create-app', argument: skus('1') }]),
    ).rejects.toThrow(/argument 3/)
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('a profile that no longer exists answers "not sent", never a failure the engine would read as unknown', async () => {
    const { dispatch } = setup()
    expect(
      await dispatch('syncSend', ['nope', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }]),
    ).toMatchObject({
      kind: 'wrong-address',
      processed: 'no',
      message: expect.stringMatching(
        /which no longer exists\. Cancel it and start a new sync\. Nothing was sent\.$/,
      ),
    })
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('has no abort channel: a request once sent is let finish, so its outcome is known', async () => {
    const { dispatch, handlers } = setup()
    expect(Object.keys(handlers)).not.toContain('abortSyncRequest')
    await expect(dispatch('abortSyncRequest', ['r1'])).rejects.toThrow(/unknown channel/)
  })
})
