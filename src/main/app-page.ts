import { APP_HOST, APP_PAGE_URL, APP_SCHEME } from './app-protocol.ts'

export interface AppPageLocation {
  /** The renderer dev server (electron-vite's `ELECTRON_RENDERER_URL`); only honoured unpackaged. */
  devServerUrl?: string | undefined
}

/**
 * The app's own page: the only document the window may show and the only sender IPC trusts.
 * Built, it is `app://catalog-desk/index.html` (see app-protocol.ts); in development the whole dev
 * server origin is the app. A query or fragment does not make another page (the router lives in
 * the fragment).
 */
export interface AppPage {
  readonly devServerUrl: string | undefined
  /** What the window loads. */
  readonly url: string
  isAppUrl(url: string): boolean
}

export function appPage({ devServerUrl }: AppPageLocation = {}): AppPage {
  const dev = devServerUrl ? new URL(devServerUrl) : undefined
  return {
    devServerUrl: dev ? devServerUrl : undefined,
    url: dev ? devServerUrl! : APP_PAGE_URL,
    isAppUrl(url) {
      const candidate = URL.parse(url)
      if (!candidate) return false
      if (dev) return candidate.origin === dev.origin
      // Compared part by part: `app:` is not a scheme Node's URL knows, so its origin reads "null".
      return (
        candidate.protocol === `${APP_SCHEME}:` &&
        candidate.host === APP_HOST &&
        !candidate.username &&
        !candidate.password &&
        candidate.pathname === '/index.html'
      )
    },
  }
}
