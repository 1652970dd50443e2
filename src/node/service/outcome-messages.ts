import { formatBytes } from '#shared/byte-size.ts'
import type { OutcomeKind } from '#shared/service/outcome.ts'
import { serviceOperation, type OperationKey } from '#shared/service/operations.ts'
import type { Timeouts } from '#shared/profile.ts'
import { truncate } from './untrusted-text.ts'

/**
 * What a catalog person reads about one request: what happened, in words, then what it means for
 * the items (created, not created, or maybe), then what to do. The wording lives here, in one
 * place, so the classification stays about facts.
 */

/** Which operation was sent (its key in the operation table): decides what "the items" are called. */
export type Operation = OperationKey

/** The service's own words are quoted only this long; the full (capped) text is in serviceMessage. */
const QUOTE_LENGTH = 200

function subjectOf(operation: Operation | undefined): string {
  return operation === undefined ? 'the items' : serviceOperation(operation).subject
}

export function formatWait(ms: number): string {
  if (ms < 1000) return 'a moment'
  if (ms < 120_000) return `${Math.ceil(ms / 1000)} s`
  if (ms < 2 * 60 * 60_000) return `${Math.ceil(ms / 60_000)} min`
  return `${Math.ceil(ms / (60 * 60_000))} h`
}

function formatSeconds(ms: number | undefined): string {
  return ms === undefined ? 'the time allowed' : `${Number((ms / 1000).toFixed(1))} s`
}

/** What the operation does, in a sentence's words: "created" (the default), "updated". */
function doneOf(operation: Operation | undefined): string {
  return operation === undefined ? 'created' : serviceOperation(operation).done
}

/** "Nothing was created." or, for an update, "Nothing was updated." */
function nothingDone(operation: Operation | undefined): string {
  return `Nothing was ${doneOf(operation)}`
}

function maybeCreated(operation: Operation | undefined): string {
  return `The service may or may not have ${doneOf(operation)} ${subjectOf(operation)}: check before sending again.`
}

/**
 * What an unclear outcome means for a request that carried an empty list (the connection test's
 * batch): whatever the service did with it, it had nothing to act on.
 */
function emptyNothingDone(operation: Operation | undefined): string {
  return `The request carried no ${nounOf(operation)}, so nothing was ${doneOf(operation)}.`
}

/** The items an operation carries, without the article: "SKUs". */
function nounOf(operation: Operation | undefined): string {
  return subjectOf(operation).replace(/^the /, '')
}

/**
 * Where the person set the address and the token a request went with, as the messages' advice
 * names them: the app's profile, or the CLI's options (`--base-url`, `--token-env`), where "this
 * profile" would send them looking for a profile they never used.
 */
export interface SettingsNamed {
  /** What holds the address: "the profile's base URL", "--base-url". */
  address: string
  /** What to do about a token the service refused, a sentence without its full stop. */
  tokenRemedy: string
}

export const PROFILE_SETTINGS: SettingsNamed = {
  address: "the profile's base URL",
  tokenRemedy: 'Set a valid token for this profile',
}

/** The facts about an HTTP answer that its message is made of. */
export interface AnswerFacts {
  kind: OutcomeKind
  status: number
  operation?: Operation
  /** The request carried an empty list: an unclear answer still means nothing was done. */
  empty?: boolean
  /** The answer was an HTML page (a proxy's or server's error page): never quoted. */
  errorPage: boolean
  serviceMessage?: string
  problemCount?: number
  retryAfterMs?: number
  location?: string
  bodyUnread?: 'too-large' | 'read-failed'
  maxResponseBytes?: number
  /** The profile's, unless the caller set the address and token otherwise. */
  settings?: SettingsNamed
}

