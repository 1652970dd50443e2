import { STATUS_CODES } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import got, { type PlainResponse } from 'got'
import type { PreviewAsset, PreviewAssetRequest } from '#shared/ipc.ts'

/** Loads what the AR preview shows: bundled samples from `resources/`, or assets from the web. */
export interface PreviewAssetLoader {
  load(request: PreviewAssetRequest): Promise<PreviewAsset>
}

export interface PreviewAssetLoaderOptions {
  /** The app's `resources` folder; the samples are in its `preview/` folder. */
  resourcesDir: string
  /** Larger downloads are cut off while they stream in. */
  maxBytes?: number
  /** For the whole download, redirects included. */
  timeoutMs?: number
}

export const DEFAULT_MAX_PREVIEW_BYTES = 50 * 1024 * 1024
export const DEFAULT_PREVIEW_TIMEOUT_MS = 20_000
/** Enough for a CDN's http → https → signed-address hops; more looks like a loop. */
export const MAX_PREVIEW_REDIRECTS = 3

const SAMPLES = {
  model: { file: 'sample-glasses.glb', contentType: 'model/gltf-binary' },
  environment: { file: 'studio.hdr', contentType: 'image/vnd.radiance' },
} as const

/** Media types by file extension, for servers that send none (or only application/octet-stream). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.hdr': 'image/vnd.radiance',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
}

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

const WEB_PROTOCOLS = new Set(['http:', 'https:'])
/** Long signed addresses would swamp the message; the start says which file it was. */
const MAX_SHOWN_ADDRESS = 160

export function createPreviewAssetLoader({
  resourcesDir,
  maxBytes = DEFAULT_MAX_PREVIEW_BYTES,
  timeoutMs = DEFAULT_PREVIEW_TIMEOUT_MS,
}: PreviewAssetLoaderOptions): PreviewAssetLoader {
  return {
    load: (request) =>
      request.source === 'sample'
        ? loadSample(resourcesDir, request.name)
        : download(request.url, { maxBytes, timeoutMs }),
  }
}

async function loadSample(resourcesDir: string, name: keyof typeof SAMPLES): Promise<PreviewAsset> {
  // An own-property lookup: the name comes from the renderer (checked by the contract, and again here).
  if (!Object.hasOwn(SAMPLES, name)) throw new Error(`There is no bundled preview sample called "${name}".`)
  const sample = SAMPLES[name]
  const path = join(resourcesDir, 'preview', sample.file)
  try {
    const bytes = await readFile(path)
    return {
      bytes: ownBytes(bytes),
      contentType: sample.contentType,
      name: sample.file,
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(
      `The bundled preview sample ${sample.file} could not be read from ${path} (${code ?? 'unknown error'}).`,
      { cause: error },
    )
  }
}

interface DownloadLimits {
  maxBytes: number
  timeoutMs: number
}

/** "Could not load <address>: <reason>", the form every download failure takes. */
class PreviewDownloadError extends Error {
  constructor(address: string, reason: string) {
    super(`Could not load ${shown(address)}: ${reason}`)
    this.name = 'PreviewDownloadError'
  }
}

/**
 * The bytes in an ArrayBuffer of their own. IPC clones a typed array's whole buffer, and a small
 * Node Buffer is a view into a shared pool that may hold anything main handled recently.
 */
function ownBytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer)
}

function shown(address: string): string {
  return address.length > MAX_SHOWN_ADDRESS ? `${address.slice(0, MAX_SHOWN_ADDRESS - 1)}…` : address
}

