import { endpointUrl } from '#shared/service/endpoints.ts'
import { operationPath, serviceOperation, type OperationCall } from '#shared/service/operations.ts'
import { PROCESSED, type Outcome, type OutcomeKind } from '#shared/service/outcome.ts'
import type { Timeouts, TokenEncoding } from '#shared/profile.ts'
import type { SyncTransport } from '#shared/sync/ports.ts'
import { createAgents, postJson } from './json-post.ts'
import { classifyAnswer, classifyFailure } from './outcome-classification.ts'
import {
  NO_TOKEN_MESSAGE,
  TOKEN_UNREADABLE_MESSAGE,
  TOKEN_UNSENDABLE_MESSAGE,
  badAddressMessage,
  unencodableMessage,
  type SettingsNamed,
} from './outcome-messages.ts'
import { createRedactor, type Redact } from '../secrets/redaction.ts'
import { redactOutcome } from './redact-outcome.ts'
import { showable } from './untrusted-text.ts'

/**
 * The service client: one request per call, classified into an Outcome. Resending is never done
 * here (see src/shared/service/resend.ts): the bulk endpoint is not idempotent, so only the caller,
 * knowing the outcome, may decide. Plain Node, no Electron: the CLI uses it as it is. Every
 * operation goes through `send`, built from its entry in the operation table
 * (src/shared/service/operations.ts): method, path and body are the table's, never the caller's.
 */

export interface ServiceClientConfig {
  baseUrl: string
  tokenEncoding: TokenEncoding
  timeouts: Timeouts
  /** Asked before every request, so a token set or cleared meanwhile takes effect at once. */
  getToken(): Promise<string | undefined>
  /** How much of an answer is read; beyond it the answer is classified by its status alone. */
  maxResponseBytes?: number
  userAgent?: string
  /** Where the address and token were set, as messages' advice names them: the profile's when absent. */
  settings?: SettingsNamed
}

export interface SendOptions {
  signal?: AbortSignal
}

export interface ServiceClient {
  /** One request of an operation of the table, for its argument (the sync engine's transport as it is). */
  send(request: OperationCall, options?: SendOptions): Promise<Outcome>
}

/**
 * The client as the sync engine's transport where the process that sends is the one that writes
 * the outcome (the CLI): no page can be gone before the answer, so the request's id is not kept.
 */
export function clientTransport(client: ServiceClient): SyncTransport {
  return { send: (request) => client.send(request) }
}

export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024
export const DEFAULT_USER_AGENT = 'catalog-desk'

/** Visible ASCII only: a raw token is sent as it is, and a header cannot carry spaces or line breaks. */
const SENDABLE_RAW_TOKEN = /^[\x21-\x7e]+$/

/** Whether `token` can be sent in the encoding given: base64 carries anything, raw only visible ASCII. */
export function isSendableToken(token: string, encoding: TokenEncoding): boolean {
  return encoding !== 'raw' || SENDABLE_RAW_TOKEN.test(token)
}

export function bearerValue(token: string, encoding: TokenEncoding): string {
  return encoding === 'base64' ? Buffer.from(token, 'utf8').toString('base64') : token
}

function notSent(kind: OutcomeKind, message: string): Outcome {
  return { kind, processed: PROCESSED[kind], message, durationMs: 0 }
}

function isHttpUrl(value: string): boolean {
  const url = URL.parse(value)
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:')
}

export function createServiceClient(config: ServiceClientConfig): ServiceClient {
  const maxResponseBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const agents = createAgents()

  async function readToken(): Promise<{ token: string } | { outcome: Outcome }> {
    try {
      const token = await config.getToken()
      if (!token) return { outcome: notSent('needs-token', NO_TOKEN_MESSAGE) }
      if (!isSendableToken(token, config.tokenEncoding)) {
        return { outcome: notSent('needs-token', TOKEN_UNSENDABLE_MESSAGE) }
      }
      return { token }
    } catch {
      // The keychain's error is not shown: it is not the person's business and could say anything.
      return { outcome: notSent('needs-token', TOKEN_UNREADABLE_MESSAGE) }
    }
  }

  async function send({ operation, argument }: OperationCall, options: SendOptions = {}) {
    const definition = serviceOperation(operation)
    const read = await readToken()
    if ('outcome' in read) return read.outcome
    const redact: Redact = createRedactor(read.token)

    const path = operationPath(definition, argument)
    // A parameter that is not one (checked in main's IPC schema already) is the item's fault, not the address's.
    if ('problem' in path) return redactOutcome(notSent('rejected', path.problem), redact)
    const url = endpointUrl(config.baseUrl, path.path)
    if (url === undefined || !isHttpUrl(url)) return notSent('wrong-address', badAddressMessage())
    let body: string
    try {
      body = JSON.stringify(definition.body(argument))
    } catch (error) {
      // Rejected, not thrown: the sync engine then splits the batch down to the item that cannot be
      // written and marks it, as it does for an item the service refuses.
      const detail = error instanceof Error ? showable(error.message, 200, redact) : 'not serialisable'
      return redactOutcome(notSent('rejected', unencodableMessage(detail)), redact)
    }

    const result = await postJson({
      method: definition.method,
      url,
      body,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${bearerValue(read.token, config.tokenEncoding)}`,
        'user-agent': config.userAgent ?? DEFAULT_USER_AGENT,
      },
      timeouts: config.timeouts,
      maxResponseBytes,
      agents,
      signal: options.signal,
    })
    const context = {
      durationMs: result.durationMs,
      redact,
      operation,
      empty: Array.isArray(argument) && argument.length === 0,
      host: new URL(url).host,
      timeouts: config.timeouts,
      maxResponseBytes,
      settings: config.settings,
    }
    const outcome =
      result.kind === 'answer'
        ? classifyAnswer(result, context)
        : classifyFailure(result.error, {
            ...context,
            bodySent: result.bodySent,
            cancelled: result.cancelled,
          })
    return redactOutcome(outcome, redact)
  }

  return { send }
}
