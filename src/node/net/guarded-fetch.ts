import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import http, { STATUS_CODES } from 'node:http'
import https from 'node:https'
import { extname } from 'node:path'
import got, { type PlainResponse } from 'got'
import { formatBytes } from '#shared/byte-size.ts'
import { isSampleAddress } from '#shared/sample-assets.ts'
import { isPublicAddress, literalAddress } from './local-addresses.ts'

/**
 * Downloads a file at an address that came from data (an imported sheet, a draft), for main. Such
 * an address is hostile until checked: it may name this computer or the local network (the
 * embedded sandbox's stored catalogue, a router, a cloud's metadata service), directly, through a
 * name that resolves there (DNS rebinding included) or through a redirect. So every connection's
 * address is checked when it is made, the first and each redirect's, and a local one is refused
 * before anything is sent, unless the person turned "Allow local addresses" on; a connection kept
 * for the next download is reused only under the setting it was made under. A refusal says
 * the same whatever listens there, so the errors never tell which local ports are open. A sample
 * address (the template's, under a `.invalid` host) is refused without a lookup: the callers that
 * show samples (preview-assets.ts, thumbnail-route.ts) answer it from the app's own files first.
 */
export interface GuardedFetchOptions {
  /** Read on every download: the setting can change while the app runs. Off unless the person turned it on. */
  allowLocalAddresses: () => boolean
  /** Larger downloads are cut off while they stream in. */
  maxBytes: number
  /** For the whole download, redirects included. */
  timeoutMs: number
  maxRedirects: number
  /**
   * The media types the caller takes. A generic one (none, octet-stream, text/plain) is replaced
   * by the type the file name's extension stands for in `typesByExtension`, then checked.
   * `'any'` takes every type: for a caller that reads what the bytes are itself (the asset checks
   * sniff them, and say what a server sent instead of a model), within the same size limit.
   */
  mediaTypes: ReadonlySet<string> | 'any'
  typesByExtension: Readonly<Record<string, string>>
  /** Sent as Accept. */
  accept: string
  /**
   * How a refusal of a local address says to allow it: the app's setting unless given (the CLI
   * names its flag).
   */
  allowHint?: string
  /**
   * How names resolve and which addresses count as public; the system's resolver and
   * `isPublicAddress` unless a test stands in for the internet on loopback.
   */
  network?: { lookup?: typeof dnsLookup; isPublic?: (address: string) => boolean }
}

export interface Fetched {
  bytes: Uint8Array
  /** The media type without parameters, as served or as the extension says. */
  contentType: string
  /** The address's last path segment, as a person would call the file. */
  name: string
}

/** What kind of failure a FetchError is, for callers that answer each differently (its message is for people). */
export type FetchFailure =
  /** An address nothing is fetched from: not http(s), credentials, a local address, a redirect to one. */
  | 'refused'
  /** The server answered, but not with a 2xx (`status` says which). */
  | 'status'
  | 'too-large'
  | 'media-type'
  | 'empty'
  | 'timeout'
  | 'redirects'
  /** No connection, or it broke before the whole file arrived. */
  | 'network'

/** "Could not load <address>: <reason>", the form every failure takes. */
export class FetchError extends Error {
  readonly code: FetchFailure
  /** The HTTP status, when the server answered with one that is not a success. */
  readonly status: number | undefined
  /** The size the server declared, when it was over the limit. */
  readonly declaredBytes: number | undefined

  constructor(
    address: string,
    reason: string,
    code: FetchFailure = 'network',
    extra: { status?: number; declaredBytes?: number } = {},
  ) {
    super(`Could not load ${shown(address)}: ${reason}`)
    this.name = 'FetchError'
    this.code = code
    this.status = extra.status
    this.declaredBytes = extra.declaredBytes
  }
}

/** Thrown by the lookup, so the failure names the address without ever connecting. */
class LocalAddressError extends Error {
  readonly code = 'ELOCALADDRESS'
  readonly reason: string
  constructor(reason: string) {
    super(reason)
    this.reason = reason
  }
}

const WEB_PROTOCOLS = new Set(['http:', 'https:'])
/** Served for files of any kind: the extension says more. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'text/plain'])
/** Long signed addresses would swamp the message; the start says which file it was. */
const MAX_SHOWN_ADDRESS = 160
const ALLOW_HINT = 'turn on “Allow local addresses” in Settings to load it'

