import { describe, expect, it } from 'vitest'
import type { FaultRule } from '#node/sandbox/options.ts'
import { bulkRequest, eventually, postApp, postSkus, sandboxFor } from './sandbox-client.ts'

const STATUS_FAULTS: [FaultRule['kind'], number][] = [
  ['rate-limit', 429],
  ['server-error', 500],
  ['bad-gateway', 502],
  ['unavailable', 503],
  ['gateway-timeout', 504],
  ['html-error', 502],
]

describe('sandbox faults that answer with a status', () => {
  describe.each(STATUS_FAULTS)('%s', (kind, status) => {
    it(`at stage before answers ${status} and stores nothing`, async () => {
      const sandbox = await sandboxFor({ faults: [{ kind }] })
      const response = await postSkus(sandbox)
      expect(response.status).toBe(status)
      await response.arrayBuffer()
      expect(sandbox.received().skus).toEqual([])
      expect(sandbox.requests()).toMatchObject([
        { method: 'POST', endpoint: 'skus', status, stored: false, fault: `${kind}:before` },
      ])
    })

    it(`at stage after stores the batch, then answers ${status}`, async () => {
      const sandbox = await sandboxFor({ faults: [{ kind, stage: 'after' }] })
      const response = await postSkus(sandbox)
      expect(response.status).toBe(status)
      await response.arrayBuffer()
      expect(sandbox.received().skus).toHaveLength(2)
      expect(sandbox.requests()).toMatchObject([
        { status, stored: true, skuCount: 2, fault: `${kind}:after` },
      ])
    })
  })

  it('JSON faults carry {message}; html-error is a text/html page', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'server-error' }, { kind: 'html-error' }] })
    const json = await postSkus(sandbox)
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await json.json()).toEqual({ message: expect.stringContaining('Internal server error') })
    const html = await postSkus(sandbox)
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await html.text()).toMatch(/^<!DOCTYPE html>[\s\S]*502 Bad Gateway/)
  })

  it('rate-limit sends Retry-After (1 unless told); unavailable only when told', async () => {
    const sandbox = await sandboxFor({
      faults: [
        { kind: 'rate-limit' },
        { kind: 'rate-limit', retryAfterSeconds: 7 },
        { kind: 'unavailable' },
        { kind: 'unavailable', retryAfterSeconds: 2 },
      ],
    })
    const retryAfter = async () => {
      const response = await postSkus(sandbox)
      await response.arrayBuffer()
      return [response.status, response.headers.get('retry-after')]
    }
    expect(await retryAfter()).toEqual([429, '1'])
    expect(await retryAfter()).toEqual([429, '7'])
    expect(await retryAfter()).toEqual([503, null])
    expect(await retryAfter()).toEqual([503, '2'])
    expect(await retryAfter()).toEqual([201, null])
  })
})

describe('sandbox reset', () => {
  it('before: drops the connection without reading, nothing stored', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset' }] })
    await expect(postSkus(sandbox)).rejects.toThrow()
    expect(sandbox.received().skus).toEqual([])
    expect(sandbox.requests()).toMatchObject([{ status: 'reset', stored: false, skuCount: null }])
  })

  it('after: stores the batch, then drops the connection', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    await expect(postSkus(sandbox)).rejects.toThrow()
    expect(sandbox.received().skus).toHaveLength(2)
    expect(sandbox.requests()).toMatchObject([{ status: 'reset', stored: true, skuCount: 2 }])
  })

  it('after, on a request that fails validation, still stores nothing', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    const body = bulkRequest()
    body.skus[0]!.isActive = 'yes'
    await expect(postSkus(sandbox, body)).rejects.toThrow()
    expect(sandbox.received().skus).toEqual([])
    expect(sandbox.requests()).toMatchObject([{ status: 'reset', stored: false }])
  })
})

