import { PROCESSED, type Outcome, type OutcomeKind } from '#shared/service/outcome.ts'
import { serviceOperation } from '#shared/service/operations.ts'
import type { Timeouts } from '#shared/profile.ts'
import {
  answerMessage,
  dropMessage,
  type DropReason,
  type Operation,
  type SettingsNamed,
} from './outcome-messages.ts'
import { redactStrings, type Redact } from '../secrets/redaction.ts'
import { parseRetryAfter } from './retry-after.ts'
import { readServiceError } from './service-error-body.ts'
import { showable } from './untrusted-text.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * One request's result, read once, exactly per the outcome table of the architecture guide
 * ("Sync: states and outcomes"). Pure: the client feeds it what came back (an answer, or an error
 * and whether the body had left), so every row is testable without a network.
 */

export type HeaderValue = string | string[] | undefined

/** An HTTP answer as the client read it. */
export interface ServiceAnswer {
  status: number
  /** Node's headers: lower-case names. */
  headers: Readonly<Record<string, HeaderValue>>
  /** The body as text; absent when it was not read. */
  bodyText?: string
  /** Why the body was not read: larger than the limit, or the connection failed while reading it. */
  bodyUnread?: 'too-large' | 'read-failed'
}

export interface ClassifyContext {
  durationMs: number
  /** For Retry-After dates; the system clock's when absent. */
  nowMs?: number
  /** Scrubs the token from any text; identity when absent. */
  redact?: Redact
  operation?: Operation
  /** The request carried an empty list (the connection test's batch): it cannot have created anything. */
  empty?: boolean
  /** host[:port], named in messages about connections. */
  host?: string
  timeouts?: Timeouts
  maxResponseBytes?: number
  /** Where the address and token were set, as the advice names them: the profile's when absent. */
  settings?: SettingsNamed
}

function outcome(kind: OutcomeKind, fields: Omit<Outcome, 'kind' | 'processed'>): Outcome {
  return { kind, processed: PROCESSED[kind], ...fields }
}

function header(headers: ServiceAnswer['headers'], name: string): string | undefined {
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  return Array.isArray(value) ? value[0] : value
}

