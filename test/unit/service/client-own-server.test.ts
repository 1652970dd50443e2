import { describe, expect, it } from 'vitest'
import { BULK_UPLOAD_PATH } from '#shared/service/endpoints.ts'
import { TOKEN, TOKEN_BASE64, clientFor, skus, tinyServer } from './service-harness.ts'

/** What the sandbox does not do: huge answers, redirects, broken bodies; and what the client sends. */

const FIVE_MB = 5 * 1024 * 1024

describe('the service client against a server of our own', () => {
  it('sends one POST of {skus} as JSON, with the bearer token, to the bulk path under the base URL', async () => {
    const server = await tinyServer((_, response) => response.writeHead(201).end())
    await clientFor(`${server.url}/prefix/`, { userAgent: 'catalog-desk/9.9 (test)' }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(server.requests).toHaveLength(1)
    const [request] = server.requests
    expect(request).toMatchObject({ method: 'POST', url: `/prefix${BULK_UPLOAD_PATH}` })
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${TOKEN}`,
      'user-agent': 'catalog-desk/9.9 (test)',
    })
    expect(JSON.parse(request!.body)).toEqual({ skus: skus() })
  })

  it('sends the token base64-encoded when the profile says so', async () => {
    const server = await tinyServer((_, response) => response.writeHead(201).end())
    await clientFor(server.url, { tokenEncoding: 'base64' }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN_BASE64}`)
  })

  it.each([
    ['with a Content-Length', true],
    ['chunked', false],
  ])('a 201 of 5 MB (%s) is still created, its body not parsed', async (_, declared) => {
    const server = await tinyServer((_, response) => {
      const chunk = Buffer.alloc(64 * 1024, 'a')
      response.writeHead(201, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(FIVE_MB) } : {}),
      })
      let sent = 0
      const write = () => {
        while (sent < FIVE_MB && !response.destroyed) {
          sent += chunk.length
          if (!response.write(chunk)) return response.once('drain', write)
        }
        response.end()
      }
      response.on('error', () => {})
      write()
    })
    const outcome = await clientFor(server.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'created', processed: 'yes', status: 201 })
    expect(outcome.body).toBeUndefined()
    expect(outcome.message).toBe(
      'The service accepted the request (HTTP 201). Its answer was larger than 1 MB and was not read.',
    )
  })

  it('honours a smaller response limit', async () => {
    const server = await tinyServer((_, response) =>
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ pad: 'x'.repeat(500) })),
    )
    const outcome = await clientFor(server.url, { maxResponseBytes: 100 }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome.kind).toBe('created')
    expect(outcome.body).toBeUndefined()
    expect(outcome.message).toMatch(/larger than 100 bytes/)
  })

  it('a 4xx answer beyond the limit is classified by its status, without its message', async () => {
    const server = await tinyServer((_, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'x'.repeat(2_000) })),
    )
    const outcome = await clientFor(server.url, { maxResponseBytes: 1_000 }).send({
      operation: 'bulk-upload',
      argument: skus(),
    })
    expect(outcome).toMatchObject({ kind: 'rejected', status: 400 })
    expect(outcome.serviceMessage).toBeUndefined()
  })

  it('does not follow a redirect: wrong-address, and the other address never sees the request', async () => {
    const elsewhere = await tinyServer((_, response) => response.writeHead(201).end())
    const server = await tinyServer((_, response) =>
      response.writeHead(307, { location: `${elsewhere.url}${BULK_UPLOAD_PATH}` }).end(),
    )
    const outcome = await clientFor(server.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome).toMatchObject({ kind: 'wrong-address', processed: 'no', status: 307 })
    expect(outcome.message).toContain(`HTTP 307 to ${elsewhere.url}${BULK_UPLOAD_PATH}`)
    expect(elsewhere.requests).toEqual([])
  })

  it('a 201 whose body breaks off is still created', async () => {
    const server = await tinyServer((_, response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'content-length': '1000' })
      response.write('{"app": {"_id": "')
      setTimeout(() => response.socket?.destroy(), 20)
    })
    const outcome = await clientFor(server.url).send({ operation: 'create-app', argument: {} })
    expect(outcome).toMatchObject({ kind: 'created', status: 201 })
    expect(outcome.body).toBeUndefined()
    expect(outcome.message).toMatch(/could not be read/)
  })

  it('a 201 with a body that is not JSON is created', async () => {
    const server = await tinyServer((_, response) =>
      response.writeHead(201, { 'content-type': 'application/json' }).end('OK, created'),
    )
    const outcome = await clientFor(server.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome.kind).toBe('created')
    expect(outcome.body).toBeUndefined()
  })

  it('a payload that cannot be written as JSON is rejected before anything is sent', async () => {
    const server = await tinyServer((_, response) => response.writeHead(201).end())
    const outcome = await clientFor(server.url).send({ operation: 'bulk-upload', argument: [{ count: 1n }] })
    expect(outcome).toMatchObject({ kind: 'rejected', processed: 'no' })
    expect(outcome.status).toBeUndefined()
    expect(server.requests).toEqual([])
  })
})
