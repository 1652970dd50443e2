import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, resolve, sep } from 'node:path'
import { CONTENT_SECURITY_POLICY } from '../../../src/main/security.ts'

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.glb': 'model/gltf-binary',
  '.hdr': 'image/vnd.radiance',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
}

export interface StaticServer {
  /** Origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string
  close(): Promise<void>
}

/**
 * Serves the built renderer the way the app's window sees it: same files, same strict CSP header,
 * nothing outside `root`. Unknown paths are 404s (no SPA fallback: the app's router uses the hash).
 */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const rootDir = resolve(root)
  const server = createServer((request, response) => {
    serve(rootDir, request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, String(error))
      else response.destroy()
    })
  })
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolveListen())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections()
        server.close(() => resolveClose())
      }),
  }
}

async function serve(rootDir: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(response, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' })
    return
  }
  const file = resolveFile(rootDir, request.url ?? '/')
  const type = file && MIME_TYPES[extname(file).toLowerCase()]
  const stats = file && type ? await stat(file).catch(() => undefined) : undefined
  if (!file || !type || !stats?.isFile()) {
    send(response, 404, 'Not Found')
    return
  }
  response.writeHead(200, {
    ...commonHeaders(),
    'Content-Type': type,
    'Content-Length': stats.size,
  })
  if (request.method === 'HEAD') {
    response.end()
    return
  }
  createReadStream(file).pipe(response)
}

/** Maps a request path to a file strictly inside `rootDir`, or undefined. */
function resolveFile(rootDir: string, requestUrl: string): string | undefined {
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(requestUrl, 'http://localhost').pathname)
  } catch {
    return undefined
  }
  if (pathname.includes('\0')) return undefined
  if (pathname.endsWith('/')) pathname += 'index.html'
  const file = resolve(rootDir, `.${pathname}`)
  return file.startsWith(rootDir + sep) ? file : undefined
}

function commonHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  }
}

function send(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { ...commonHeaders(), ...headers, 'Content-Type': 'text/plain; charset=utf-8' })
  response.end(text)
}
