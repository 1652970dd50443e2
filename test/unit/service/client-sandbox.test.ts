import { describe, expect, it } from 'vitest'
import { CREATE_APP_PATH, BULK_UPLOAD_PATH } from '#shared/service/endpoints.ts'
import {
  TOKEN,
  appRequest,
  clientFor,
  closedPort,
  operationRequests,
  sandboxFor,
  skus,
} from './service-harness.ts'
import { eventually } from '../sandbox/sandbox-client.ts'

/** One test per row of the outcome table, against the real sandbox over loopback. */

describe('the service client against the sandbox', () => {
  it('201: created, and the sandbox received the SKUs as sent', async () => {
    const sandbox = await sandboxFor()
    const sent = skus()
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: sent })
    expect(outcome).toMatchObject({ kind: 'created', processed: 'yes', status: 201 })
    expect(outcome.message).toBe('The service accepted the request (HTTP 201).')
    expect(outcome.body).toMatchObject({ message: 'Created', count: 2 })
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0)
    expect(sandbox.received().skus.map((entry) => entry.sku)).toEqual(sent)
    expect(operationRequests(sandbox)).toMatchObject([{ path: BULK_UPLOAD_PATH, status: 201, stored: true }])
  })

  it('creates an app and returns what the service answered', async () => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(sandbox.url).send({ operation: 'create-app', argument: appRequest() })
    expect(outcome).toMatchObject({ kind: 'created', status: 201 })
    const app = (outcome.body as { app: { _id: string } }).app
    expect(app._id).toBe(sandbox.received().apps[0]!.id)
    expect(operationRequests(sandbox)).toMatchObject([{ path: CREATE_APP_PATH }])
  })

  it('an invalid item: rejected, with the service message and its problems; nothing stored', async () => {
    const sandbox = await sandboxFor()
    const sent = skus()
    sent[1]!.isActive = 'yes'
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: sent })
    expect(outcome).toMatchObject({
      kind: 'rejected',
      processed: 'no',
      status: 400,
      serviceMessage: '1 SKU of 2 is invalid; nothing was stored',
    })
    expect(outcome.problems).toContainEqual(expect.objectContaining({ path: 'skus.1.isActive' }))
    expect(outcome.message).toContain('“1 SKU of 2 is invalid; nothing was stored”')
    expect(sandbox.received().skus).toEqual([])
  })

  it('413: too-large when the batch exceeds what the service takes', async () => {
    const sandbox = await sandboxFor({ maxBatch: 1 })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'too-large', processed: 'no', status: 413 })
    expect(outcome.serviceMessage).toMatch(/at most 1/)
    expect(sandbox.received().skus).toEqual([])
  })

  it('429: retry-later, with the wait the service asked for', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'rate-limit', retryAfterSeconds: 2 }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'retry-later', processed: 'no', status: 429, retryAfterMs: 2_000 })
    expect(sandbox.received().skus).toEqual([])
  })

  it('503 with Retry-After: retry-later', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'unavailable', retryAfterSeconds: 1 }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'retry-later', status: 503, retryAfterMs: 1_000 })
  })

  it('connection refused: unreachable', async () => {
    const port = await closedPort()
    const outcome = await clientFor(`http://127.0.0.1:${port}`).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'unreachable', processed: 'no' })
    expect(outcome.status).toBeUndefined()
    expect(outcome.message).toBe(
      `Could not connect to 127.0.0.1:${port}: the connection was refused. Is the service running there? Nothing was created.`,
    )
  })

  it('TLS to a port that speaks plain HTTP: unreachable, and no request reached the service', async () => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(sandbox.url.replace('http:', 'https:')).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'unreachable', processed: 'no' })
    expect(outcome.message).toMatch(/secure connection to 127\.0\.0\.1:\d+ failed/)
    expect(operationRequests(sandbox)).toEqual([])
  })

  it('reset at stage "before": unknown, although the sandbox stored nothing', async () => {
    // The sandbox drops the connection once it has the request, before processing it. By then the
    // client has handed the whole body to the network, and nothing it can observe tells "dropped
    // before processing" from "dropped after" (the next test): from the client's side the service
    // may have acted, so the only honest outcome is unknown, and the person checks.
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'before' }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe' })
    expect(outcome.message).toBe(
      'The connection dropped after the request was sent (reset). The service may or may not have created the SKUs: check before sending again.',
    )
    expect(sandbox.received().skus).toEqual([])
  })

  it('reset after processing: unknown, while the sandbox did store the SKUs', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe' })
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('401 for a wrong token: needs-token', async () => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(sandbox.url, { getToken: async () => 'not-the-token' }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'needs-token', processed: 'no', status: 401 })
    expect(outcome.message).toMatch(/Set a valid token for this profile\.$/)
    expect(sandbox.received().skus).toEqual([])
  })

  it('404 for a base URL with a wrong path prefix: wrong-address', async () => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(`${sandbox.url}/api/`).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'wrong-address', processed: 'no', status: 404 })
    expect(outcome.message).toMatch(/base URL and the API version/)
  })

  it('500: failed (the service may have done part of the work)', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'server-error' }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'failed', processed: 'maybe', status: 500 })
    expect(outcome.serviceMessage).toBe('Internal server error (sandbox fault)')
  })

  it.each([
    ['bad-gateway', { kind: 'bad-gateway' } as const, 502],
    ['gateway-timeout', { kind: 'gateway-timeout' } as const, 504],
    ['unavailable without Retry-After', { kind: 'unavailable' } as const, 503],
    ['html-error', { kind: 'html-error' } as const, 502],
  ])('%s: unknown', async (_, rule, status) => {
    const sandbox = await sandboxFor({ faults: [rule] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe', status })
    expect(outcome.message).toMatch(/may or may not have created the SKUs: check before sending again\.$/)
  })

  it('an HTML error page is named, never quoted', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'html-error' }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome.message).toMatch(/^The service answered with an error page \(HTTP 502\)\./)
    expect(outcome.message).not.toMatch(/<|Bad Gateway|upstream/)
    expect(outcome.serviceMessage).toBeUndefined()
  })

  it('an answer slower than the response timeout (stored first): unknown, while the sandbox stored the SKUs', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', stage: 'after', delayMs: 5_000 }] })
    const started = performance.now()
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(performance.now() - started).toBeLessThan(4_000)
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe' })
    expect(outcome.message).toMatch(
      /^No answer came within 1\.5 s after the request was sent \(response timeout\)\./,
    )
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('an answer slower than the response timeout (not yet stored): unknown all the same', async () => {
    // Same client view as above; here the sandbox gives up when the client leaves, storing nothing.
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', stage: 'before', delayMs: 5_000 }] })
    const outcome = await clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome.kind).toBe('unknown')
    expect(sandbox.received().skus).toEqual([])
  })

  it('a base64 token is accepted by a sandbox that expects base64, and a raw one is not', async () => {
    const sandbox = await sandboxFor({ tokenEncoding: 'base64' })
    const base64 = await clientFor(sandbox.url, { tokenEncoding: 'base64' }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(base64.kind).toBe('created')
    const raw = await clientFor(sandbox.url, { tokenEncoding: 'raw' }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(raw).toMatchObject({ kind: 'needs-token', status: 401 })
  })

  it.each([
    ['no token', async () => undefined],
    ['an empty token', async () => ''],
  ])('%s: needs-token, and no request at all', async (_, getToken) => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(sandbox.url, { getToken }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'needs-token', processed: 'no', durationMs: 0 })
    expect(outcome.status).toBeUndefined()
    expect(outcome.message).toMatch(/Set a token for this profile/)
    expect(sandbox.requests()).toEqual([])
  })

  it('a raw token a header cannot carry: needs-token, and no request', async () => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(sandbox.url, { getToken: async () => `${TOKEN}\n` }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'needs-token', processed: 'no' })
    expect(sandbox.requests()).toEqual([])
  })

  it('a keychain that fails: needs-token, and no request', async () => {
    const sandbox = await sandboxFor()
    const getToken = async () => {
      throw new Error('The name org.freedesktop.secrets was not provided')
    }
    const outcome = await clientFor(sandbox.url, { getToken }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'needs-token', processed: 'no' })
    expect(outcome.message).toMatch(/could not be read/)
    expect(sandbox.requests()).toEqual([])
  })

  it('cancelled while waiting for the answer: unknown, since the body had left', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', stage: 'after', delayMs: 5_000 }] })
    const controller = new AbortController()
    const sending = clientFor(sandbox.url).send(
      { operation: 'bulk-upload', argument: skus() },
      { signal: controller.signal },
    )
    // Cancelled once the sandbox has stored the body and holds the answer back.
    await eventually(() => sandbox.requests()[0]?.stored === true)
    controller.abort()
    const outcome = await sending
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe' })
    expect(outcome.message).toMatch(/^Sending was cancelled after the request was sent\./)
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('cancelled before it started: unreachable, and no request', async () => {
    const sandbox = await sandboxFor()
    const outcome = await clientFor(sandbox.url).send(
      { operation: 'bulk-upload', argument: skus() },
      { signal: AbortSignal.abort() },
    )
    expect(outcome).toMatchObject({ kind: 'unreachable', processed: 'no' })
    expect(outcome.message).toMatch(/^Sending was cancelled before the request was completely sent\./)
    expect(sandbox.requests()).toEqual([])
  })

  it('a base URL that is not an address: wrong-address, and no request', async () => {
    const outcome = await clientFor('not a url').send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'wrong-address', processed: 'no' })
    expect(outcome.status).toBeUndefined()
  })
})
