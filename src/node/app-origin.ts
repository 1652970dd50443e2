// No electron import: the browser tests serve the app's origin with this same code over http.
import { THUMBNAIL_PATH } from '#shared/thumbnail-address.ts'
import { appFileServer } from './app-files.ts'

/** Answers a request on the app's origin, as a fetch handler. */
export type OriginHandler = (request: Request) => Promise<Response>

export interface AppOriginOptions {
  /** The built renderer (`out/renderer`). */
  rendererDir: string
  /** The page's Content-Security-Policy, sent with every answer. */
  policy: string
  /** The list's photos, fetched by main (thumbnail-route.ts). */
  thumbnails: OriginHandler
}

/**
 * Everything the app's origin answers: the thumbnail route at its path, the renderer's files at
 * every other. The app's window reaches it through the `app:` protocol (src/main/app-protocol.ts),
 * the browser tests over http (test/e2e/harness/static-server.ts).
 */
export function appOrigin({ rendererDir, policy, thumbnails }: AppOriginOptions): OriginHandler {
  const files = appFileServer(rendererDir, policy)
  return (request) =>
    URL.parse(request.url)?.pathname === THUMBNAIL_PATH ? thumbnails(request) : files(request)
}
