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
import { ANSWERS_KEPT, SentRequestAnswers } from '#main/handlers/sync-answers.ts'
import type { Outcome } from '#shared/service/outcome.ts'

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

/** The engine's id of each request, unique in the test. */
let requests = 0
const requestId = () => `run-1/engine/${++requests}`

const skus = (...barcodes: string[]) => barcodes.map((barcode) => ({ ...structuredClone(full), barcode }))

describe('sync transport channels', () => {
  it('sends a batch with the embedded sandbox profile and returns the classified outcome', async () => {
    const { dispatch } = setup()
    const outcome = await dispatch('syncSend', [
      'sandbox',
      SANDBOX,
      { operation: 'bulk-upload', argument: skus('111', '222') },
      requestId(),
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
      await dispatch('syncSend', [
        'sandbox',
        sandbox.url,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
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
      await dispatch('syncSend', [
        'local',
        sandbox.url,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
    ).toMatchObject({
      kind: 'wrong-address',
    })
    // Pointed elsewhere, a run started for the embedded sandbox is refused, and named so.
    await dispatch('saveProfile', [local(service.url)])
    expect(
      await dispatch('syncSend', [
        'local',
        SANDBOX,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
    ).toMatchObject({
      kind: 'wrong-address',
      message: expect.stringMatching(
        /^This run was started for the embedded sandbox; the profile now points at/,
      ),
    })
    await dispatch('saveProfile', [local(sandbox.url)])
    await deps.tokens.set('local', sandbox.url, 'sandbox')
    expect(
      await dispatch('syncSend', [
        'local',
        SANDBOX,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
    ).toMatchObject({ kind: 'created' })
    expect(sandbox.received().skus).toHaveLength(1)
  })

  it('uses the named profile’s token from the keychain, which never comes back', async () => {
    const { dispatch, deps } = setup()
    await dispatch('saveProfile', [local(service.url)])
    // No token: nothing is sent, the run is told a token is needed.
    expect(
      await dispatch('syncSend', [
        'local',
        service.url,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
    ).toMatchObject({
      kind: 'needs-token',
    })
    expect(service.requests()).toHaveLength(0)

    await deps.tokens.set('local', service.url, 'wrong-secret-token')
    const refused = await dispatch('syncSend', [
      'local',
      service.url,
      { operation: 'bulk-upload', argument: skus('1') },
      requestId(),
    ])
    expect(refused).toMatchObject({ kind: 'needs-token', status: 401 })
    expect(JSON.stringify(refused)).not.toContain('wrong-secret-token')

    await deps.tokens.set('local', service.url, 'service')
    expect(
      await dispatch('syncSend', [
        'local',
        service.url,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
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
      await dispatch('syncSend', [
        'local',
        first,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
    ).toMatchObject({
      kind: 'unreachable',
    })
    // The profile now points at another address: a run started for the old one sends nothing there.
    await dispatch('saveProfile', [local(service.url)])
    await dispatch('setToken', ['local', 'service'])
    expect(
      await dispatch('syncSend', [
        'local',
        first,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
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
      await dispatch('syncSend', [
        'local',
        service.url,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
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
      requestId(),
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
      requestId(),
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
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'bulk-upload', argument: 'not a list' },
        requestId(),
      ]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', ['', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }, requestId()]),
    ).rejects.toThrow(/argument 1/)
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'bulk-upload', argument: [] }, requestId()]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'bulk-upload', argument: ['not an object'] },
        requestId(),
      ]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'bulk-upload', argument: Array.from({ length: 1_001 }, () => ({})) },
        requestId(),
      ]),
    ).rejects.toThrow(/argument 3/)
    await expect(
      dispatch('syncSend', ['sandbox', '', { operation: 'bulk-upload', argument: skus('1') }, requestId()]),
    ).rejects.toThrow(/argument 2/)
    // A request id that is no engine's is refused, and so is an extra argument: the tuple has four places.
    await expect(
      dispatch('syncSend', ['sandbox', SANDBOX, { operation: 'bulk-upload', argument: skus('1') }, 'a b']),
    ).rejects.toThrow(/argument 4/)
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'bulk-upload', argument: skus('1') },
        'r1',
        'r2',
      ]),
    ).rejects.toThrow(/invalid arguments/)
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'create-app', argument: ['not', 'an', 'object'] },
        requestId(),
      ]),
    ).rejects.toThrow(/argument 3/)
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('sends only the operations of the table, built by main: the page names one, never a path or a method', async () => {
    const { dispatch } = setup()
    // An operation the table does not hold, or a request that carries anything but a key and an argument.
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'delete-everything', argument: skus('1') },
        requestId(),
      ]),
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
          requestId(),
        ]),
      ).rejects.toThrow(/argument 3/)
    }
    // One operation's argument is not taken for another's.
    await expect(
      dispatch('syncSend', [
        'sandbox',
        SANDBOX,
        { operation: 'create-app', argument: skus('1') },
        requestId(),
      ]),
    ).rejects.toThrow(/argument 3/)
    expect(sandbox.requests()).toHaveLength(0)
  })

  it('a profile that no longer exists answers "not sent", never a failure the engine would read as unknown', async () => {
    const { dispatch } = setup()
    expect(
      await dispatch('syncSend', [
        'nope',
        SANDBOX,
        { operation: 'bulk-upload', argument: skus('1') },
        requestId(),
      ]),
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

  it('says what came of a request to a page that was gone before its answer: still out, then its outcome', async () => {
    const { dispatch, deps } = setup()
    // The service takes its time: the request is out when the next page asks.
    sandbox.addFaults([{ kind: 'latency', delayMs: 300 }])
    const id = requestId()
    const sent = dispatch('syncSend', [
      'sandbox',
      SANDBOX,
      { operation: 'bulk-upload', argument: skus('7') },
      id,
    ])
    expect(await dispatch('syncAnswers', [[id, 'run-1/gone/1'], false])).toEqual({ [id]: 'sending' })
    // The next page reports no run, yet no update installs while main's request is out.
    deps.updates.setActivity({ sync: false, import: false })
    expect(deps.updates.status().busy).toBe(true)
    await expect(dispatch('installUpdate', [])).rejects.toThrow('A sync run is under way')
    // Asked to wait, main answers once the request has ended: with the outcome the page would have had.
    const answers = (await dispatch('syncAnswers', [[id], true])) as Record<string, Outcome>
    expect(answers[id]).toMatchObject({ kind: 'created', processed: 'yes' })
    expect(answers[id]).toEqual(await sent)
    expect(deps.updates.status().busy).toBe(false)
    expect(sandbox.received().skus).toHaveLength(1)
    // A request main never sent (before it last started, say) is not named: the page's unknown stands.
    expect(await dispatch('syncAnswers', [['run-1/gone/1'], true])).toEqual({})
    await expect(dispatch('syncAnswers', [['not an id'], false])).rejects.toThrow(/argument 1/)
  })

  it('keeps the last answers only', async () => {
    const answers = new SentRequestAnswers()
    const outcome: Outcome = { kind: 'created', processed: 'yes', message: 'Created.', durationMs: 1 }
    for (let i = 0; i <= ANSWERS_KEPT; i++) answers.remember(`r/${i}`, Promise.resolve(outcome))
    const all = Array.from({ length: ANSWERS_KEPT + 1 }, (_, i) => `r/${i}`)
    const known = await answers.answers(all, true)
    expect(Object.keys(known)).toHaveLength(ANSWERS_KEPT)
    expect(known['r/0']).toBeUndefined()
    expect(known[`r/${ANSWERS_KEPT}`]).toEqual(outcome)
  })
})