/** Network error codes in words; the code itself stays in the message for whoever debugs it. */
const NETWORK_REASONS: Record<string, string> = {
  ENOTFOUND: 'no connection, the server name was not found',
  EAI_AGAIN: 'no connection, the server name could not be looked up',
  ECONNREFUSED: 'no connection, the server refused it',
  ECONNRESET: 'the connection was cut off',
  EHOSTUNREACH: 'no connection, the server cannot be reached',
  ENETUNREACH: 'no connection, the network cannot be reached',
  EPIPE: 'the connection was cut off',
}

function shown(address: string): string {
  return address.length > MAX_SHOWN_ADDRESS ? `${address.slice(0, MAX_SHOWN_ADDRESS - 1)}…` : address
}

function localRefusal(what: string, address: string, hint = ALLOW_HINT): string {
  return `${what} ${address}, an address on this computer or a local network, which is not loaded unless allowed: ${hint}`
}

/**
 * A lookup that fails when any address a name resolves to is local: a name that answers with a
 * public and a local address is as suspect as one that answers with a local one only. Node calls
 * it just before it connects, for the first request and for each redirect.
 */
function guardedLookup(
  lookup: typeof dnsLookup,
  isPublic: (address: string) => boolean,
  hint: string | undefined,
): (hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => void {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error)
      const local = addresses.find((entry) => !isPublic(entry.address))
      if (local)
        return callback(new LocalAddressError(localRefusal(`${hostname} resolves to`, local.address, hint)))
      if (options.all) return callback(null, addresses)
      const [first] = addresses
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }))
      return callback(null, first.address, first.family)
    })
  }
}

interface Agents {
  http: http.Agent
  https: https.Agent
}

/** The connections of one network's rules: one pool while local addresses are allowed, one while not. */
interface Pools {
  allowed: Agents
  guarded: Agents
  /** The setting the last download read. */
  allowLocal: boolean
}

/**
 * How long an idle connection is kept for the next download: under the 5 s after which Node's
 * servers (and Apache's) close an idle one, so a download never goes out on a connection the
 * server is closing at that moment (which fails as ECONNRESET, and downloads are not retried).
 */
const IDLE_MS = 4_000
/** Stands for the system's network (no `network` given) as a key of `poolsByNetwork`. */
const SYSTEM_NETWORK = {}
/** Per network: a test's stand-in judges addresses by its own rules, so it keeps its own connections. */
const poolsByNetwork = new WeakMap<object, Pools>()

function keptAliveAgents(): Agents {
  const options = { keepAlive: true, scheduling: 'lifo', timeout: IDLE_MS } as const
  return { http: new http.Agent(options), https: new https.Agent(options) }
}

function closeIdle(agents: Agents): void {
  for (const agent of [agents.http, agents.https]) {
    for (const sockets of Object.values(agent.freeSockets))
      for (const socket of sockets ?? []) socket.destroy()
  }
}

/**
 * The connections a download may reuse. Where a connection leads is checked only when it is made
 * (guardedLookup), so one made while local addresses were allowed could carry a request after they
 * no longer are, to a local address nothing would check again: each state of the setting has a
 * pool of its own, and the first download after the setting changes closes the other's idle ones.
 */
function agentsFor(network: GuardedFetchOptions['network'], allowLocal: boolean): Agents {
  const key = network ?? SYSTEM_NETWORK
  let pools = poolsByNetwork.get(key)
  if (!pools) {
    pools = { allowed: keptAliveAgents(), guarded: keptAliveAgents(), allowLocal }
    poolsByNetwork.set(key, pools)
  }
  if (pools.allowLocal !== allowLocal) {
    closeIdle(pools.allowLocal ? pools.allowed : pools.guarded)
    pools.allowLocal = allowLocal
  }
  return allowLocal ? pools.allowed : pools.guarded
}

