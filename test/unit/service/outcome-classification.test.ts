import { describe, expect, it } from 'vitest'
import {
  classifyAnswer,
  classifyFailure,
  kindOfStatus,
  type ClassifyContext,
  type ServiceAnswer,
} from '#node/service/outcome-classification.ts'
import { createRedactor } from '#node/secrets/redaction.ts'
import { SERVICE_TEXT_LIMITS } from '#node/service/service-error-body.ts'
import { PROCESSED, type OutcomeKind } from '#shared/service/outcome.ts'

const NOW = Date.parse('2030-01-01T12:00:00Z')
const context: ClassifyContext = {
  durationMs: 42,
  nowMs: NOW,
  operation: 'bulk-upload',
  host: 'api.example.test',
  timeouts: { connectMs: 10_000, responseMs: 1_500, totalMs: 120_000 },
  maxResponseBytes: 1024 * 1024,
}
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }
const HTML_TYPE = { 'content-type': 'text/html; charset=utf-8' }
const HTML_PAGE =
  '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>nginx/1.25 upstream secret-host:8080</p></body></html>'

function answer(status: number, json?: unknown, headers: Record<string, string> = {}): ServiceAnswer {
  return {
    status,
    headers: json === undefined ? headers : { ...JSON_TYPE, ...headers },
    bodyText: json === undefined ? '' : JSON.stringify(json),
  }
}

function drop(code: string | undefined, extra: Record<string, unknown> = {}, message = 'boom'): Error {
  return Object.assign(new Error(message), code ? { code } : {}, extra)
}

describe('classifyAnswer: one row of the outcome table per status', () => {
  it.each<[number, OutcomeKind]>([
    [200, 'created'],
    [201, 'created'],
    [202, 'created'],
    [204, 'created'],
    [400, 'rejected'],
    [422, 'rejected'],
    [413, 'too-large'],
    [429, 'retry-later'],
    [401, 'needs-token'],
    [403, 'needs-token'],
    [404, 'wrong-address'],
    [405, 'wrong-address'],
    [408, 'wrong-address'],
    [409, 'wrong-address'],
    [410, 'wrong-address'],
    [415, 'wrong-address'],
    [301, 'wrong-address'],
    [302, 'wrong-address'],
    [307, 'wrong-address'],
    [308, 'wrong-address'],
    [500, 'failed'],
    [501, 'unknown'],
    [502, 'unknown'],
    [503, 'unknown'],
    [504, 'unknown'],
    [507, 'unknown'],
    [599, 'unknown'],
    [600, 'unknown'],
    [199, 'unknown'],
  ])('HTTP %i is %s, with processed taken from the table', (status, kind) => {
    const outcome = classifyAnswer(answer(status), context)
    expect(outcome.kind).toBe(kind)
    expect(outcome.processed).toBe(PROCESSED[kind])
    expect(outcome.status).toBe(status)
    expect(outcome.durationMs).toBe(42)
    expect(outcome.message).toContain(`${status}`)
  })

  it('agrees with kindOfStatus for every status from 100 to 699', () => {
    for (let status = 100; status < 700; status++) {
      expect(classifyAnswer(answer(status), context).kind).toBe(kindOfStatus(status, undefined))
    }
  })
})

