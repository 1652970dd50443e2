import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH, SKU_UPDATE_PATH } from '#shared/service/endpoints.ts'
import type { SandboxContext, SandboxSettings } from './context.ts'
import { CapacityGate } from './capacity.ts'
import { CONTROL_PREFIX, handleControl } from './control.ts'
import { FaultBook, seededRandom, type ActiveFault } from './faults.ts'
import { handleOperation, type OperationTarget } from './operation.ts'
import type { CapacityModel, FaultRule, SandboxOptions, SandboxTokenEncoding } from './options.ts'
import { ReceivedStore, type Received } from './received-store.ts'
import { changeSettings, runtimeSettingsOf, type SandboxRuntimeSettings } from './runtime-settings.ts'
import { RequestLog, type RequestLogEntry } from './request-log.ts'
import { errorReply, send } from './reply.ts'
import { parseBarcodes } from './rejected-barcodes.ts'

export type { CapacityModel, FaultRule, SandboxOptions } from './options.ts'
export type { Received, ReceivedApp, ReceivedSku, ReceivedUpdate } from './received-store.ts'
export type { SandboxRuntimeSettings } from './runtime-settings.ts'
export type { RequestLogEntry } from './request-log.ts'

/** A running sandbox. */
export interface Sandbox {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string
  port: number
  /** Something to tell whoever started it: the store file could not be used and was set aside. */
  notice?: string
  /**
   * Stops listening, drops every open connection (pending slow answers included), and resolves once
   * the handlers have wound up and the store file is written.
   */
  close(): Promise<void>
  /** Adds rules after the active ones; throws on an invalid rule. */
  addFaults(rules: FaultRule[]): void
  clearFaults(): void
  /** The active rules and how many more requests each applies to. */
  faults(): ActiveFault[]
  received(): Received
  requests(): RequestLogEntry[]
  clearReceived(): Promise<void>
  /** Adds barcodes the sandbox refuses (422) although they are valid; see `rejectBarcodes`. */
  rejectBarcodes(barcodes: string[]): void
  /** The barcodes it refuses now. */
  rejectedBarcodes(): string[]
  /** Sets the capacity model (see `SandboxOptions.capacity`); undefined turns it off. Throws on an invalid one. */
  setCapacity(model: CapacityModel | undefined): void
  /** The capacity model in force; undefined when off. */
  capacity(): CapacityModel | undefined
  /** The settings that can change while it runs (see `SandboxOptions.answerIds`). */
  settings(): SandboxRuntimeSettings
  /** Changes those given; throws on an invalid change. */
  changeSettings(change: Partial<SandboxRuntimeSettings>): void
}

export const DEFAULT_MAX_BATCH = 200
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024

// A Map, so a request target such as `toString` cannot find an inherited property.
const OPERATIONS = new Map<string, OperationTarget>([
  [BULK_UPLOAD_PATH, { endpoint: 'skus' }],
  [CREATE_APP_PATH, { endpoint: 'apps' }],
])

/** `…/skus/`: what a SKU's update address starts with; its id is the one segment after it. */
const SKU_UPDATE_PREFIX = SKU_UPDATE_PATH.slice(0, SKU_UPDATE_PATH.indexOf('{skuId}'))

/** The operation a path names, or undefined. The bulk upload's path is its own, not an update's. */
function operationAt(path: string): OperationTarget | undefined {
  const exact = OPERATIONS.get(path)
  if (exact) return exact
  if (!path.startsWith(SKU_UPDATE_PREFIX)) return undefined
  const skuId = path.slice(SKU_UPDATE_PREFIX.length)
  return skuId === '' || skuId.includes('/') ? undefined : { endpoint: 'sku-update', skuId }
}

