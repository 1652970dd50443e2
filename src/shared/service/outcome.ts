/**
 * What one request to the service came to, classified once so every caller (the Settings page's
 * connection test, the sync engine, the CLI) acts on the same reading. The rows follow the outcome
 * table of the architecture guide; `processed` is what decides whether a resend is ever automatic.
 */
export type OutcomeKind =
  /** 2xx: the service took it. */
  | 'created'
  /** 400 / 422: the service said no to the content; nothing was created. */
  | 'rejected'
  /** 413: the batch was too large; nothing was created. Split it and send the halves. */
  | 'too-large'
  /** 429, or 503 with Retry-After: not processed; send again after the wait. */
  | 'retry-later'
  /** Connection refused, DNS or TLS failure, or a drop before the body was sent: not processed. */
  | 'unreachable'
  /** 401 / 403: not processed; a valid token is needed. */
  | 'needs-token'
  /** 404 / 405 / other 4xx: not processed; the base URL or the API version is wrong. */
  | 'wrong-address'
  /**
   * 404 to an operation on one thing the path names (a SKU's update), with the service's JSON
   * `{message}`: the address is right and that thing is not there. Not processed. Without a JSON
   * message a 404 is a wrong address as ever (a proxy or a wrong base URL answers the same).
   */
  | 'not-found'
  /** 500: the service failed and may have done part of the work. Only the user may resend. */
  | 'failed'
  /** 502 / 504 / 503 without Retry-After, a timeout or a reset after the body was sent. */
  | 'unknown'

/** Whether the service may have acted on the request: the one fact that makes a resend safe. */
export type Processed = 'no' | 'yes' | 'maybe'

export const PROCESSED: Record<OutcomeKind, Processed> = {
  created: 'yes',
  rejected: 'no',
  'too-large': 'no',
  'retry-later': 'no',
  unreachable: 'no',
  'needs-token': 'no',
  'wrong-address': 'no',
  'not-found': 'no',
  failed: 'maybe',
  unknown: 'maybe',
}

/** Outcomes after which the same request may be sent again without asking anyone. */
const AUTOMATICALLY_RESENDABLE: readonly OutcomeKind[] = ['retry-later', 'unreachable']

/**
 * The one rule for sending a request again without asking anyone: only when its outcome proves
 * it was not processed and says the service may take it later (busy, or not reached). The bulk
 * endpoint is not idempotent, so after anything else (a 500, a 502, a drop after the body left)
 * only a person may send it again. The resend loop (resend.ts) and the engine, which puts such a
 * batch back to `queued` before the wait, both ask this; the CLI sends through the engine.
 */
export function resendsAutomatically(outcome: Pick<Outcome, 'kind'>): boolean {
  return AUTOMATICALLY_RESENDABLE.includes(outcome.kind)
}

export interface ServiceProblem {
  path: string
  message: string
}

export interface Outcome {
  kind: OutcomeKind
  processed: Processed
  /** The HTTP status, when a response came back. */
  status?: number
  /** Said for a catalog person. Never contains the token. */
  message: string
  /** The service's own `message` from a JSON error body, if it sent one (untrusted text). */
  serviceMessage?: string
  /** The service's per-field problems (`errors: [{path, message}]`), if it sent them. */
  problems?: ServiceProblem[]
  /** For `retry-later`: how long the service asked us to wait. */
  retryAfterMs?: number
  /** The parsed JSON body of a success, if it had one (untrusted input; size-limited). */
  body?: unknown
  /** Time from sending to the outcome. */
  durationMs: number
}