describe('2xx: created, whatever the body', () => {
  it('takes an empty body', () => {
    const outcome = classifyAnswer(answer(201), context)
    expect(outcome).toMatchObject({ kind: 'created', processed: 'yes', status: 201 })
    expect(outcome.message).toBe('The service accepted the request (HTTP 201).')
    expect(outcome.body).toBeUndefined()
  })

  it('takes a body that is not JSON', () => {
    const outcome = classifyAnswer(
      { status: 201, headers: { 'content-type': 'text/plain' }, bodyText: 'Created!' },
      context,
    )
    expect(outcome.kind).toBe('created')
    expect(outcome.body).toBeUndefined()
  })

  it('takes truncated JSON without failing', () => {
    const outcome = classifyAnswer(
      { status: 201, headers: JSON_TYPE, bodyText: '{"app": {"_id": "a' },
      context,
    )
    expect(outcome.kind).toBe('created')
    expect(outcome.body).toBeUndefined()
  })

  it('parses a JSON body into body', () => {
    const outcome = classifyAnswer(answer(201, { app: { _id: 'abc', name: 'Skin' } }), context)
    expect(outcome.body).toEqual({ app: { _id: 'abc', name: 'Skin' } })
  })

  it('parses JSON even when it is labelled as something else, and keeps __proto__ a plain key', () => {
    const outcome = classifyAnswer(
      { status: 201, headers: {}, bodyText: '{"__proto__": {"polluted": true}}' },
      context,
    )
    expect(Object.getPrototypeOf(outcome.body)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('does not parse an HTML page as a body', () => {
    const outcome = classifyAnswer({ status: 200, headers: HTML_TYPE, bodyText: HTML_PAGE }, context)
    expect(outcome.kind).toBe('created')
    expect(outcome.body).toBeUndefined()
  })

  it('says so when the answer was too large to read', () => {
    const outcome = classifyAnswer({ status: 201, headers: JSON_TYPE, bodyUnread: 'too-large' }, context)
    expect(outcome.kind).toBe('created')
    expect(outcome.body).toBeUndefined()
    expect(outcome.message).toBe(
      'The service accepted the request (HTTP 201). Its answer was larger than 1 MB and was not read.',
    )
  })

  it('says so when the answer broke off after the status', () => {
    const outcome = classifyAnswer({ status: 201, headers: {}, bodyUnread: 'read-failed' }, context)
    expect(outcome.kind).toBe('created')
    expect(outcome.message).toMatch(/could not be read/)
  })
})

describe('400 / 422: rejected, with what the service said', () => {
  const wellFormed = {
    message: '1 SKU of 2 is invalid; nothing was stored',
    errors: [
      { path: 'skus.1.isActive', message: 'Expected a boolean' },
      { path: ['skus', 1, 'arEffect'], message: 'Required' },
    ],
  }

  it('takes the message and a well-formed errors list', () => {
    const outcome = classifyAnswer(answer(400, wellFormed), context)
    expect(outcome).toMatchObject({
      kind: 'rejected',
      processed: 'no',
      status: 400,
      serviceMessage: '1 SKU of 2 is invalid; nothing was stored',
      problems: [
        { path: 'skus.1.isActive', message: 'Expected a boolean' },
        { path: 'skus.1.arEffect', message: 'Required' },
      ],
    })
    expect(outcome.message).toBe(
      'The service rejected the request (HTTP 400). It said: “1 SKU of 2 is invalid; nothing was stored”. Nothing was created. It pointed at 2 problems.',
    )
  })

  it('takes 422 the same way', () => {
    expect(classifyAnswer(answer(422, wellFormed), context)).toMatchObject({ kind: 'rejected', status: 422 })
  })

  it('keeps the message when the errors list is missing', () => {
    const outcome = classifyAnswer(answer(400, { message: 'Bad request' }), context)
    expect(outcome.serviceMessage).toBe('Bad request')
    expect(outcome.problems).toBeUndefined()
  })

  it('drops malformed problems and keeps the well-formed ones', () => {
    const outcome = classifyAnswer(
      answer(400, {
        message: 'Invalid',
        errors: [
          null,
          'skus.0 is wrong',
          { path: 'skus.0.brand' },
          { message: 'no path' },
          { path: { nested: true }, message: 'object path' },
          { path: 'skus.0.brand', message: 42 },
          { path: 'skus.0.brand', message: '   ' },
          { path: 'skus.0.name', message: 'Required' },
        ],
      }),
      context,
    )
    expect(outcome.problems).toEqual([{ path: 'skus.0.name', message: 'Required' }])
  })

  it.each([
    ['errors is not a list', { message: 'Invalid', errors: 'skus.0: wrong' }],
    ['errors holds nothing usable', { message: 'Invalid', errors: [{ where: 'x', what: 'y' }] }],
  ])('leaves problems out when %s', (_, body) => {
    const outcome = classifyAnswer(answer(400, body), context)
    expect(outcome.kind).toBe('rejected')
    expect(outcome.problems).toBeUndefined()
    expect(outcome.serviceMessage).toBe('Invalid')
  })

  it.each([
    ['an empty body', ''],
    ['garbage', '{"message": "unterminated'],
    ['a JSON list', '["a", "b"]'],
    ['a message that is not text', '{"message": {"text": "nested"}}'],
    ['JSON null', 'null'],
  ])('is still rejected, without a service message, for %s', (_, bodyText) => {
    const outcome = classifyAnswer({ status: 400, headers: JSON_TYPE, bodyText }, context)
    expect(outcome.kind).toBe('rejected')
    expect(outcome.serviceMessage).toBeUndefined()
    expect(outcome.problems).toBeUndefined()
    expect(outcome.message).toBe('The service rejected the request (HTTP 400). Nothing was created.')
  })

  it('caps a huge message, and quotes less of it in the message', () => {
    const outcome = classifyAnswer(answer(400, { message: 'x'.repeat(100_000) }), context)
    expect(outcome.serviceMessage).toHaveLength(SERVICE_TEXT_LIMITS.message)
    expect(outcome.serviceMessage!.endsWith('…')).toBe(true)
    expect(outcome.message.length).toBeLessThan(400)
  })

  it('caps the number of problems and the length of each', () => {
    const errors = Array.from({ length: 5_000 }, (_, i) => ({
      path: `skus.${i}.${'p'.repeat(1_000)}`,
      message: 'm'.repeat(10_000),
    }))
    const outcome = classifyAnswer(answer(400, { message: 'Invalid', errors }), context)
    expect(outcome.problems).toHaveLength(SERVICE_TEXT_LIMITS.problems)
    for (const problem of outcome.problems!) {
      expect(problem.path.length).toBeLessThanOrEqual(SERVICE_TEXT_LIMITS.path)
      expect(problem.message.length).toBeLessThanOrEqual(SERVICE_TEXT_LIMITS.problemMessage)
    }
  })

  it('flattens line breaks, control and bidi characters in what the service said', () => {
    const outcome = classifyAnswer(
      answer(400, {
        message: 'line one\r\nline\u0000 two\u202e\u200b  end',
        errors: [{ path: 'a\nb', message: 'x\ty' }],
      }),
      context,
    )
    expect(outcome.serviceMessage).toBe('line one line two end')
    expect(outcome.problems).toEqual([{ path: 'a b', message: 'x y' }])
  })
})

describe('413, 401/403, 404/405/3xx, 500', () => {
  it('413 is too-large and says to send fewer SKUs', () => {
    const outcome = classifyAnswer(answer(413, { message: 'The batch holds 3 SKUs; at most 2' }), context)
    expect(outcome).toMatchObject({
      kind: 'too-large',
      processed: 'no',
      serviceMessage: 'The batch holds 3 SKUs; at most 2',
    })
    expect(outcome.message).toMatch(/send fewer SKUs in one request/)
  })

  it('401 says to set a valid token', () => {
    const outcome = classifyAnswer(answer(401, { message: 'The token is not valid' }), context)
    expect(outcome.kind).toBe('needs-token')
    expect(outcome.message).toMatch(
      /^The service refused the token \(HTTP 401\)\..*Set a valid token for this profile\.$/,
    )
  })

  it('404 points at the base URL and version', () => {
    const outcome = classifyAnswer(answer(404, { message: 'No operation at POST /x' }), context)
    expect(outcome.kind).toBe('wrong-address')
    expect(outcome.message).toMatch(/HTTP 404.*base URL and the API version/)
  })

  it('a redirect is wrong-address and names where it pointed', () => {
    const outcome = classifyAnswer(
      answer(301, undefined, { location: 'https://api.example.test/v3/bulk' }),
      context,
    )
    expect(outcome.kind).toBe('wrong-address')
    expect(outcome.message).toContain('HTTP 301 to https://api.example.test/v3/bulk')
    expect(outcome.message).toMatch(/not followed/)
  })

  it('500 is failed: maybe processed, with the service message', () => {
    const outcome = classifyAnswer(answer(500, { message: 'Internal server error' }), context)
    expect(outcome).toMatchObject({
      kind: 'failed',
      processed: 'maybe',
      serviceMessage: 'Internal server error',
    })
    expect(outcome.message).toMatch(/may have created some of the SKUs: check before sending again/)
  })

  it('problems are kept for rejections only', () => {
    const body = { message: 'oops', errors: [{ path: 'a', message: 'b' }] }
    expect(classifyAnswer(answer(500, body), context).problems).toBeUndefined()
  })
})

describe('429 and 503: retry-later only when the wait is deliberate', () => {
  it('429 with Retry-After in seconds', () => {
    const outcome = classifyAnswer(answer(429, { message: 'Too many' }, { 'retry-after': '5' }), context)
    expect(outcome).toMatchObject({ kind: 'retry-later', processed: 'no', retryAfterMs: 5_000 })
    expect(outcome.message).toMatch(/send again in 5 s/)
  })

  it('429 with Retry-After as an HTTP-date', () => {
    const at = new Date(NOW + 90_000).toUTCString()
    const outcome = classifyAnswer(answer(429, undefined, { 'retry-after': at }), context)
    expect(outcome.retryAfterMs).toBe(90_000)
  })

  it('429 with a Retry-After date in the past waits nothing', () => {
    const outcome = classifyAnswer(
      answer(429, undefined, { 'retry-after': new Date(NOW - 5_000).toUTCString() }),
      context,
    )
    expect(outcome.retryAfterMs).toBe(0)
  })

  it.each([undefined, 'soon', '-3', '1.5', ''])(
    '429 with Retry-After %j is retry-later without a wait',
    (value) => {
      const outcome = classifyAnswer(
        answer(429, undefined, value === undefined ? {} : { 'retry-after': value }),
        context,
      )
      expect(outcome.kind).toBe('retry-later')
      expect(outcome.retryAfterMs).toBeUndefined()
    },
  )

  it('503 with Retry-After is retry-later', () => {
    const outcome = classifyAnswer(answer(503, { message: 'Down' }, { 'retry-after': '0' }), context)
    expect(outcome).toMatchObject({ kind: 'retry-later', processed: 'no', retryAfterMs: 0 })
  })

  it('503 with Retry-After as a date is retry-later', () => {
    const outcome = classifyAnswer(
      answer(503, undefined, { 'retry-after': new Date(NOW + 3_000).toUTCString() }),
      context,
    )
    expect(outcome).toMatchObject({ kind: 'retry-later', retryAfterMs: 3_000 })
  })

  it('503 without Retry-After is unknown', () => {
    const outcome = classifyAnswer(answer(503, { message: 'Down' }), context)
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe' })
    expect(outcome.retryAfterMs).toBeUndefined()
    expect(outcome.message).toMatch(/did not say when/)
  })

  it('503 with an unreadable Retry-After is unknown: only a real wait proves the service chose not to act', () => {
    expect(classifyAnswer(answer(503, undefined, { 'retry-after': 'later' }), context).kind).toBe('unknown')
  })

  it('reads a header whatever its case and takes the first of repeated values', () => {
    const outcome = classifyAnswer(
      { status: 429, headers: { 'Retry-After': ['2', '9'] }, bodyText: '' },
      context,
    )
    expect(outcome.retryAfterMs).toBe(2_000)
  })
})

describe('502, 504 and other 5xx: unknown', () => {
  it.each([
    [502, /bad gateway/],
    [504, /gave up waiting/],
    [507, /server error this app does not know/],
  ])('HTTP %i says so and that the items may exist', (status, words) => {
    const outcome = classifyAnswer(answer(status, { message: 'upstream' }), context)
    expect(outcome.kind).toBe('unknown')
    expect(outcome.message).toMatch(words)
    expect(outcome.message).toMatch(/may or may not have created the SKUs: check before sending again\.$/)
  })

  it('names the app for app creation', () => {
    const outcome = classifyAnswer(answer(502), { ...context, operation: 'create-app' })
    expect(outcome.message).toMatch(/may or may not have created the app/)
  })
})

describe('HTML error pages are never quoted', () => {
  it.each<[number, OutcomeKind]>([
    [502, 'unknown'],
    [500, 'failed'],
    [404, 'wrong-address'],
    [401, 'needs-token'],
    [400, 'rejected'],
  ])('HTTP %i as a page is %s and says "error page"', (status, kind) => {
    const outcome = classifyAnswer({ status, headers: HTML_TYPE, bodyText: HTML_PAGE }, context)
    expect(outcome.kind).toBe(kind)
    expect(outcome.message).toContain(`The service answered with an error page (HTTP ${status}).`)
    expect(outcome.message).not.toMatch(/nginx|<|secret-host|Bad Gateway/)
    expect(outcome.serviceMessage).toBeUndefined()
  })

  it('recognises a page sent as text/plain by its start', () => {
    const outcome = classifyAnswer(
      { status: 502, headers: { 'content-type': 'text/plain' }, bodyText: `\n  ${HTML_PAGE}` },
      context,
    )
    expect(outcome.message).toContain('error page (HTTP 502)')
  })

  it('keeps the wait of a 429 page', () => {
    const outcome = classifyAnswer(
      { status: 429, headers: { ...HTML_TYPE, 'retry-after': '3' }, bodyText: HTML_PAGE },
      context,
    )
    expect(outcome).toMatchObject({ kind: 'retry-later', retryAfterMs: 3_000 })
    expect(outcome.message).toMatch(/error page \(HTTP 429\)\. It asked to send again in 3 s/)
  })
})

describe('classifyFailure: a drop is decided by whether the body had left', () => {
  const failed = (error: unknown, bodySent: boolean, cancelled = false) =>
    classifyFailure(error, { ...context, bodySent, cancelled })

  it.each([
    [
      'connection refused',
      drop('ECONNREFUSED', {}, 'connect ECONNREFUSED 127.0.0.1:1'),
      /connection was refused/,
    ],
    ['DNS: not found', drop('ENOTFOUND'), /Could not find api\.example\.test \(DNS\)/],
    ['DNS: try again', drop('EAI_AGAIN'), /Could not look up api\.example\.test/],
    [
      'an expired certificate',
      drop('CERT_HAS_EXPIRED'),
      /certificate of api\.example\.test was not accepted \(CERT_HAS_EXPIRED\)/,
    ],
    ['a self-signed certificate', drop('DEPTH_ZERO_SELF_SIGNED_CERT'), /certificate .* not accepted/],
    ['a certificate for another host', drop('ERR_TLS_CERT_ALTNAME_INVALID'), /certificate .* not accepted/],
    ['a TLS protocol error', drop('EPROTO'), /secure connection to api\.example\.test failed \(EPROTO\)/],
    ['a connect timeout', drop('ETIMEDOUT', { name: 'TimeoutError', event: 'connect' }), /within 10 s/],
    ['a DNS lookup timeout', drop('ETIMEDOUT', { name: 'TimeoutError', event: 'lookup' }), /within 10 s/],
    [
      'a TLS handshake timeout',
      drop('ETIMEDOUT', { name: 'TimeoutError', event: 'secureConnect' }),
      /within 10 s/,
    ],
    ["the kernel's connect timeout", drop('ETIMEDOUT'), /within 10 s/],
    ['no route', drop('EHOSTUNREACH'), /Is this computer online/],
  ])('%s before the body left is unreachable', (_, error, words) => {
    const outcome = failed(error, false)
    expect(outcome).toMatchObject({ kind: 'unreachable', processed: 'no', durationMs: 42 })
    expect(outcome.status).toBeUndefined()
    expect(outcome.message).toMatch(words)
    expect(outcome.message).toMatch(/Nothing was created\.$/)
  })

  it('an update that never left says nothing was updated, not created', () => {
    const outcome = classifyFailure(drop('ECONNREFUSED', {}, 'connect ECONNREFUSED 127.0.0.1:1'), {
      ...context,
      operation: 'update-sku',
      bodySent: false,
      cancelled: false,
    })
    expect(outcome).toMatchObject({ kind: 'unreachable', processed: 'no' })
    expect(outcome.message).toMatch(/Nothing was updated\.$/)
  })

  it.each([
    [
      'a reset',
      drop('ECONNRESET', {}, 'read ECONNRESET'),
      'The connection dropped after the request was sent (reset).',
    ],
    [
      'a socket hang up',
      drop(undefined, {}, 'socket hang up'),
      'The connection dropped after the request was sent (reset).',
    ],
    ['a broken pipe', drop('EPIPE'), 'The connection dropped after the request was sent (reset).'],
    [
      'a response timeout',
      drop('ETIMEDOUT', { name: 'TimeoutError', event: 'response' }),
      'No answer came within 1.5 s after the request was sent (response timeout).',
    ],
    [
      'a total timeout',
      drop('ETIMEDOUT', { name: 'TimeoutError', event: 'request' }),
      'The request took longer than 120 s in all (total timeout).',
    ],
    [
      'an error nobody foresaw',
      drop('EWHATEVER', {}, 'strange'),
      'The connection failed after the request was sent (EWHATEVER: strange).',
    ],
  ])('%s after the body left is unknown', (_, error, lead) => {
    const outcome = failed(error, true)
    expect(outcome).toMatchObject({ kind: 'unknown', processed: 'maybe' })
    expect(outcome.message).toBe(
      `${lead} The service may or may not have created the SKUs: check before sending again.`,
    )
  })

  it.each([
    ['a reset', drop('ECONNRESET'), /dropped before the request was completely sent/],
    [
      'a total timeout',
      drop('ETIMEDOUT', { name: 'TimeoutError', event: 'request' }),
      /could not be sent within 120 s/,
    ],
    ['an error nobody foresaw', drop('EWHATEVER', {}, 'strange'), /could not be sent \(EWHATEVER: strange\)/],
  ])(
    '%s before the body left is unreachable: a service cannot act on a JSON body it has not fully received',
    (_, error, words) => {
      const outcome = failed(error, false)
      expect(outcome.kind).toBe('unreachable')
      expect(outcome.message).toMatch(words)
    },
  )

  it('a cancel is a drop at that moment', () => {
    const abort = drop('ERR_ABORTED', { name: 'AbortError' }, 'This operation was aborted.')
    expect(failed(abort, false, true)).toMatchObject({ kind: 'unreachable' })
    expect(failed(abort, false, true).message).toMatch(
      /^Sending was cancelled before the request was completely sent/,
    )
    expect(failed(abort, true, true)).toMatchObject({ kind: 'unknown' })
    expect(failed(abort, true, true).message).toMatch(/^Sending was cancelled after the request was sent/)
  })

  it('takes anything thrown, not only errors', () => {
    expect(failed('a string', false).kind).toBe('unreachable')
    expect(failed(undefined, true).kind).toBe('unknown')
  })

  it('shows a code only when it looks like one', () => {
    const outcome = failed(drop('Bearer abc <script>', {}, 'x'), true)
    expect(outcome.message).not.toContain('<script>')
  })

  it('removes the token from an error message that echoes it', () => {
    const token = 'sk_live_0123456789'
    const echo = drop('EWHATEVER', {}, `request failed with authorization: Bearer ${token}`)
    const outcome = classifyFailure(echo, {
      ...context,
      bodySent: true,
      cancelled: false,
      redact: createRedactor(token),
    })
    expect(outcome.message).not.toContain(token)
    expect(outcome.message).toContain('[token removed]')
  })
})

describe("an update's 404 (issue #34)", () => {
  const update: ClassifyContext = { ...context, operation: 'update-sku' }

  it('is "not there" only with the service\'s JSON message, and says nothing was updated', () => {
    const outcome = classifyAnswer(answer(404, { message: 'SKU 65a1 not found' }), update)
    expect(outcome.kind).toBe('not-found')
    expect(outcome.processed).toBe('no')
    expect(outcome.message).toMatch(/says the SKU is not there \(HTTP 404\)/)
    expect(outcome.message).toMatch(/Nothing was updated/)
    expect(outcome.message).toContain('SKU 65a1 not found')
  })

  it('is a wrong address without one (a proxy, a wrong base URL), or for an operation without the rule', () => {
    expect(classifyAnswer(answer(404), update).kind).toBe('wrong-address')
    expect(classifyAnswer(answer(404, { error: 'no' }), update).kind).toBe('wrong-address')
    expect(classifyAnswer(answer(404, { message: 'no such route' }), context).kind).toBe('wrong-address')
  })
})