const TOKEN_ENCODINGS: readonly SandboxTokenEncoding[] = ['raw', 'base64', 'either']

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a whole number of at least 1`)
  return value
}

function settingsOf(options: SandboxOptions): SandboxSettings {
  if (typeof options.token !== 'string' || options.token === '')
    throw new TypeError('The sandbox needs a token')
  const tokenEncoding = options.tokenEncoding ?? 'raw'
  if (!TOKEN_ENCODINGS.includes(tokenEncoding)) {
    throw new RangeError(`tokenEncoding must be one of ${TOKEN_ENCODINGS.join(', ')}`)
  }
  return {
    token: options.token,
    tokenEncoding,
    maxBatch: positiveInteger(options.maxBatch, DEFAULT_MAX_BATCH, 'maxBatch'),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    emptyNestedObjects: options.emptyNestedObjects ?? true,
    answerIds: options.answerIds ?? true,
  }
}

/** Aborts when the response ends without being answered: the client went away or the sandbox closed. */
function abandonSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController()
  response.once('close', () => {
    if (!response.writableFinished) controller.abort()
  })
  return controller.signal
}

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '').split('?')[0] ?? ''
}

/**
 * Starts a sandbox of the service on 127.0.0.1 (never another interface: it has no real
 * security). Resolves once it listens; rejects if the port is taken (unless `unavailablePort` says
 * otherwise) or the store file is unreadable.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const port = options.port ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new RangeError('port must be 0 to 65535')
  const faults = new FaultBook(seededRandom(options.faultSeed ?? 1))
  faults.add(options.faults ?? [])
  const rejectedBarcodes = new Set(parseBarcodes(options.rejectBarcodes ?? []))
  const context: SandboxContext = {
    settings: settingsOf(options),
    store: await ReceivedStore.open({
      file: options.storeFile,
      maxBytes: options.maxStoreBytes,
      unusable: options.unusableStore,
    }),
    faults,
    capacity: new CapacityGate(options.capacity),
    log: new RequestLog(),
    rejectedBarcodes,
    now: () => new Date(),
  }

  let boundPort = 0
  /** Handlers still running, so close() resolves only once every request's log entry is final. */
  const inFlight = new Set<Promise<void>>()
  const server = createServer((request, response) => {
    const path = pathOf(request)
    const target = operationAt(path)
    const done = !addressedToLoopback(request.headers.host, boundPort)
      ? misdirected(response)
      : target
        ? handleOperation(request, response, target, context, abandonSignal(response))
        : path.startsWith(CONTROL_PREFIX)
          ? handleControl(request, response, path, context)
          : notFound(request, response, path, context)
    // The handlers answer their own failures; this only keeps a bug from becoming an unhandled rejection.
    const settled = done.catch(() => {
      response.destroy()
    })
    inFlight.add(settled)
    void settled.finally(() => inFlight.delete(settled))
  })

  await listen(server, port).catch((error: unknown) => {
    // Here rather than by starting again: a store set aside by the first start would be forgotten,
    // notice and all. Port 0 failing leaves nothing to fall back to.
    if (port === 0 || options.unavailablePort !== 'free-port') throw error
    return listen(server, 0)
  })
  boundPort = (server.address() as AddressInfo).port

  let closing: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    ...(context.store.notice ? { notice: context.store.notice } : {}),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Open keep-alive sockets and requests still waiting (slow responses) would hold close() forever.
        server.closeAllConnections()
      })
        .then(() => Promise.allSettled(inFlight))
        .then(() => context.store.idle())
      return closing
    },
    addFaults: (rules) => faults.add(rules),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    received: () => context.store.snapshot(),
    requests: () => context.log.list(),
    clearReceived: () => context.store.clear(),
    rejectBarcodes: (barcodes) => {
      for (const barcode of parseBarcodes(barcodes)) rejectedBarcodes.add(barcode)
    },
    rejectedBarcodes: () => [...rejectedBarcodes],
    setCapacity: (model) => context.capacity.set(model),
    capacity: () => context.capacity.model,
    settings: () => runtimeSettingsOf(context.settings),
    changeSettings: (change) => changeSettings(context.settings, change),
  }
}

/** Listens on 127.0.0.1 only; rejects when the port cannot be had, and the server may listen again. */
function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/**
 * Whether a request names the sandbox by its loopback address. The sandbox has no real security
 * (its token is public), so a request for another host name, which is what a web page reaching it
 * through DNS rebinding sends, is refused on every path, operations included.
 */
function addressedToLoopback(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

async function misdirected(response: ServerResponse): Promise<void> {
  send(response, errorReply(403, 'The sandbox answers only requests addressed to 127.0.0.1 or localhost'))
}

async function notFound(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  context: SandboxContext,
): Promise<void> {
  const reply = errorReply(404, `No operation at ${request.method ?? ''} ${path}`)
  context.log.open({
    at: context.now().toISOString(),
    method: request.method ?? '',
    path: request.url ?? '',
    endpoint: null,
    status: reply.status,
    stored: false,
    skuCount: null,
    fault: null,
  })
  send(response, reply)
}
