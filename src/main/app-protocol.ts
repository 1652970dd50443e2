// Electron is imported for its types only, so the handler can be tested in plain Node.
import type { CustomScheme } from 'electron'
import { plainAnswer } from '#node/app-files.ts'
import { appOrigin, type OriginHandler } from '#node/app-origin.ts'
import { THUMBNAIL_PATH } from '#shared/thumbnail-address.ts'
import { CONTENT_SECURITY_POLICY } from './content-security-policy.ts'

/**
 * The built app is served from `app://catalog-desk/` rather than `file://`: a page on `file://`
 * may read any file on the disk, and its origin is not one Chromium treats like a web origin. This
 * origin is standard and secure, so IndexedDB, Web Locks, `crypto.randomUUID` and module workers
 * behave as in the browser tests, and the page can fetch nothing but the renderer's own files and
 * the list's thumbnails, which main fetches for it (src/node/thumbnail-route.ts).
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

/**
 * The `app:` protocol's handler: the app's origin (the renderer's files under `rendererDir` and
 * the list's thumbnails) for the app's host only. Every answer carries the page's policy and
 * `nosniff`, the 404 for another host included.
 */
export function appProtocolHandler(rendererDir: string, thumbnails: OriginHandler): OriginHandler {
  const origin = appOrigin({ rendererDir, policy: CONTENT_SECURITY_POLICY, thumbnails })
  return async (request) => {
    if (URL.parse(request.url)?.host !== APP_HOST)
      return plainAnswer(CONTENT_SECURITY_POLICY, 404, 'Not Found')
    return origin(request)
  }
}

/**
 * Development (`npm run dev`): the page comes from the Vite dev server, which has no thumbnail
 * route. Main, handling `http:`, answers that one path of the dev server's origin itself and
 * passes every other request on unchanged (`passOn`: Electron's own network stack).
 */
export function devServerThumbnails(
  devServerUrl: string,
  thumbnails: OriginHandler,
  passOn: OriginHandler,
): OriginHandler {
  const devOrigin = new URL(devServerUrl).origin
  return (request) => {
    const url = URL.parse(request.url)
    return url?.origin === devOrigin && url.pathname === THUMBNAIL_PATH
      ? thumbnails(request)
      : passOn(request)
  }
}
