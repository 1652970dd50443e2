import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { Sandbox } from '#node/sandbox/server.ts'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH } from '#shared/service/endpoints.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { bulkRequest, JSON_HEADERS, postApp, postSkus, sandboxFor } from './sandbox-client.ts'

const control = (sandbox: Sandbox, name: string, init: RequestInit = {}) =>
  fetch(`${sandbox.url}/__sandbox/${name}`, init)

const postRules = (sandbox: Sandbox, rules: unknown) =>
  control(sandbox, 'faults', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rules),
  })

/** fetch will not send a Host of our choosing, so this one goes through node:http. */
function getWithHost(sandbox: Sandbox, path: string, host: string, post?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = post === undefined ? { host } : { ...JSON_HEADERS, host }
    const sent = request(
      `${sandbox.url}${path}`,
      { headers, method: post === undefined ? 'GET' : 'POST' },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    sent.on('error', reject)
    sent.end(post === undefined ? undefined : JSON.stringify(post))
  })
}

describe('sandbox control endpoints (no token)', () => {
  it('GET received lists what was stored; DELETE forgets it', async () => {
    const sandbox = await sandboxFor()
    await postSkus(sandbox)
    await postApp(sandbox)
    const listed = await control(sandbox, 'received')
    expect(listed.status).toBe(200)
    expect(await listed.json()).toEqual(sandbox.received())
    expect(sandbox.received().skus).toHaveLength(2)
    expect(sandbox.received().apps).toHaveLength(1)

    expect((await control(sandbox, 'received', { method: 'DELETE' })).status).toBe(204)
    expect(sandbox.received()).toEqual({ skus: [], apps: [] })
  })

  it('GET requests is the request log; control requests are not in it', async () => {
    const sandbox = await sandboxFor()
    await postSkus(sandbox)
    await control(sandbox, 'received')
    const body = (await (await control(sandbox, 'requests')).json()) as { requests: unknown[] }
    expect(body.requests).toEqual(sandbox.requests())
    expect(body.requests).toEqual([
      {
        at: expect.any(String),
        method: 'POST',
        path: '/service/platform/misc/v2.0/skus/bulk-upload',
        endpoint: 'skus',
        status: 201,
        stored: true,
        skuCount: 2,
        fault: null,
      },
    ])
  })

  it('POST faults adds rules (a list or one rule), GET lists them, DELETE clears them', async () => {
    const sandbox = await sandboxFor()
    const added = await postRules(sandbox, [{ kind: 'server-error', times: 2 }])
    expect(added.status).toBe(200)
    expect(await added.json()).toEqual({
      faults: [{ rule: { kind: 'server-error', times: 2 }, remaining: 2 }],
    })
    await postRules(sandbox, { kind: 'reset', endpoint: 'apps' })
    expect((await postSkus(sandbox)).status).toBe(500)
    expect(await (await control(sandbox, 'faults')).json()).toEqual({
      faults: [
        { rule: { kind: 'server-error', times: 2 }, remaining: 1 },
        { rule: { kind: 'reset', endpoint: 'apps' }, remaining: 1 },
      ],
    })
    expect((await control(sandbox, 'faults', { method: 'DELETE' })).status).toBe(204)
    expect(sandbox.faults()).toEqual([])
    expect((await postSkus(sandbox)).status).toBe(201)
  })

  it('POST faults refuses invalid rules with 400 {message, errors} and adds none of them', async () => {
    const sandbox = await sandboxFor()
    const response = await postRules(sandbox, [
      { kind: 'rate-limit' },
      { kind: 'meteor' },
      { kind: 'latency', delayMs: 'x' },
    ])
    expect(response.status).toBe(400)
    const body = (await response.json()) as { message: string; errors: { path: string }[] }
    expect(body.message).toBe('The fault rules are invalid')
    expect(body.errors.map((error) => error.path)).toEqual(['1.kind', '2.delayMs'])
    expect(sandbox.faults()).toEqual([])
  })

  it('POST faults needs a JSON content type and valid JSON', async () => {
    const sandbox = await sandboxFor()
    const form = await control(sandbox, 'faults', { method: 'POST', body: '[{"kind":"reset"}]' })
    expect(form.status).toBe(415)
    const broken = await control(sandbox, 'faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[{',
    })
    expect(broken.status).toBe(400)
    expect(sandbox.faults()).toEqual([])
  })

  it('GET settings shows answerIds; POST settings changes it while the sandbox runs, for the next bulk upload', async () => {
    const sandbox = await sandboxFor()
    expect(await (await control(sandbox, 'settings')).json()).toEqual({ settings: { answerIds: true } })
    const changed = await control(sandbox, 'settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answerIds: false }),
    })
    expect(changed.status).toBe(200)
    expect(await changed.json()).toEqual({ settings: { answerIds: false } })
    expect(sandbox.settings()).toEqual({ answerIds: false })
    expect(await (await postSkus(sandbox)).json()).toEqual({ message: 'Created', count: 2 })

    sandbox.changeSettings({ answerIds: true })
    expect(await (await postSkus(sandbox)).json()).toMatchObject({ skus: [{ _id: expect.any(String) }, {}] })
  })

  it.each([
    [{ answerIds: 'no' }, 'answerIds'],
    [{ answerIDs: false }, ''],
  ])('POST settings refuses %j with 400 naming the field, and changes nothing', async (change, path) => {
    const sandbox = await sandboxFor({ answerIds: false })
    const response = await control(sandbox, 'settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(change),
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { message: string; errors: { path: string; message: string }[] }
    expect(body.message).toBe('The settings are invalid')
    expect(body.errors).toEqual([{ path, message: expect.any(String) }])
    if (path === '') expect(body.errors[0]!.message).toContain('answerIDs')
    expect(sandbox.settings()).toEqual({ answerIds: false })
    const form = await control(sandbox, 'settings', { method: 'POST', body: '{"answerIds":true}' })
    expect(form.status).toBe(415)
    expect(sandbox.settings()).toEqual({ answerIds: false })
  })

  it('unknown control endpoints are 404, wrong methods 405', async () => {
    const sandbox = await sandboxFor()
    expect((await control(sandbox, 'secrets')).status).toBe(404)
    const wrong = await control(sandbox, 'requests', { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET')
  })

  it('answers only requests addressed to the loopback name (no DNS rebinding)', async () => {
    const sandbox = await sandboxFor()
    expect(await getWithHost(sandbox, '/__sandbox/received', `127.0.0.1:${sandbox.port}`)).toBe(200)
    expect(await getWithHost(sandbox, '/__sandbox/received', `localhost:${sandbox.port}`)).toBe(200)
    expect(await getWithHost(sandbox, '/__sandbox/received', `evil.example:${sandbox.port}`)).toBe(403)
  })

  it('refuses operations addressed to another name too: a rebinding page cannot write with the public token', async () => {
    const sandbox = await sandboxFor()
    const evil = `evil.example:${sandbox.port}`
    expect(await getWithHost(sandbox, BULK_UPLOAD_PATH, evil, bulkRequest())).toBe(403)
    expect(await getWithHost(sandbox, CREATE_APP_PATH, evil, fixture('app-create-request.json'))).toBe(403)
    expect(await getWithHost(sandbox, '/anything-else', evil)).toBe(403)
    expect(sandbox.received()).toEqual({ skus: [], apps: [] })
    expect(await getWithHost(sandbox, BULK_UPLOAD_PATH, `127.0.0.1:${sandbox.port}`, bulkRequest())).toBe(201)
  })
})
