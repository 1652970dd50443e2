// Electron is imported for its types only: the browser test harness imports the policy from here
// in plain Node. Main passes in the Electron objects to harden.
import type { App, Session, WebContents } from 'electron'
import { externalLink } from './external-link.ts'

export {
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  META_CONTENT_SECURITY_POLICY,
} from './content-security-policy.ts'

export interface WebContentsPolicy {
  /** The app's own page (see app-page.ts): the only place a window may navigate to. */
  isAppUrl(url: string): boolean
  /** Opens a link in the user's browser; called with the href of a parsed https link only. */
  openExternal(url: string): Promise<void>
}

/**
 * Sends `policy` as the Content-Security-Policy of every http(s) response, replacing any the server
 * sent: the dev server's pages. Electron does not run these hooks for the `app:` protocol, whose
 * files carry the policy themselves (app-files.ts), as does index.html's meta tag.
 */
export function applyContentSecurityPolicy(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    )
    callback({ responseHeaders: { ...responseHeaders, 'Content-Security-Policy': [policy] } })
  })
}

/** Lets the try-on's camera through once: the page calls it (over IPC) when the person clicks "Turn camera on". */
export interface CameraPermission {
  allowOnce(): void
}

/** How long a click lets the camera be asked for: the page asks at once; a stale click grants nothing. */
export const CAMERA_CLICK_MS = 30_000

/**
 * Permissions: the app needs no location, notifications, microphone, … and the camera only for the
 * try-on (issue #39), only once the person has turned it on. A request is granted only if it is for
 * `media` with exactly `video`, from the app's own page in the main frame, and a click armed the
 * grant within CAMERA_CLICK_MS; the request takes the grant, so each click lets one request
 * through. Everything else is refused, as is every permission check (which only decides what
 * APIs such as enumerateDevices reveal; getUserMedia asks the request handler).
 */
export function handlePermissions(
  session: Session,
  policy: Pick<WebContentsPolicy, 'isAppUrl'>,
  now: () => number = Date.now,
): CameraPermission {
  let armedAt: number | undefined
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const clickedAt = armedAt
    const media = permission === 'media' && 'mediaTypes' in details ? details.mediaTypes : undefined
    const wanted =
      media?.length === 1 &&
      media[0] === 'video' &&
      details.isMainFrame === true &&
      policy.isAppUrl(details.requestingUrl) &&
      clickedAt !== undefined &&
      now() - clickedAt <= CAMERA_CLICK_MS
    if (wanted) armedAt = undefined
    callback(wanted)
  })
  session.setPermissionCheckHandler(() => false)
  return {
    allowOnce: () => {
      armedAt = now()
    },
  }
}

/**
 * Keeps `contents` on the app's page: navigations and redirects elsewhere are cancelled, new
 * windows are never created (https links go to the user's browser instead), webviews never attach.
 */
export function lockDownWebContents(contents: WebContents, policy: WebContentsPolicy): void {
  const stayOnAppPage = (event: { url: string; preventDefault(): void }) => {
    if (!policy.isAppUrl(event.url)) event.preventDefault()
  }
  contents.on('will-navigate', stayOnAppPage)
  contents.on('will-redirect', stayOnAppPage)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    const link = externalLink(url)
    if (link !== undefined) {
      policy.openExternal(link).catch((error: unknown) => console.error('Could not open a link', error))
    }
    return { action: 'deny' }
  })
}

/** Locks down every web contents the app ever creates; call before the first window opens. */
export function lockDownAllWebContents(app: App, policy: WebContentsPolicy): void {
  app.on('web-contents-created', (_event, contents) => lockDownWebContents(contents, policy))
}
