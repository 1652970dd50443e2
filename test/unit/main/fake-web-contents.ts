import type { App, Session, WebContents } from 'electron'
import { vi } from 'vitest'

type Listener = (...args: unknown[]) => unknown

/** The little of WebContents that the security code touches, recording what it registers. */
export function fakeWebContents() {
  const listeners = new Map<string, Listener[]>()
  let windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  const contents = {
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return contents
    },
    setWindowOpenHandler(handler: typeof windowOpenHandler) {
      windowOpenHandler = handler
    },
  }
  return {
    contents: contents as unknown as WebContents,
    listenerCount: (event: string) => listeners.get(event)?.length ?? 0,
    /** Emits `event` like Electron does and tells whether a listener cancelled it. */
    emit(event: string, url = 'about:blank'): { prevented: boolean } {
      const preventDefault = vi.fn()
      for (const listener of listeners.get(event) ?? []) listener({ url, preventDefault }, url)
      return { prevented: preventDefault.mock.calls.length > 0 }
    },
    openWindow(url: string) {
      if (!windowOpenHandler) throw new Error('no window open handler was set')
      return windowOpenHandler({ url })
    },
  }
}

/** A session recording its header listener and permission handlers. */
export function fakeSession() {
  const session = {
    webRequest: { onHeadersReceived: vi.fn<(listener: unknown) => void>() },
    setPermissionRequestHandler: vi.fn<(handler: unknown) => void>(),
    setPermissionCheckHandler: vi.fn<(handler: unknown) => void>(),
  }
  return { session, asSession: session as unknown as Session }
}

/** An app recording its event listeners, so a test can emit `web-contents-created` and friends. */
export function fakeApp() {
  const listeners = new Map<string, Listener[]>()
  const app = {
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return app
    }),
  }
  return {
    app,
    asApp: app as unknown as App,
    emit(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args)
    },
    listenerCount: (event: string) => listeners.get(event)?.length ?? 0,
  }
}