function answerLead(facts: AnswerFacts): string {
  const { kind, status } = facts
  const http = `HTTP ${status}`
  const wait = facts.retryAfterMs === undefined ? undefined : formatWait(facts.retryAfterMs)
  if (kind === 'created') return `The service accepted the request (${http}).`
  if (facts.errorPage) {
    const page = `The service answered with an error page (${http}).`
    return wait ? `${page} It asked to send again in ${wait}.` : page
  }
  switch (kind) {
    case 'rejected':
      return `The service rejected the request (${http}).`
    case 'too-large':
      return `The request was too large for the service (${http}).`
    case 'retry-later':
      if (status === 503)
        return `The service is unavailable for now (${http}) and asked to send again in ${wait}.`
      return wait
        ? `The service asked to slow down (${http}) and to send again in ${wait}.`
        : `The service asked to slow down (${http}) without saying for how long.`
    case 'not-found':
      return `The service says ${subjectOf(facts.operation)} is not there (${http}).`
    case 'needs-token':
      return status === 403
        ? `The service refused the token (${http}): it does not allow this operation.`
        : `The service refused the token (${http}).`
    case 'wrong-address':
      if (status >= 300 && status < 400) {
        const to = facts.location ? ` to ${facts.location}` : ''
        return `The service redirected the request (${http}${to}). It was not followed: a request sent on to another address could create items twice.`
      }
      if (status === 404) return `There is no such operation at this address (${http}).`
      if (status === 405) return `This address does not accept the request (${http}).`
      return `The service refused the request (${http}).`
    case 'failed':
      return `The service failed (${http}).`
    default:
      if (status === 502) return `A gateway in front of the service answered ${http} (bad gateway).`
      if (status === 504) return `A gateway in front of the service gave up waiting for it (${http}).`
      if (status === 503) return `The service was unavailable (${http}) and did not say when to send again.`
      if (status >= 500 && status < 600)
        return `The service answered ${http}, a server error this app does not know.`
      return `The service answered with status ${status}, which this app does not understand.`
  }
}

function answerConsequence(facts: AnswerFacts): string {
  switch (facts.kind) {
    case 'created':
      if (facts.bodyUnread === 'too-large') {
        const limit =
          facts.maxResponseBytes === undefined ? '' : ` than ${formatBytes(facts.maxResponseBytes)}`
        return `Its answer was larger${limit} and was not read.`
      }
      return facts.bodyUnread === 'read-failed' ? 'Its answer could not be read to the end.' : ''
    case 'rejected': {
      const count = facts.problemCount ?? 0
      const listed = count > 0 ? ` It pointed at ${count} ${count === 1 ? 'problem' : 'problems'}.` : ''
      return `${nothingDone(facts.operation)}.${listed}`
    }
    case 'too-large': {
      const advice = facts.operation && serviceOperation(facts.operation).tooLargeAdvice
      return advice ? `${nothingDone(facts.operation)}: ${advice}.` : `${nothingDone(facts.operation)}.`
    }
    case 'retry-later':
      return `${nothingDone(facts.operation)}; it can be sent again later.`
    case 'needs-token':
      return `${nothingDone(facts.operation)}. ${(facts.settings ?? PROFILE_SETTINGS).tokenRemedy}.`
    case 'wrong-address':
      return `${nothingDone(facts.operation)}. Check ${(facts.settings ?? PROFILE_SETTINGS).address} and the API version.`
    case 'not-found':
      return `${nothingDone(facts.operation)}: it was deleted there, or the id kept for it is not the platform's.`
    case 'failed':
      if (facts.empty) return emptyNothingDone(facts.operation)
      return `It may have ${doneOf(facts.operation)} some of ${subjectOf(facts.operation)}: check before sending again.`
    default:
      return facts.empty ? emptyNothingDone(facts.operation) : maybeCreated(facts.operation)
  }
}

export function answerMessage(facts: AnswerFacts): string {
  const said =
    facts.serviceMessage && !facts.errorPage
      ? `It said: “${truncate(facts.serviceMessage, QUOTE_LENGTH)}”.`
      : ''
  return [answerLead(facts), said, answerConsequence(facts)].filter(Boolean).join(' ')
}

/** Why a request got no answer, as far as the HTTP stack can tell. */
export type DropReason =
  | 'cancelled'
  | 'refused'
  | 'dns'
  | 'dns-temporary'
  | 'tls'
  | 'certificate'
  | 'no-route'
  | 'connect-timeout'
  | 'reset'
  | 'response-timeout'
  | 'total-timeout'
  | 'timeout'
  | 'other'

