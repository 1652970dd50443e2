// No electron import: the browser tests serve the built renderer with this same code over http.
import { readFile, realpath, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'

/** What a Vite build of the renderer can emit. Anything else is a 404. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
  // The preview's decoders (Draco, Basis), which three's loaders name for the bundler to emit,
  // and the face-landmark model's runtime (face-model/, electron.vite.config.ts).
  '.wasm': 'application/wasm',
  // The face-landmark model's weights, named by its model.json files (face-model/).
  '.bin': 'application/octet-stream',
}

/** Answers a request for one of the built renderer's files, as a fetch handler. */
export type AppFileServer = (request: Request) => Promise<Response>

/**
 * The headers of every answer on the app's origin, whatever it is (a file, a thumbnail, a 404):
 * the app's Content-Security-Policy, since any answer may end up shown as a document, and no
 * guessing of types, so bytes are only ever what their Content-Type says.
 */
export function appHeaders(policy: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'Content-Security-Policy': policy, 'X-Content-Type-Options': 'nosniff', ...extra }
}

/** A short plain-text answer (a 404, a refusal) with the app's headers, never kept by a cache. */
export function plainAnswer(
  policy: string,
  status: number,
  text: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(text, {
    status,
    headers: appHeaders(policy, {
      ...extra,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    }),
  })
}

/**
 * Serves the files under `root` (the built renderer, `out/renderer`) and nothing outside it, links
 * included: to the app's window through the `app:` protocol, and to the browser tests over http.
 * Every answer carries the app's Content-Security-Policy. Unknown paths are 404s, with no
 * single-page fallback: the router lives in the fragment, so only real files are ever asked for.
 */
export function appFileServer(root: string, policy: string): AppFileServer {
  const rootDir = resolve(root)
  // Links in the root's own path (a packaged app under a linked folder) are fine; links inside it
  // must not lead out, so files are compared by their real paths.
  const realRoot = realpath(rootDir).catch(() => rootDir)
  const plain = (status: number, text: string, extra?: Record<string, string>) =>
    plainAnswer(policy, status, text, extra)

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'Method Not Allowed', { Allow: 'GET, HEAD' })
    }
    const path = pathFor(rootDir, request.url)
    const type = path && CONTENT_TYPES[extname(path).toLowerCase()]
    const file = path && type ? await realFileWithin(await realRoot, path) : undefined
    const stats = file ? await stat(file).catch(() => undefined) : undefined
    if (!file || !type || !stats?.isFile()) return plain(404, 'Not Found')
    const body = request.method === 'HEAD' ? null : await readFile(file)
    return new Response(body, {
      status: 200,
      headers: appHeaders(policy, {
        'Content-Type': type,
        'Content-Length': String(stats.size),
        // What the bundler emits under assets/ is named by its content's hash, so a name never
        // stands for other bytes and may be kept; the rest has fixed names (the page, the sample
        // faces, the face model's files) and is fetched afresh.
        'Cache-Control': isHashedAsset(rootDir, path) ? 'max-age=31536000, immutable' : 'no-store',
      }),
    })
  }
}

/** Whether `path` is one of the bundler's content-hashed files (under the root's assets/). */
function isHashedAsset(rootDir: string, path: string): boolean {
  return path.startsWith(join(rootDir, 'assets') + sep)
}

/** Maps a request's path to a path under `rootDir` (checked for containment once resolved). */
function pathFor(rootDir: string, url: string): string | undefined {
  let pathname: string
  try {
    // Decoded after parsing, so an encoded `..%2f` reaches the containment check.
    pathname = decodeURIComponent(new URL(url).pathname)
  } catch {
    return undefined
  }
  if (pathname.includes('\0')) return undefined
  if (pathname.endsWith('/')) pathname += 'index.html'
  return resolve(rootDir, `.${pathname}`)
}

/**
 * The file's real path when it is inside the real root (`..` resolved, links followed); undefined
 * otherwise, or when there is no such file.
 */
async function realFileWithin(realRoot: string, path: string): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined)
  return real?.startsWith(realRoot + sep) ? real : undefined
}