/** Why `url` is not fetched, or undefined when it may be asked for (its name is checked on lookup). */
function refusal(
  url: URL | null,
  allowLocal: boolean,
  isPublic: (address: string) => boolean,
  hint?: string,
): string | undefined {
  if (!url || !WEB_PROTOCOLS.has(url.protocol)) return 'only http and https addresses are loaded'
  // got would turn them into an Authorization header; nothing fetched from data sends credentials.
  if (url.username || url.password) return 'addresses with a user name or password are not loaded'
  // The template's stand-ins for the shop's files (src/shared/sample-assets.ts): never looked up.
  if (isSampleAddress(url.href))
    return 'it is a sample address, which stands for the app’s bundled sample: replace it with your file’s address'
  const literal = literalAddress(url.hostname)
  if (!allowLocal && literal !== undefined && !isPublic(literal))
    return localRefusal('it points to', literal, hint)
  return undefined
}

export function guardedFetch(address: string, options: GuardedFetchOptions): Promise<Fetched> {
  return fetchGuarded(address, options, undefined).then((fetched) => {
    // Only a conditional request is answered "not modified"; this one never is.
    const { bytes, contentType, name } = fetched as FetchedAgain
    return { bytes, contentType, name }
  })
}

/** What tells a later request whether a file changed: its ETag and Last-Modified, as served. */
export interface Validators {
  etag?: string
  lastModified?: string
}

/** A file fetched with its validators, and the type the server declared (before any extension's). */
export interface FetchedAgain extends Fetched {
  notModified: false
  validators: Validators
  /** The Content-Type as served, without parameters ('' when none). */
  servedType: string
}

/** A conditional request answered 304: the file has not changed since the validators were given. */
export interface NotModified {
  notModified: true
  validators: Validators
}

/**
 * `guardedFetch` that also returns the file's validators and, given the validators of a copy the
 * caller kept, asks conditionally (If-None-Match, If-Modified-Since): a 304 answer means the copy
 * is still the file, and nothing is downloaded. The same guards apply to both.
 */
export function guardedFetchRevalidating(
  address: string,
  options: GuardedFetchOptions,
  kept?: Validators,
): Promise<FetchedAgain | NotModified> {
  return fetchGuarded(address, options, kept?.etag || kept?.lastModified ? kept : undefined)
}

function validatorsOf(response: PlainResponse): Validators {
  const validators: Validators = {}
  const { etag } = response.headers
  const lastModified = response.headers['last-modified']
  if (typeof etag === 'string' && etag) validators.etag = etag
  if (typeof lastModified === 'string' && lastModified) validators.lastModified = lastModified
  return validators
}

