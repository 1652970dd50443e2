import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Real asset files and a web server for them, for the asset checks' tests and benchmark: the CC0
 * models of `@pmndrs/assets` (Draco GLBs; `pmndrs` has a 2048×2048 JPEG texture) as bytes, copies
 * of them that differ by a mark in their JSON (distinct files, still valid), and a loopback server
 * that answers with ETag and Last-Modified, honours a conditional GET with 304, and records what
 * it was asked.
 */

export type PmndrsModel = 'bunny' | 'suzi' | 'pmndrs'

/** A model of `@pmndrs/assets`, decoded from the base64 data URL the package ships it as. */
export async function pmndrsModel(name: PmndrsModel): Promise<Uint8Array> {
  const module = (await import(`@pmndrs/assets/models/${name}.glb.js`)) as { default: string }
  return dataUrlBytes(module.default)
}

/** A texture of `@pmndrs/assets` (`react.webp`, a 512×461 lossy WebP), as bytes. */
export async function pmndrsTexture(name: 'react' | 'cloud' | 'pmndrs' | 'three'): Promise<Uint8Array> {
  const module = (await import(`@pmndrs/assets/textures/${name}.webp.js`)) as { default: string }
  return dataUrlBytes(module.default)
}

function dataUrlBytes(url: string): Uint8Array {
  return new Uint8Array(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'))
}

/**
 * The GLB with its JSON as `edit` leaves it (the JSON chunk rewritten and padded, the binary chunk
 * as it was); `pad` spaces more in the JSON make it larger.
 */
export function editedGlb(
  glb: Uint8Array,
  edit: (json: Record<string, unknown>) => void,
  pad = 0,
): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength)
  const jsonLength = view.getUint32(12, true)
  const json = JSON.parse(Buffer.from(glb.subarray(20, 20 + jsonLength)).toString('utf8')) as Record<
    string,
    unknown
  >
  edit(json)
  let text = JSON.stringify(json) + ' '.repeat(pad)
  while (Buffer.byteLength(text) % 4 !== 0) text += ' '
  const newJson = Buffer.from(text, 'utf8')
  const rest = glb.subarray(20 + jsonLength)
  const out = Buffer.alloc(12 + 8 + newJson.length + rest.length)
  out.write('glTF', 0, 'latin1')
  out.writeUInt32LE(2, 4)
  out.writeUInt32LE(out.length, 8)
  out.writeUInt32LE(newJson.length, 12)
  out.writeUInt32LE(0x4e4f534a, 16)
  newJson.copy(out, 20)
  Buffer.from(rest).copy(out, 20 + newJson.length)
  return new Uint8Array(out)
}

/** The GLB with `asset.extras` set: another file, as valid as the first. */
export function markedGlb(glb: Uint8Array, extras: Record<string, unknown>, pad = 0): Uint8Array {
  return editedGlb(
    glb,
    (json) => {
      const asset = json.asset as Record<string, unknown>
      asset.extras = { ...(asset.extras as object | undefined), ...extras }
    },
    pad,
  )
}

/**
 * A .gltf whose `extras` nest lists `levels` deep: valid JSON, which the glTF-Validator walks by
 * recursion (20,000 levels overflow its stack, outside the promise it returned).
 */
export function nestedGltf(levels: number): Uint8Array {
  return new TextEncoder().encode(
    `{"asset":{"version":"2.0"},"extras":${'['.repeat(levels)}${']'.repeat(levels)}}`,
  )
}

export interface Served {
  body: Uint8Array | string
  type?: string
  status?: number
  /** Holds the answer back that long (the server's `delayMs` otherwise). */
  delayMs?: number
}

export interface SeenRequest {
  path: string
  headers: IncomingHttpHeaders
  /** What the server answered. */
  status: number
}

export interface AssetServer {
  url: string
  /** Every request, in order. */
  seen: SeenRequest[]
  /** Changes a file from now on (a new ETag with it). */
  set(path: string, served: Served): void
  close(): Promise<void>
}

/**
 * Serves `files` by path on `host` (a loopback address, 127.0.0.1 unless told; a port of its own), each 200 with its type, an ETag (of
 * its bytes) and a Last-Modified, or 304 when a conditional GET names its ETag. A path it does not
 * have is a 404 page. `delayMs` holds each answer back that long, as a distant server's round trip would.
 */
export async function serveAssets(
  files: Record<string, Served>,
  host = '127.0.0.1',
  options: { delayMs?: number } = {},
): Promise<AssetServer> {
  const table = new Map(Object.entries(files))
  const seen: SeenRequest[] = []
  const lastModified = new Date(Date.UTC(2025, 0, 1)).toUTCString()
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const file = table.get(path)
    const answer = (status: number, headers: Record<string, string> = {}, body?: Uint8Array | string) => {
      seen.push({ path, headers: request.headers, status })
      const send = () => {
        response.writeHead(status, headers)
        response.end(body)
      }
      const delay = file?.delayMs ?? options.delayMs
      if (delay) setTimeout(send, delay)
      else send()
    }
    if (!file) return answer(404, { 'content-type': 'text/html' }, '<!doctype html><title>Not found</title>')
    const etag = `"${createHash('sha256').update(file.body).digest('hex').slice(0, 16)}"`
    const status = file.status ?? 200
    if (status === 200 && request.headers['if-none-match'] === etag) return answer(304, { etag })
    answer(
      status,
      {
        'content-type': file.type ?? 'application/octet-stream',
        'content-length': String(Buffer.byteLength(file.body)),
        etag,
        'last-modified': lastModified,
      },
      file.body,
    )
  })
  await new Promise<void>((listening) => server.listen(0, host, listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    seen,
    set: (path, served) => void table.set(path, served),
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}
