import { describe, expect, it } from 'vitest'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH } from '#shared/service/endpoints.ts'
import { bulkRequest, JSON_HEADERS, post, postSkus, sandboxFor, TOKEN } from './sandbox-client.ts'

const base64 = (text: string) => Buffer.from(text).toString('base64')
const withAuth = (value: string) => ({ ...JSON_HEADERS, authorization: value })

const PLATFORM_ID = /^[0-9a-f]{24}$/

describe('sandbox bulk upload', () => {
  it('answers 201 {message, count, skus: [{_id, barcode}]} in the request’s order and stores each SKU with its id', async () => {
    const sandbox = await sandboxFor()
    const request = bulkRequest()
    const response = await postSkus(sandbox, request)
    expect(response.status).toBe(201)
    const body = (await response.json()) as { skus: { _id: string; barcode: string }[] }
    expect(body).toEqual({
      message: 'Created',
      count: 2,
      skus: request.skus.map((sku) => ({ _id: expect.stringMatching(PLATFORM_ID), barcode: sku.barcode })),
    })
    const { skus } = sandbox.received()
    expect(skus.map((entry) => entry.sku)).toEqual(request.skus)
    expect(skus.map((entry) => entry._id)).toEqual(body.skus.map((sku) => sku._id))
    expect(skus.map((entry) => entry.updates)).toEqual([[], []])
    expect(new Set(skus.map((entry) => entry.id)).size).toBe(2)
    expect(skus[0]!.batchId).toBe(skus[1]!.batchId)
    expect(Date.parse(skus[0]!.receivedAt)).not.toBeNaN()
  })

  it('gives every SKU an id of its own, across requests, even for the same SKUs sent again', async () => {
    const sandbox = await sandboxFor()
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const response = await postSkus(sandbox)
        return ((await response.json()) as { skus: { _id: string }[] }).skus.map((sku) => sku._id)
      }),
    )
    const ids = answers.flat()
    expect(ids).toHaveLength(10)
    expect(new Set(ids).size).toBe(10)
    // Each id is a path parameter the client can send as it is.
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,128}$/)
  })

  it('a SKU without a barcode is answered with its _id alone', async () => {
    const sandbox = await sandboxFor()
    const response = await postSkus(sandbox, { skus: [{ productName: 'Only a name' }] })
    expect(await response.json()).toEqual({
      message: 'Created',
      count: 1,
      skus: [{ _id: expect.stringMatching(PLATFORM_ID) }],
    })
  })

  it('answerIds false: the 201 is {message, count} alone, and the SKUs are still stored with their ids', async () => {
    const sandbox = await sandboxFor({ answerIds: false })
    const response = await postSkus(sandbox)
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ message: 'Created', count: 2 })
    expect(sandbox.received().skus.map((entry) => entry._id)).toEqual([
      expect.stringMatching(PLATFORM_ID),
      expect.stringMatching(PLATFORM_ID),
    ])
  })

  it('keeps fields the contract does not name', async () => {
    const sandbox = await sandboxFor()
    const request = bulkRequest()
    request.skus[0]!.collectionIds = ['c1']
    expect((await postSkus(sandbox, request)).status).toBe(201)
    expect(sandbox.received().skus[0]!.sku).toMatchObject({ collectionIds: ['c1'] })
  })

  it('rejects the whole batch when one item is invalid, with item-prefixed paths', async () => {
    const sandbox = await sandboxFor()
    const request = bulkRequest()
    ;(request.skus[1]!.arEffect as { envSettings: Record<string, unknown> }).envSettings.intensity = 'high'
    const response = await postSkus(sandbox, request)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      message: '1 SKU of 2 is invalid; nothing was stored',
      errors: [
        { path: 'skus.1.arEffect.envSettings.intensity', message: expect.stringContaining('Intensity') },
      ],
    })
    expect(sandbox.received().skus).toEqual([])
    expect(sandbox.requests()).toMatchObject([{ status: 400, stored: false, skuCount: 2 }])
  })

  it('warnings alone (missing fields) do not reject', async () => {
    const sandbox = await sandboxFor()
    const response = await postSkus(sandbox, { skus: [{ productName: 'Only a name' }] })
    expect(response.status).toBe(201)
  })

  it.each([
    [[1, 2], '', 'The body must be an object with a skus list'],
    [{ items: [] }, 'skus', 'skus must be a list of SKUs'],
    [{ skus: [] }, 'skus', 'The skus list is empty'],
    [{ skus: [null] }, 'skus.0', expect.any(String)],
  ])('%j is a 400 at path "%s"', async (body, path, message) => {
    const sandbox = await sandboxFor()
    const response = await postSkus(sandbox, body)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([{ path, message }])
  })

  it('malformed JSON is a 400 with the parser’s message at path ""', async () => {
    const sandbox = await sandboxFor()
    const response = await postSkus(sandbox, '{"skus": [')
    expect(response.status).toBe(400)
    const body = (await response.json()) as { message: string; errors: { path: string; message: string }[] }
    expect(body.message).toBe('The body is not valid JSON')
    expect(body.errors).toEqual([{ path: '', message: expect.stringMatching(/JSON/) }])
  })

  it('more SKUs than maxBatch is a 413 and nothing is stored', async () => {
    const sandbox = await sandboxFor({ maxBatch: 3 })
    const skus = bulkRequest().skus
    const response = await postSkus(sandbox, { skus: [...skus, ...skus] })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      message: 'The batch holds 4 SKUs; this sandbox accepts at most 3 a request',
    })
    expect((await postSkus(sandbox, { skus: [...skus, skus[0]] })).status).toBe(201)
    expect(sandbox.received().skus).toHaveLength(3)
  })

  it('a body above maxBodyBytes is a 413 without being parsed', async () => {
    const sandbox = await sandboxFor({ maxBodyBytes: 1_000 })
    const response = await postSkus(sandbox, bulkRequest())
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ message: 'The request body is larger than 1000 bytes' })
    expect(sandbox.requests()).toMatchObject([{ status: 413, skuCount: null }])
  })
})

