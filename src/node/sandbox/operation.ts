import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { createApp } from './app-create.ts'
import { authProblem, checkAuthorization } from './auth.ts'
import { bulkUpload } from './bulk-upload.ts'
import type { SandboxContext } from './context.ts'
import { delayOf, describeFault, faultReply, stageOf } from './faults.ts'
import type { FaultRule, SandboxEndpoint } from './options.ts'
import type { Processed } from './processed.ts'
import type { RequestLogEntry } from './request-log.ts'
import { updateSku } from './sku-update.ts'
import {
  BodyTooLargeError,
  declaresTooLarge,
  isJsonContentType,
  parseJsonBody,
  readBody,
} from './request-body.ts'
import { errorReply, invalidReply, resetConnection, send, type Reply } from './reply.ts'

/** An operation request's target: the operation its path names and, for an update, the SKU's id. */
export type OperationTarget = { endpoint: 'skus' | 'apps' } | { endpoint: 'sku-update'; skuId: string }

/** The one method each operation answers. */
const METHODS: Record<SandboxEndpoint, 'POST' | 'PUT'> = { skus: 'POST', apps: 'POST', 'sku-update': 'PUT' }

const rejected = (reply: Reply): Processed => ({ reply, stored: false, skuCount: null })

function tooLarge(limit: number): Processed {
  // Closing the connection spares reading the rest of a body the sandbox will not look at.
  return rejected(errorReply(413, `The request body is larger than ${limit} bytes`, { connection: 'close' }))
}

/**
 * The operation itself, in the order a service would check: the token (401), the content type
 * (415), the size (413), the JSON (400), then the operation's own checks.
 */
async function processRequest(
  request: IncomingMessage,
  target: OperationTarget,
  context: SandboxContext,
): Promise<Processed> {
  const { settings } = context
  const auth = checkAuthorization(request.headers.authorization, settings.token, settings.tokenEncoding)
  if (auth !== 'ok') {
    return rejected(
      errorReply(401, authProblem(auth, settings.tokenEncoding), { 'www-authenticate': 'Bearer' }),
    )
  }
  if (!isJsonContentType(request.headers['content-type'])) {
    return rejected(errorReply(415, 'Send the body as JSON, with the header Content-Type: application/json'))
  }
  if (declaresTooLarge(request, settings.maxBodyBytes)) return tooLarge(settings.maxBodyBytes)
  let body: Buffer
  try {
    body = await readBody(request, settings.maxBodyBytes)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return tooLarge(settings.maxBodyBytes)
    throw error
  }
  const parsed = parseJsonBody(body)
  if (!parsed.ok) {
    return rejected(invalidReply('The body is not valid JSON', [{ path: '', message: parsed.message }]))
  }
  switch (target.endpoint) {
    case 'skus':
      return bulkUpload(parsed.value, {
        maxBatch: settings.maxBatch,
        answerIds: settings.answerIds,
        store: context.store,
        now: context.now,
        rejectedBarcodes: context.rejectedBarcodes,
      })
    case 'apps':
      return createApp(parsed.value, {
        emptyNestedObjects: settings.emptyNestedObjects,
        store: context.store,
        now: context.now,
      })
    case 'sku-update':
      return updateSku(target.skuId, parsed.value, { store: context.store, now: context.now })
  }
}

/** Reads what the client sends and throws it away: answering mid-upload makes some clients see a reset. */
async function discardBody(request: IncomingMessage, limit: number): Promise<void> {
  try {
    await readBody(request, limit)
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error
  }
}

function answer(response: ServerResponse, entry: RequestLogEntry, reply: Reply): void {
  if (response.destroyed) {
    entry.status = 'abandoned'
    return
  }
  send(response, reply)
  entry.status = reply.status
}

function isClientGone(error: unknown): boolean {
  const { name, code } = error as { name?: string; code?: string }
  return name === 'AbortError' || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE'
}

/**
 * One request to an operation path. The first matching fault rule is taken as the request arrives,
 * before the token is checked, as a proxy or load balancer in front of the service would act. At
 * stage 'before' it happens instead of the operation; at stage 'after' the operation runs in full
 * (401, 400 and the rest included; a valid request is stored) and the fault replaces its answer.
 * A capacity model (`capacity`) acts after the fault rules, as the service behind them: a request
 * beyond its slots is answered 429 at once, one within them waits the model's latency first.
 * `signal` fires when the client goes away or the sandbox closes: any wait ends there.
 */
export async function handleOperation(
  request: IncomingMessage,
  response: ServerResponse,
  target: OperationTarget,
  context: SandboxContext,
  signal: AbortSignal,
): Promise<void> {
  const { endpoint } = target
  const entry = context.log.open({
    at: context.now().toISOString(),
    method: request.method ?? '',
    path: request.url ?? '',
    endpoint,
    status: 'pending',
    stored: false,
    skuCount: null,
    fault: null,
  })
  const method = METHODS[endpoint]
  if (request.method !== method) {
    answer(response, entry, errorReply(405, `Use ${method} for this operation`, { allow: method }))
    return
  }
  const rule = context.faults.take(endpoint)
  if (rule) entry.fault = describeFault(rule)
  try {
    if (rule && stageOf(rule) === 'before') {
      if (
        await answerWithFault(rule, response, entry, () =>
          discardBody(request, context.settings.maxBodyBytes),
        )
      ) {
        return
      }
      await sleep(delayOf(rule), undefined, { signal })
    }

    // The service itself, behind whatever the fault rules stand for: beyond its slots it refuses
    // at once (nothing processed); within them each request takes the model's latency.
    const slot = context.capacity.enter()
    if (slot === 'full') {
      entry.fault = `over capacity (${context.capacity.model?.slots ?? 0} at once)`
      await discardBody(request, context.settings.maxBodyBytes)
      answer(response, entry, context.capacity.fullReply())
      return
    }
    let processed: Processed
    try {
      if (slot) await sleep(slot.latencyMs, undefined, { signal })
      processed = await processRequest(request, target, context)
    } finally {
      slot?.release()
    }
    entry.stored = processed.stored
    entry.skuCount = processed.skuCount

    if (rule && stageOf(rule) === 'after') {
      if (await answerWithFault(rule, response, entry)) return
      await sleep(delayOf(rule), undefined, { signal })
    }
    answer(response, entry, processed.reply)
  } catch (error) {
    if (signal.aborted || isClientGone(error)) {
      entry.status = 'abandoned'
      return
    }
    // A store that cannot be written, or a bug: answered as the platform answers its own failures.
    answer(response, entry, errorReply(500, `The sandbox failed: ${(error as Error).message}`))
  }
}

/**
 * Answers in the service's place when the fault is a reset or an error status, and says whether it
 * did; a delay fault leaves the answer to the caller. `beforeAnswer` runs only for a status reply
 * (reading the unprocessed body, so the client is not cut off mid-upload).
 */
async function answerWithFault(
  rule: FaultRule,
  response: ServerResponse,
  entry: RequestLogEntry,
  beforeAnswer?: () => Promise<void>,
): Promise<boolean> {
  if (rule.kind === 'reset') {
    resetConnection(response)
    entry.status = 'reset'
    return true
  }
  const reply = faultReply(rule)
  if (!reply) return false
  await beforeAnswer?.()
  answer(response, entry, reply)
  return true
}