export interface DropFacts {
  reason: DropReason
  /** Whether the request body had been completely handed to the network. */
  bodySent: boolean
  operation?: Operation
  /** The request carried an empty list: a drop after it was sent still means nothing was done. */
  empty?: boolean
  host?: string
  timeouts?: Timeouts
  /** The error code (ECONNRESET, …), already checked to be a plain code. */
  code?: string
  /** The HTTP stack's own words (redacted and capped), for reasons without a sentence of ours. */
  detail?: string
  /** The profile's, unless the caller set the address otherwise. */
  settings?: SettingsNamed
}

function dropLeadBeforeSent(facts: DropFacts): string {
  const host = facts.host ?? 'the service'
  const code = facts.code ? ` (${facts.code})` : ''
  switch (facts.reason) {
    case 'cancelled':
      return 'Sending was cancelled before the request was completely sent.'
    case 'refused':
      return `Could not connect to ${host}: the connection was refused. Is the service running there?`
    case 'dns':
      return `Could not find ${host} (DNS): check ${(facts.settings ?? PROFILE_SETTINGS).address} and the network.`
    case 'dns-temporary':
      return `Could not look up ${host} just now (DNS).`
    case 'tls':
      return `The secure connection to ${host} failed${code}.`
    case 'certificate':
      return `The certificate of ${host} was not accepted${code}.`
    case 'no-route':
      return `Could not reach ${host}${code}. Is this computer online?`
    case 'connect-timeout':
      return `Could not connect to ${host} within ${formatSeconds(facts.timeouts?.connectMs)}.`
    case 'reset':
      return `The connection dropped before the request was completely sent${code}.`
    case 'total-timeout':
      return `The request could not be sent within ${formatSeconds(facts.timeouts?.totalMs)} (total timeout).`
    case 'response-timeout':
    case 'timeout':
      return 'The request timed out before it was completely sent.'
    default:
      return `The request could not be sent (${[facts.code, facts.detail].filter(Boolean).join(': ') || 'no reason given'}).`
  }
}

function dropLeadAfterSent(facts: DropFacts): string {
  switch (facts.reason) {
    case 'cancelled':
      return 'Sending was cancelled after the request was sent.'
    case 'reset':
      return 'The connection dropped after the request was sent (reset).'
    case 'response-timeout':
      return `No answer came within ${formatSeconds(facts.timeouts?.responseMs)} after the request was sent (response timeout).`
    case 'total-timeout':
      return `The request took longer than ${formatSeconds(facts.timeouts?.totalMs)} in all (total timeout).`
    case 'timeout':
      return 'The request timed out after it was sent.'
    default:
      return `The connection failed after the request was sent (${[facts.code, facts.detail].filter(Boolean).join(': ') || 'no reason given'}).`
  }
}

export function dropMessage(facts: DropFacts): string {
  return facts.bodySent
    ? `${dropLeadAfterSent(facts)} ${facts.empty ? emptyNothingDone(facts.operation) : maybeCreated(facts.operation)}`
    : `${dropLeadBeforeSent(facts)} ${nothingDone(facts.operation)}.`
}

/** Outcomes decided before any request, for want of a token. */
export const NO_TOKEN_MESSAGE =
  'No token is set for this profile, so nothing was sent. Set a token for this profile, then try again.'
export const TOKEN_UNREADABLE_MESSAGE =
  "The token for this profile could not be read from the system's keychain, so nothing was sent. Set the token for this profile again."
export const TOKEN_UNSENDABLE_MESSAGE =
  'The token for this profile contains spaces, line breaks or other characters a request header cannot carry, so nothing was sent. Set the token for this profile again.'

export function badAddressMessage(): string {
  return "The profile's base URL is not a valid http(s) address, so nothing was sent. Check the profile's base URL."
}

export function unencodableMessage(detail: string): string {
  return `The request could not be written as JSON (${detail}), so nothing was sent.`
}