describe('sandbox authentication and content type', () => {
  it.each([
    ['raw', `Bearer ${TOKEN}`, 201],
    ['raw', `bearer ${TOKEN}`, 201],
    ['raw', `Bearer ${base64(TOKEN)}`, 401],
    ['base64', `Bearer ${base64(TOKEN)}`, 201],
    ['base64', `Bearer ${TOKEN}`, 401],
    ['either', `Bearer ${TOKEN}`, 201],
    ['either', `Bearer ${base64(TOKEN)}`, 201],
    ['either', `Bearer ${TOKEN}x`, 401],
    ['either', TOKEN, 401],
    ['either', `Basic ${base64(`user:${TOKEN}`)}`, 401],
  ] as const)('tokenEncoding %s, Authorization "%s": %i', async (tokenEncoding, authorization, status) => {
    const sandbox = await sandboxFor({ tokenEncoding })
    const response = await postSkus(sandbox, bulkRequest(), { headers: withAuth(authorization) })
    expect(response.status).toBe(status)
  })

  it('401 says what is expected, never echoes the token, and stores nothing', async () => {
    const sandbox = await sandboxFor({ tokenEncoding: 'base64' })
    const missing = await postSkus(sandbox, bulkRequest(), {
      headers: { 'content-type': 'application/json' },
    })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer')
    expect(await missing.json()).toEqual({
      message: 'Send the header Authorization: Bearer <token>; this sandbox accepts the token base64-encoded',
    })
    const wrong = await postSkus(sandbox, bulkRequest(), { headers: withAuth('Bearer not-the-token') })
    const text = await wrong.text()
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(base64(TOKEN))
    expect(text).not.toContain('not-the-token')
    expect(sandbox.received().skus).toEqual([])
  })

  it.each([
    [undefined, 415],
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
    ['application/json; charset=latin1', 415],
    ['application/json', 201],
    ['application/json; charset=utf-8', 201],
    ['Application/JSON;charset=UTF-8', 201],
  ])('Content-Type %s: %i', async (contentType, status) => {
    const sandbox = await sandboxFor()
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }
    if (contentType) headers['content-type'] = contentType
    const response = await postSkus(sandbox, bulkRequest(), { headers })
    expect(response.status).toBe(status)
    if (status === 415)
      expect(await response.json()).toEqual({ message: expect.stringMatching(/application\/json/) })
  })
})

describe('sandbox routing', () => {
  it('other paths answer 404 {message} and are logged', async () => {
    const sandbox = await sandboxFor()
    for (const path of ['/', '/service/platform/misc/v1.0/skus/bulk-upload', `${BULK_UPLOAD_PATH}/`]) {
      const response = await post(sandbox, path, {})
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ message: expect.stringContaining(path) })
    }
    expect(sandbox.requests().map((entry) => [entry.status, entry.endpoint])).toEqual([
      [404, null],
      [404, null],
      [404, null],
    ])
  })

  it('GET on an operation path is a 405 with Allow: POST', async () => {
    const sandbox = await sandboxFor()
    const response = await fetch(sandbox.url + CREATE_APP_PATH)
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
    expect(await response.json()).toEqual({ message: expect.any(String) })
  })

  it('a query string does not change the operation', async () => {
    const sandbox = await sandboxFor()
    expect((await post(sandbox, `${BULK_UPLOAD_PATH}?dryRun=1`, bulkRequest())).status).toBe(201)
  })

  it('listens on 127.0.0.1 only', async () => {
    const sandbox = await sandboxFor()
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`)
  })

  it('a taken port stops the start, unless a free one may stand in', async () => {
    const first = await sandboxFor()
    await expect(sandboxFor({ port: first.port })).rejects.toThrow(/EADDRINUSE/)
    const second = await sandboxFor({ port: first.port, unavailablePort: 'free-port' })
    expect(second.port).not.toBe(first.port)
    expect(second.url).toBe(`http://127.0.0.1:${second.port}`)
    // It answers on the port it got, and checks requests are addressed to that one.
    expect((await postSkus(second)).status).toBe(201)
  })

  it('refuses options it cannot honour', async () => {
    await expect(sandboxFor({ token: '' })).rejects.toThrow(/token/)
    await expect(sandboxFor({ maxBatch: 0 })).rejects.toThrow(/maxBatch/)
    await expect(sandboxFor({ port: 70_000 })).rejects.toThrow(/port/)
    await expect(sandboxFor({ faults: [{ kind: 'reset', times: 0 }] })).rejects.toThrow(/times/)
  })
})
