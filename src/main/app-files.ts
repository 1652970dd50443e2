// No electron import: the browser tests serve the built renderer with this same code over http.
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { CONTENT_SECURITY_POLICY } from './content-security-policy.ts'

/** The types the renderer's build emits, and the preview's bundled kinds. Anything else is a 404. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.glb': 'model/gltf-binary',
  '.hdr': 'image/vnd.radiance',
}

/** Answers a request for one of the built renderer's files, as a fetch handler. */
export type AppFileServer = (request: Request) => Promise<Response>

/**
 * Serves the files under `root` (the built renderer, `out/renderer`) and nothing outside it: to
 * the app's window through the `app:` protocol, and to the browser tests over http. Every answer
 * carries the app's Content-Security-Policy. Unknown paths are 404s, with no single-page fallback:
 * the router lives in the fragment, so only real files are ever asked for.
 */
export function appFileServer(root: string, policy = CONTENT_SECURITY_POLICY): AppFileServer {
  const rootDir = resolve(root)
  const headers = (extra: Record<string, string>) => ({
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...extra,
  })
  const plain = (status: number, text: string, extra: Record<string, string> = {}) =>
    new Response(text, {
      status,
      headers: headers({ ...extra, 'Content-Type': 'text/plain; charset=utf-8' }),
    })

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'Method Not Allowed', { Allow: 'GET, HEAD' })
    }
    const file = fileFor(rootDir, request.url)
    const type = file && CONTENT_TYPES[extname(file).toLowerCase()]
    const stats = file && type ? await stat(file).catch(() => undefined) : undefined
    if (!file || !type || !stats?.isFile()) return plain(404, 'Not Found')
    const body = request.method === 'HEAD' ? null : await readFile(file)
    return new Response(body, {
      status: 200,
      headers: headers({ 'Content-Type': type, 'Content-Length': String(stats.size) }),
    })
  }
}

/** Maps a request's path to a file strictly inside `rootDir`, or undefined. */
function fileFor(rootDir: string, url: string): string | undefined {
  let pathname: string
  try {
    // Decoded after parsing, so an encoded `..%2f` is caught by the containment check below.
    pathname = decodeURIComponent(new URL(url).pathname)
  } catch {
    return undefined
  }
  if (pathname.includes('\0')) return undefined
  if (pathname.endsWith('/')) pathname += 'index.html'
  const file = resolve(rootDir, `.${pathname}`)
  return file.startsWith(rootDir + sep) ? file : undefined
}