describe('sandbox waits', () => {
  it('latency waits, then processes and answers normally', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'latency', delayMs: 200 }] })
    const started = Date.now()
    const response = await postSkus(sandbox)
    expect(response.status).toBe(201)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect(sandbox.received().skus).toHaveLength(2)
    expect(sandbox.requests()).toMatchObject([
      { status: 201, stored: true, fault: 'latency:before:delay=200' },
    ])
  })

  it('slow-response after: stores at once, answers 201 only after the delay', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', stage: 'after', delayMs: 400 }] })
    const started = Date.now()
    let answered = false
    const pending = postSkus(sandbox).then((response) => {
      answered = true
      return response
    })
    await eventually(() => sandbox.received().skus.length === 2)
    expect(answered).toBe(false)
    expect(sandbox.requests()).toMatchObject([{ status: 'pending', stored: true, skuCount: 2 }])
    const response = await pending
    expect(response.status).toBe(201)
    expect(Date.now() - started).toBeGreaterThanOrEqual(390)
    expect(sandbox.requests()).toMatchObject([{ status: 201, stored: true }])
  })

  it('slow-response before: a client that gives up leaves nothing stored', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', delayMs: 5_000 }] })
    await expect(postSkus(sandbox, bulkRequest(), { signal: AbortSignal.timeout(150) })).rejects.toThrow()
    await eventually(() => sandbox.requests()[0]?.status === 'abandoned')
    expect(sandbox.requests()).toMatchObject([{ status: 'abandoned', stored: false }])
    expect(sandbox.received().skus).toEqual([])
  })

  it('slow-response after: a client that gives up still leaves the batch stored', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', stage: 'after', delayMs: 5_000 }] })
    await expect(postSkus(sandbox, bulkRequest(), { signal: AbortSignal.timeout(300) })).rejects.toThrow()
    await eventually(() => sandbox.requests()[0]?.status === 'abandoned')
    expect(sandbox.requests()).toMatchObject([{ status: 'abandoned', stored: true }])
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('close() returns promptly while a slow response is pending', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'slow-response', delayMs: 60_000 }] })
    const pending = postSkus(sandbox)
    const outcome = pending.then(
      () => 'answered',
      () => 'failed',
    )
    await eventually(() => sandbox.requests()[0]?.status === 'pending')
    const started = Date.now()
    await sandbox.close()
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(await outcome).toBe('failed')
    expect(sandbox.requests()).toMatchObject([{ status: 'abandoned', stored: false }])
  })
})

describe('sandbox fault rules', () => {
  it('a rule applies `times` times (1 by default), then requests are normal', async () => {
    const sandbox = await sandboxFor({
      faults: [{ kind: 'server-error', times: 2 }, { kind: 'bad-gateway' }],
    })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await postSkus(sandbox)).status)
    expect(statuses).toEqual([500, 500, 502, 201])
    expect(sandbox.faults()).toEqual([])
  })

  it('times: null applies to every request until cleared', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'unavailable', times: null }] })
    for (let i = 0; i < 3; i++) expect((await postSkus(sandbox)).status).toBe(503)
    expect(sandbox.faults()).toEqual([{ rule: { kind: 'unavailable', times: null }, remaining: null }])
    sandbox.clearFaults()
    expect((await postSkus(sandbox)).status).toBe(201)
  })

  it('a rule for one endpoint leaves the other alone and waits for its own', async () => {
    const sandbox = await sandboxFor()
    sandbox.addFaults([{ kind: 'server-error', endpoint: 'apps' }])
    expect((await postSkus(sandbox)).status).toBe(201)
    expect((await postApp(sandbox)).status).toBe(500)
    expect((await postApp(sandbox)).status).toBe(201)
    expect(sandbox.requests().map((entry) => [entry.endpoint, entry.status, entry.fault])).toEqual([
      ['skus', 201, null],
      ['apps', 500, 'server-error:before (apps)'],
      ['apps', 201, null],
    ])
  })

  it('faults come before the token check: a request without a token still meets them', async () => {
    const sandbox = await sandboxFor({
      faults: [{ kind: 'rate-limit' }, { kind: 'server-error', stage: 'after' }],
    })
    const headers = { 'content-type': 'application/json' }
    expect((await postSkus(sandbox, bulkRequest(), { headers })).status).toBe(429)
    expect((await postSkus(sandbox, bulkRequest(), { headers })).status).toBe(500)
    expect((await postSkus(sandbox, bulkRequest(), { headers })).status).toBe(401)
    expect(sandbox.received().skus).toEqual([])
  })

  it('addFaults refuses an invalid rule and keeps the others', () => {
    return sandboxFor().then((sandbox) => {
      expect(() => sandbox.addFaults([{ kind: 'explode' } as unknown as FaultRule])).toThrow(/kind/)
      expect(() => sandbox.addFaults([{ kind: 'latency', delayMs: -1 }])).toThrow(/delayMs/)
      expect(sandbox.faults()).toEqual([])
    })
  })
})