/** An HTML page (a proxy's or web server's error page), by its type or, mislabelled, by its start. */
export function isErrorPage(contentType: string | undefined, bodyText: string | undefined): boolean {
  if (contentType && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true
  const start = bodyText?.trimStart().slice(0, 15).toLowerCase() ?? ''
  return start.startsWith('<!doctype html') || start.startsWith('<html')
}

/** Any JSON at all, or undefined: the body is untrusted and may be empty, cut or not JSON. */
function parseJsonLoosely(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The row of the table a status falls in. `retryAfterMs` is what the answer said about waiting. */
export function kindOfStatus(status: number, retryAfterMs: number | undefined): OutcomeKind {
  if (status >= 200 && status < 300) return 'created'
  if (status === 400 || status === 422) return 'rejected'
  if (status === 413) return 'too-large'
  if (status === 429) return 'retry-later'
  // Only a 503 that says when to come back is the service's deliberate "not now"; a bare 503 may
  // come from a proxy after the service got the request.
  if (status === 503) return retryAfterMs === undefined ? 'unknown' : 'retry-later'
  if (status === 401 || status === 403) return 'needs-token'
  // A redirect is not followed (a POST sent on elsewhere could create twice), so it is an address to fix.
  if (status >= 300 && status < 500) return 'wrong-address'
  if (status === 500) return 'failed'
  // 502, 504, any other 5xx, and statuses outside HTTP's classes: the service may have acted.
  return 'unknown'
}

export function classifyAnswer(answer: ServiceAnswer, context: ClassifyContext): Outcome {
  const redact = context.redact ?? ((text: string) => text)
  const { status, bodyText } = answer
  const rawRetryAfter = header(answer.headers, 'retry-after')
  const retryAfterMs = parseRetryAfter(rawRetryAfter, context.nowMs ?? systemClock.now())
  // The operation's own reading of a status, where the table gives one, before the outcome table's row.
  const errorPage = isErrorPage(header(answer.headers, 'content-type'), bodyText)
  const json = errorPage ? undefined : parseJsonLoosely(bodyText)
  const own = context.operation && serviceOperation(context.operation).statuses[status]
  // "Not there" is the service's word only with its JSON `{message}`: a proxy or a wrong base URL
  // answers a bare 404 too, and that stays a wrong address.
  const kind =
    own === 'not-found' && readServiceError(json, redact).serviceMessage === undefined
      ? kindOfStatus(status, retryAfterMs)
      : (own ?? kindOfStatus(status, retryAfterMs))

  const result = outcome(kind, { status, message: '', durationMs: context.durationMs })
  if (kind === 'created') {
    if (json !== undefined) result.body = redactStrings(json, redact)
  } else {
    const details = readServiceError(json, redact)
    if (details.serviceMessage !== undefined) result.serviceMessage = details.serviceMessage
    // Problems steer the batch splitting; they mean something only when the content was refused.
    if (kind === 'rejected' && details.problems) result.problems = details.problems
  }
  if (kind === 'retry-later' && retryAfterMs !== undefined) result.retryAfterMs = retryAfterMs

  const location = header(answer.headers, 'location')
  result.message = redact(
    answerMessage({
      kind,
      status,
      operation: context.operation,
      empty: context.empty,
      errorPage,
      serviceMessage: result.serviceMessage,
      problemCount: result.problems?.length,
      retryAfterMs: result.retryAfterMs,
      location: status >= 300 && status < 400 && location ? showable(location, 200, redact) : undefined,
      bodyUnread: answer.bodyUnread,
      maxResponseBytes: context.maxResponseBytes,
      settings: context.settings,
    }),
  )
  return result
}

/** What a failed request's error says about where it failed, read from the fields Node and got set. */
export interface ErrorFacts {
  code?: string
  name?: string
  /** got's TimeoutError: which timeout fired (lookup, connect, secureConnect, response, request, …). */
  event?: string
  message?: string
}

export function errorFacts(error: unknown): ErrorFacts {
  if (typeof error !== 'object' || error === null) return { message: String(error) }
  const record = error as Record<string, unknown>
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  return {
    code: text(record.code),
    name: text(record.name),
    event: text(record.event),
    message: text(record.message),
  }
}

const CERTIFICATE_CODES = /CERT|^DEPTH_ZERO_SELF_SIGNED|^UNABLE_TO_VERIFY_LEAF_SIGNATURE$|^HOSTNAME_MISMATCH$/
const TLS_CODES = /^(EPROTO|ECONNABORTED_TLS|ERR_SSL_|ERR_TLS_)/
const NO_ROUTE_CODES = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL'])
const CONNECT_EVENTS = new Set(['lookup', 'socket', 'connect', 'secureConnect'])

export function dropReasonOf(facts: ErrorFacts, cancelled: boolean): DropReason {
  const { code = '', name, event } = facts
  if (cancelled || name === 'AbortError' || code === 'ERR_ABORTED') return 'cancelled'
  if (code === 'ECONNREFUSED') return 'refused'
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_FAIL' || code === 'EAI_NODATA')
    return 'dns'
  if (code === 'EAI_AGAIN') return 'dns-temporary'
  if (CERTIFICATE_CODES.test(code)) return 'certificate'
  if (TLS_CODES.test(code)) return 'tls'
  if (NO_ROUTE_CODES.has(code)) return 'no-route'
  if (code === 'ETIMEDOUT' || name === 'TimeoutError') {
    if (event === 'response') return 'response-timeout'
    if (event === 'request') return 'total-timeout'
    // The kernel's own connect timeout has no event.
    if (event === undefined || CONNECT_EVENTS.has(event)) return 'connect-timeout'
    return 'timeout'
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(facts.message ?? '')) return 'reset'
  return 'other'
}

export interface FailureContext extends ClassifyContext {
  /**
   * Whether the request body had been completely handed to the network (got's `timings.upload`).
   * The whole decision rests on it: a service cannot act on a JSON body it has not fully received,
   * so a failure before that point is provably "not processed", whatever the error; after it, the
   * service may have received, parsed and stored it, whatever the error.
   */
  bodySent: boolean
  /** Our own AbortSignal fired: treated like a drop at that moment. */
  cancelled: boolean
}

export function classifyFailure(error: unknown, context: FailureContext): Outcome {
  const redact = context.redact ?? ((text: string) => text)
  const facts = errorFacts(error)
  const reason = dropReasonOf(facts, context.cancelled)
  const kind: OutcomeKind = context.bodySent ? 'unknown' : 'unreachable'
  // A code is shown only when it looks like one; got's messages can echo anything, even headers.
  const code = facts.code && /^[A-Z0-9_]{2,40}$/.test(facts.code) ? facts.code : undefined
  const detail = facts.message ? showable(facts.message, 200, redact) : undefined
  const message = dropMessage({
    reason,
    bodySent: context.bodySent,
    operation: context.operation,
    empty: context.empty,
    host: context.host,
    timeouts: context.timeouts,
    code,
    detail,
    settings: context.settings,
  })
  return outcome(kind, { message: redact(message), durationMs: context.durationMs })
}
