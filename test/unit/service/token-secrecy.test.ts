import { describe, expect, it } from 'vitest'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TokenEncoding } from '#shared/profile.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import { TOKEN, TOKEN_BASE64, TEST_TIMEOUTS, clientFor, skus, tinyServer } from './service-harness.ts'

/**
 * The token never leaves the client in text, even when the far end echoes the Authorization header
 * in its error bodies, its headers and its HTML pages, as misconfigured proxies and debug servers do.
 */

const FORMS = [TOKEN, TOKEN_BASE64, TOKEN_BASE64.replace(/=+$/, ''), encodeURIComponent(TOKEN)]

function expectNoToken(outcome: Outcome) {
  const text = JSON.stringify(outcome)
  for (const form of FORMS) expect(text).not.toContain(form)
}

/** Answers with `status`, echoing every header it got in the body (and in Location for a redirect). */
function echo(status: number, html = false) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const auth = request.headers.authorization ?? ''
    const value = auth.replace(/^Bearer /, '')
    const headers: Record<string, string> = {
      'x-echo-authorization': auth,
      location: `https://elsewhere.test/login?token=${encodeURIComponent(value)}`,
    }
    if (status === 429 || status === 503) headers['retry-after'] = '1'
    if (html) {
      response
        .writeHead(status, { ...headers, 'content-type': 'text/html' })
        .end(`<html><body><pre>Authorization: ${auth}</pre></body></html>`)
      return
    }
    response.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(
      JSON.stringify({
        message: `Request with authorization ${auth} (${value}) refused`,
        errors: [{ path: `headers.${value}`, message: `bad token ${value}` }],
        [value]: { nested: [auth, value] },
        echo: request.headers,
      }),
    )
  }
}

const STATUSES = [201, 302, 400, 401, 403, 404, 413, 422, 429, 500, 502, 503, 504]
const ENCODINGS: TokenEncoding[] = ['raw', 'base64']

describe('the token never appears in an outcome', () => {
  for (const encoding of ENCODINGS) {
    it.each(STATUSES)(`a JSON echo of HTTP %i (${encoding} token)`, async (status) => {
      const server = await tinyServer(echo(status))
      const outcome = await clientFor(server.url, { tokenEncoding: encoding }).send({
        operation: 'bulk-upload',
        argument: skus(),
      })
      expect(outcome.status).toBe(status)
      expectNoToken(outcome)
    })

    it.each([400, 401, 502])(`an HTML page echoing HTTP %i (${encoding} token)`, async (status) => {
      const server = await tinyServer(echo(status, true))
      const outcome = await clientFor(server.url, { tokenEncoding: encoding }).send({
        operation: 'bulk-upload',
        argument: skus(),
      })
      expect(outcome.message).toContain(`error page (HTTP ${status})`)
      expectNoToken(outcome)
    })
  }

  it('the echoed message is kept, with the token removed', async () => {
    const server = await tinyServer(echo(400))
    const outcome = await clientFor(server.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome.serviceMessage).toBe(
      'Request with authorization Bearer [token removed] ([token removed]) refused',
    )
    expect(outcome.problems).toEqual([
      { path: 'headers.[token removed]', message: 'bad token [token removed]' },
    ])
  })

  it('a success body that echoes the token keeps its shape without it', async () => {
    const server = await tinyServer(echo(201))
    const outcome = await clientFor(server.url).send({ operation: 'bulk-upload', argument: skus() })
    expect(outcome.body).toMatchObject({
      '[token removed]': { nested: ['Bearer [token removed]', '[token removed]'] },
    })
  })

  it('a keychain error that names the token', async () => {
    const outcome = await clientFor('http://127.0.0.1:9', {
      getToken: async () => {
        throw new Error(`cannot unlock item holding ${TOKEN}`)
      },
    }).send({ operation: 'bulk-upload', argument: skus() })
    expectNoToken(outcome)
  })

  it('a request that cannot be written as JSON, with the token in the error', async () => {
    const circular: Record<string, unknown> = { note: TOKEN }
    circular.self = circular
    const outcome = await clientFor('http://127.0.0.1:9').send({
      operation: 'create-app',
      argument: circular,
    })
    expect(outcome.kind).toBe('rejected')
    expectNoToken(outcome)
  })

  it('a drop after sending, and a timeout: nothing is thrown, nothing leaks', async () => {
    const reset = await tinyServer((request) => request.socket.destroy())
    const silent = await tinyServer(() => {})
    const client = (url: string) => clientFor(url, { timeouts: { ...TEST_TIMEOUTS, responseMs: 300 } })
    for (const url of [reset.url, silent.url, 'http://127.0.0.1:9']) {
      const outcome = await client(url).send({ operation: 'bulk-upload', argument: skus() })
      expect(['unknown', 'unreachable']).toContain(outcome.kind)
      expectNoToken(outcome)
    }
  })
})
