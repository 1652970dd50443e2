import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SandboxContext } from './context.ts'
import { CapacityModelError, parseCapacityModel } from './capacity.ts'
import { FaultRuleError, parseFaultRules } from './faults.ts'
import { parseBarcodes } from './rejected-barcodes.ts'
import { changeSettings, runtimeSettingsOf, SettingsChangeError } from './runtime-settings.ts'
import { errorReply, invalidReply, jsonReply, send, type Reply } from './reply.ts'
import { BodyTooLargeError, isJsonContentType, parseJsonBody, readBody } from './request-body.ts'

/**
 * Inspection and control, for tests and for people trying the app. No token: the sandbox listens
 * on 127.0.0.1 only, so only this computer reaches it, and answers only requests addressed to
 * 127.0.0.1 or localhost (server.ts), so a web page cannot reach it through DNS rebinding. POST
 * needs a JSON content type, which a cross-site form cannot send without a CORS preflight the
 * sandbox never grants.
 */
export const CONTROL_PREFIX = '/__sandbox/'

export const CONTROL_ENDPOINTS = [
  [
    'GET',
    'received',
    'what was stored: {skus, apps}, each SKU as it now stands with its updates, and {dropped} once the oldest were let go',
  ],
  ['DELETE', 'received', 'forget what was stored'],
  ['GET', 'requests', 'every operation request and what happened to it: {requests}'],
  ['GET', 'faults', 'the active fault rules: {faults}'],
  ['POST', 'faults', 'add fault rules (a JSON array of rules, or one rule)'],
  ['DELETE', 'faults', 'remove every fault rule'],
  ['GET', 'rejected-barcodes', 'barcodes refused although valid: {barcodes}'],
  ['POST', 'rejected-barcodes', 'refuse these barcodes too (a JSON list of barcodes)'],
  ['DELETE', 'rejected-barcodes', 'refuse no barcode any more'],
  ['GET', 'capacity', 'the capacity model: {capacity}, null when off'],
  ['POST', 'capacity', 'set the capacity model: {latencyMs, slots, retryAfterSeconds?}'],
  ['DELETE', 'capacity', 'turn the capacity model off'],
  ['GET', 'settings', 'the settings that change while it runs: {settings: {answerIds}}'],
  ['POST', 'settings', 'change them: {"answerIds": false} answers bulk uploads without ids'],
] as const

const RULES_LIMIT = 1024 * 1024
const NO_CONTENT: Reply = { status: 204 }

/** A control request's JSON body, or the reply that says why it cannot be read. */
async function readControlJson(
  request: IncomingMessage,
  what: string,
): Promise<{ value: unknown } | { reply: Reply }> {
  if (!isJsonContentType(request.headers['content-type'])) {
    return {
      reply: errorReply(415, `Send the ${what} as JSON, with the header Content-Type: application/json`),
    }
  }
  let body: Buffer
  try {
    body = await readBody(request, RULES_LIMIT)
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return { reply: errorReply(413, error.message, { connection: 'close' }) }
    throw error
  }
  const parsed = parseJsonBody(body)
  if (!parsed.ok)
    return { reply: invalidReply('The body is not valid JSON', [{ path: '', message: parsed.message }]) }
  return { value: parsed.value }
}

async function addRejectedBarcodes(request: IncomingMessage, context: SandboxContext): Promise<Reply> {
  const read = await readControlJson(request, 'barcodes')
  if ('reply' in read) return read.reply
  try {
    for (const barcode of parseBarcodes(read.value)) context.rejectedBarcodes.add(barcode)
  } catch (error) {
    if (error instanceof RangeError)
      return invalidReply(error.message, [{ path: '', message: error.message }])
    throw error
  }
  return jsonReply(200, { barcodes: [...context.rejectedBarcodes] })
}

async function addFaults(request: IncomingMessage, context: SandboxContext): Promise<Reply> {
  const read = await readControlJson(request, 'rules')
  if ('reply' in read) return read.reply
  try {
    context.faults.add(parseFaultRules(read.value))
  } catch (error) {
    if (error instanceof FaultRuleError) return invalidReply('The fault rules are invalid', error.problems)
    throw error
  }
  return jsonReply(200, { faults: context.faults.list() })
}

async function setCapacity(request: IncomingMessage, context: SandboxContext): Promise<Reply> {
  const read = await readControlJson(request, 'capacity model')
  if ('reply' in read) return read.reply
  try {
    context.capacity.set(parseCapacityModel(read.value))
  } catch (error) {
    if (error instanceof CapacityModelError)
      return invalidReply('The capacity model is invalid', error.problems)
    throw error
  }
  return jsonReply(200, { capacity: context.capacity.model })
}

async function setSettings(request: IncomingMessage, context: SandboxContext): Promise<Reply> {
  const read = await readControlJson(request, 'settings')
  if ('reply' in read) return read.reply
  try {
    changeSettings(context.settings, read.value)
  } catch (error) {
    if (error instanceof SettingsChangeError) return invalidReply('The settings are invalid', error.problems)
    throw error
  }
  return jsonReply(200, { settings: runtimeSettingsOf(context.settings) })
}

async function route(request: IncomingMessage, name: string, context: SandboxContext): Promise<Reply> {
  const method = request.method ?? ''
  const allowed = CONTROL_ENDPOINTS.filter(([, endpoint]) => endpoint === name).map(([verb]) => verb)
  if (allowed.length === 0) return errorReply(404, `No control endpoint ${CONTROL_PREFIX}${name}`)
  if (!(allowed as string[]).includes(method)) {
    return errorReply(405, `Use ${allowed.join(' or ')} for ${CONTROL_PREFIX}${name}`, {
      allow: allowed.join(', '),
    })
  }
  switch (`${method} ${name}`) {
    case 'GET received':
      return jsonReply(200, context.store.snapshot())
    case 'DELETE received':
      await context.store.clear()
      return NO_CONTENT
    case 'GET requests':
      return jsonReply(200, { requests: context.log.list() })
    case 'GET faults':
      return jsonReply(200, { faults: context.faults.list() })
    case 'POST faults':
      return addFaults(request, context)
    case 'DELETE faults':
      context.faults.clear()
      return NO_CONTENT
    case 'GET rejected-barcodes':
      return jsonReply(200, { barcodes: [...context.rejectedBarcodes] })
    case 'POST rejected-barcodes':
      return addRejectedBarcodes(request, context)
    case 'DELETE rejected-barcodes':
      context.rejectedBarcodes.clear()
      return NO_CONTENT
    case 'GET capacity':
      return jsonReply(200, { capacity: context.capacity.model ?? null })
    case 'POST capacity':
      return setCapacity(request, context)
    case 'DELETE capacity':
      context.capacity.set(undefined)
      return NO_CONTENT
    case 'GET settings':
      return jsonReply(200, { settings: runtimeSettingsOf(context.settings) })
    case 'POST settings':
      return setSettings(request, context)
    default:
      return errorReply(404, `No control endpoint ${CONTROL_PREFIX}${name}`)
  }
}

export async function handleControl(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  context: SandboxContext,
): Promise<void> {
  try {
    send(response, await route(request, path.slice(CONTROL_PREFIX.length), context))
  } catch (error) {
    send(response, errorReply(500, `The sandbox failed: ${(error as Error).message}`))
  }
}