function fetchGuarded(
  address: string,
  options: GuardedFetchOptions,
  kept: Validators | undefined,
): Promise<FetchedAgain | NotModified> {
  const allowLocal = options.allowLocalAddresses()
  const isPublic = options.network?.isPublic ?? isPublicAddress
  const hint = options.allowHint
  const url = URL.parse(address)
  const refused = refusal(url, allowLocal, isPublic, hint)
  if (refused || !url)
    return Promise.reject(new FetchError(address, refused ?? 'not a web address', 'refused'))

  const headers: Record<string, string> = { accept: options.accept, 'user-agent': 'catalog-desk' }
  if (kept?.etag) headers['if-none-match'] = kept.etag
  if (kept?.lastModified) headers['if-modified-since'] = kept.lastModified

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    let settled = false
    /** Set when a redirect pointed somewhere nothing is fetched from. */
    let refusedRedirect: string | undefined
    let contentType = ''
    let servedType = ''
    let validators: Validators = {}

    let stream: ReturnType<typeof got.stream> | undefined
    const fail = (
      reason: string,
      code: FetchFailure,
      extra?: { status?: number; declaredBytes?: number },
    ) => {
      if (settled) return
      settled = true
      stream?.destroy()
      reject(new FetchError(address, reason, code, extra))
    }

    try {
      stream = got.stream(url, {
        method: 'GET',
        headers,
        agent: agentsFor(options.network, allowLocal),
        // The system resolver as it is when local addresses are allowed: nothing to refuse.
        dnsLookup: allowLocal
          ? options.network?.lookup
          : (guardedLookup(options.network?.lookup ?? dnsLookup, isPublic, hint) as typeof dnsLookup),
        followRedirect: (response: PlainResponse) => {
          const target = URL.parse(String(response.headers.location ?? ''), response.url)
          const why = refusal(target, allowLocal, isPublic, hint)
          if (why)
            refusedRedirect = `it was redirected to ${shown(target?.href ?? String(response.headers.location))}: ${why}`
          return why === undefined
        },
        maxRedirects: options.maxRedirects,
        retry: { limit: 0 },
        throwHttpErrors: false,
        timeout: { request: options.timeoutMs },
      })
    } catch (error) {
      fail(...failureReason(error, options))
      return
    }

    stream.on('response', (response: PlainResponse) => {
      if (refusedRedirect !== undefined) return fail(refusedRedirect, 'refused')
      const status = response.statusCode
      validators = validatorsOf(response)
      if (status === 304 && kept) {
        settled = true
        stream?.destroy()
        return resolve({ notModified: true, validators: { ...kept, ...validators } })
      }
      if (status < 200 || status > 299) {
        const words = STATUS_CODES[status]
        return fail(`the server answered HTTP ${status}${words ? ` (${words})` : ''}`, 'status', { status })
      }
      const declared = Number(response.headers['content-length'])
      if (declared > options.maxBytes) {
        return fail(`larger than ${formatBytes(options.maxBytes)}`, 'too-large', { declaredBytes: declared })
      }
      const header = String(response.headers['content-type'] ?? '')
      servedType = header.split(';')[0]!.trim().toLowerCase()
      contentType = mediaType(header, url, options.typesByExtension)
      if (options.mediaTypes !== 'any' && !options.mediaTypes.has(contentType)) {
        return fail(
          `the server sent ${contentType || 'a file of no declared type'}, not ${[...options.mediaTypes].join(', ')}`,
          'media-type',
        )
      }
    })
    stream.on('data', (chunk: Buffer) => {
      if (settled) return
      received += chunk.length
      if (received > options.maxBytes) {
        chunks.length = 0
        return fail(`larger than ${formatBytes(options.maxBytes)}`, 'too-large')
      }
      chunks.push(chunk)
    })
    stream.on('end', () => {
      if (settled) return
      if (received === 0) return fail('the server sent an empty file', 'empty')
      settled = true
      resolve({
        notModified: false,
        bytes: ownBytes(Buffer.concat(chunks)),
        contentType,
        name: fileName(url),
        validators,
        servedType,
      })
    })
    stream.on('error', (error: unknown) => fail(...failureReason(error, options)))
    stream.on('close', () => fail('the connection closed before the whole file arrived', 'network'))
  })
}

/**
 * The bytes in an ArrayBuffer of their own. IPC clones a typed array's whole buffer, and a small
 * Node Buffer is a view into a shared pool that may hold anything main handled recently.
 */
export function ownBytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer)
}

function failureReason(error: unknown, options: GuardedFetchOptions): [string, FetchFailure] {
  // got wraps what the lookup threw (a RequestError with it as the cause); the reason is the lookup's own.
  const cause = (error as { cause?: unknown } | undefined)?.cause
  if (cause instanceof LocalAddressError) return [cause.reason, 'refused']
  const { code, name } = (error ?? {}) as { code?: string; name?: string }
  if (name === 'MaxRedirectsError')
    return [`it was redirected more than ${options.maxRedirects} times`, 'redirects']
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    return [`no complete answer within ${formatDuration(options.timeoutMs)} (ETIMEDOUT)`, 'timeout']
  }
  if (code && NETWORK_REASONS[code]) return [`${NETWORK_REASONS[code]} (${code})`, 'network']
  if (code && /CERT|TLS|SSL/.test(code)) return [`the secure connection failed (${code})`, 'network']
  if (code) return [`no connection (${code})`, 'network']
  return [error instanceof Error ? error.message : 'the download failed', 'network']
}

/** The served type without parameters; a generic one is replaced by the one the file name's extension stands for. */
function mediaType(header: string, url: URL, typesByExtension: Readonly<Record<string, string>>): string {
  const served = header.split(';')[0]!.trim().toLowerCase()
  if (!GENERIC_TYPES.has(served)) return served
  return typesByExtension[extname(url.pathname).toLowerCase()] ?? served
}

function fileName(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).at(-1)
  if (!last) return url.hostname
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} seconds` : `${ms} ms`
}
