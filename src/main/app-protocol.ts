// Electron is imported for its types only, so the handler can be tested in plain Node.
import type { CustomScheme } from 'electron'
import { appFileServer } from '#node/app-files.ts'
import { CONTENT_SECURITY_POLICY } from './content-security-policy.ts'

/**
 * The built app is served from `app://catalog-desk/` rather than `file://`: a page on `file://`
 * may read any file on the disk, and its origin is not one Chromium treats like a web origin. This
 * origin is standard and secure, so IndexedDB, Web Locks, `crypto.randomUUID` and module workers
 * behave as in the browser tests, and the page can fetch nothing but the renderer's own files.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'catalog-desk'
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * Registered before the app is ready (Electron reads privileges once). `corsEnabled` lets
 * Chromium load module scripts and module workers from the scheme (Vite marks them `crossorigin`);
 * every request is same-origin, so nothing is shared with other origins.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
}

/** The `app:` protocol's handler: the renderer's files under `rendererDir`, for the app's host only. */
export function appProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const files = appFileServer(rendererDir, CONTENT_SECURITY_POLICY)
  return async (request) => {
    if (URL.parse(request.url)?.host !== APP_HOST) return new Response('Not Found', { status: 404 })
    return files(request)
  }
}
