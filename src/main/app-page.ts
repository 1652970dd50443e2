import { pathToFileURL } from 'node:url'

export interface AppPageLocation {
  /** The renderer dev server (electron-vite's `ELECTRON_RENDERER_URL`); only honoured unpackaged. */
  devServerUrl?: string | undefined
  /** The built page, `out/renderer/index.html`. */
  rendererFile: string
}

/**
 * The app's own page: the only document the window may show and the only sender IPC trusts.
 * A query or fragment does not make another page (the router lives in the fragment); in development
 * the whole dev server origin is the app.
 */
export interface AppPage {
  readonly devServerUrl: string | undefined
  readonly rendererFile: string
  isAppUrl(url: string): boolean
}

export function appPage({ devServerUrl, rendererFile }: AppPageLocation): AppPage {
  const dev = devServerUrl ? new URL(devServerUrl) : undefined
  const file = pathToFileURL(rendererFile)
  return {
    devServerUrl: dev ? devServerUrl : undefined,
    rendererFile,
    isAppUrl(url) {
      const candidate = URL.parse(url)
      if (!candidate) return false
      if (dev) return candidate.origin === dev.origin
      return candidate.protocol === 'file:' && candidate.host === '' && candidate.pathname === file.pathname
    },
  }
}