function download(address: string, limits: DownloadLimits): Promise<PreviewAsset> {
  const url = URL.parse(address)
  if (!url || !WEB_PROTOCOLS.has(url.protocol)) {
    return Promise.reject(new PreviewDownloadError(address, 'only http and https addresses can be loaded'))
  }
  // got would turn them into an Authorization header; the preview never sends credentials.
  if (url.username || url.password) {
    return Promise.reject(
      new PreviewDownloadError(address, 'addresses with a user name or password are not loaded'),
    )
  }

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    let settled = false
    /** Set when a redirect pointed somewhere the preview does not go. */
    let refusedRedirect: string | undefined
    let contentType = ''

    let stream: ReturnType<typeof got.stream> | undefined
    const fail = (reason: string) => {
      if (settled) return
      settled = true
      stream?.destroy()
      reject(new PreviewDownloadError(address, reason))
    }

    try {
      stream = got.stream(url, {
        method: 'GET',
        headers: { accept: 'model/gltf-binary, image/*;q=0.9, */*;q=0.5', 'user-agent': 'catalog-desk' },
        followRedirect: (response: PlainResponse) => {
          const target = URL.parse(String(response.headers.location ?? ''), response.url)
          if (!target || !WEB_PROTOCOLS.has(target.protocol) || target.username || target.password) {
            refusedRedirect = target?.href ?? String(response.headers.location)
            return false
          }
          return true
        },
        maxRedirects: MAX_PREVIEW_REDIRECTS,
        retry: { limit: 0 },
        throwHttpErrors: false,
        timeout: { request: limits.timeoutMs },
      })
    } catch (error) {
      fail(failureReason(error, limits))
      return
    }

    stream.on('response', (response: PlainResponse) => {
      const status = response.statusCode
      if (refusedRedirect !== undefined) {
        fail(`it was redirected to ${shown(refusedRedirect)}, which is not a web address the preview loads`)
        return
      }
      if (status < 200 || status > 299) {
        const words = STATUS_CODES[status]
        fail(`the server answered HTTP ${status}${words ? ` (${words})` : ''}`)
        return
      }
      const declared = Number(response.headers['content-length'])
      if (declared > limits.maxBytes) {
        fail(`larger than ${formatBytes(limits.maxBytes)}`)
        return
      }
      contentType = String(response.headers['content-type'] ?? '')
    })
    stream.on('data', (chunk: Buffer) => {
      if (settled) return
      received += chunk.length
      if (received > limits.maxBytes) {
        chunks.length = 0
        fail(`larger than ${formatBytes(limits.maxBytes)}`)
        return
      }
      chunks.push(chunk)
    })
    stream.on('end', () => {
      if (settled) return
      if (received === 0) {
        fail('the server sent an empty file')
        return
      }
      settled = true
      resolve({
        bytes: ownBytes(Buffer.concat(chunks)),
        contentType: mediaType(contentType, url),
        name: fileName(url),
      })
    })
    stream.on('error', (error: unknown) => fail(failureReason(error, limits)))
    stream.on('close', () => fail('the connection closed before the whole file arrived'))
  })
}

function failureReason(error: unknown, limits: DownloadLimits): string {
  const { code, name } = (error ?? {}) as { code?: string; name?: string }
  if (name === 'MaxRedirectsError') return `it was redirected more than ${MAX_PREVIEW_REDIRECTS} times`
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    return `no complete answer within ${formatDuration(limits.timeoutMs)} (ETIMEDOUT)`
  }
  if (code && NETWORK_REASONS[code]) return `${NETWORK_REASONS[code]} (${code})`
  if (code && /CERT|TLS|SSL/.test(code)) return `the secure connection failed (${code})`
  if (code) return `no connection (${code})`
  return error instanceof Error ? error.message : 'the download failed'
}

/** The served type without parameters; a generic one is replaced by a guess from the file name. */
function mediaType(header: string, url: URL): string {
  const served = header.split(';')[0]!.trim().toLowerCase()
  if (served && served !== 'application/octet-stream') return served
  return TYPES_BY_EXTENSION[extname(url.pathname).toLowerCase()] ?? (served || 'application/octet-stream')
}

/** The address's last path segment, as a person would call the file. */
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

export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MB`
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`
  return `${bytes} bytes`
}
