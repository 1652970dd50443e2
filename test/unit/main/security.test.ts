import { describe, expect, it, vi } from 'vitest'
import {
  applyContentSecurityPolicy,
  CONTENT_SECURITY_POLICY,
  lockDownAllWebContents,
  lockDownWebContents,
} from '#main/security.ts'
import { fakeApp, fakeSession, fakeWebContents } from './fake-web-contents.ts'

const APP_URL = 'file:///opt/catalog-desk/out/renderer/index.html'
const isAppUrl = (url: string) => url.split('#')[0] === APP_URL

type HeadersListener = (
  details: { responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders: Record<string, string[]> }) => void,
) => void

describe('applyContentSecurityPolicy', () => {
  function respond(responseHeaders: Record<string, string[]> | undefined) {
    const { session, asSession } = fakeSession()
    applyContentSecurityPolicy(asSession, CONTENT_SECURITY_POLICY)
    expect(session.webRequest.onHeadersReceived).toHaveBeenCalledOnce()
    const listener = session.webRequest.onHeadersReceived.mock.calls[0]![0] as HeadersListener
    const callback = vi.fn()
    listener({ responseHeaders }, callback)
    expect(callback).toHaveBeenCalledOnce()
    return (callback.mock.calls[0]![0] as { responseHeaders: Record<string, string[]> }).responseHeaders
  }

  it('adds the policy to every response and keeps the other headers', () => {
    const headers = respond({ 'Content-Type': ['text/html'] })
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    })
  })

  it("replaces a policy the server sent, whatever the header's case", () => {
    const headers = respond({
      'content-security-policy': ["script-src 'unsafe-inline' 'unsafe-eval'"],
      'CONTENT-SECURITY-POLICY': ['default-src *'],
    })
    expect(headers).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })

  it('copes with a response without headers', () => {
    expect(respond(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })
})

describe('lockDownWebContents', () => {
  function setup() {
    const fake = fakeWebContents()
    const openExternal = vi.fn(async (_url: string) => {})
    lockDownWebContents(fake.contents, { isAppUrl, openExternal })
    return { ...fake, openExternal }
  }

  it.each(['will-navigate', 'will-redirect'])('%s: stays on the app page', (event) => {
    const contents = setup()
    expect(contents.emit(event, `${APP_URL}#/skus`).prevented).toBe(false)
    expect(contents.emit(event, 'https://evil.example/').prevented).toBe(true)
    expect(contents.emit(event, 'file:///etc/passwd').prevented).toBe(true)
    expect(contents.emit(event, 'javascript:alert(1)').prevented).toBe(true)
  })

  it('never attaches a webview', () => {
    const contents = setup()
    expect(contents.emit('will-attach-webview').prevented).toBe(true)
  })

  it('denies every new window and opens https links in the browser instead', () => {
    const contents = setup()
    expect(contents.openWindow('https://example.com/help')).toEqual({ action: 'deny' })
    expect(contents.openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/help')
  })

  it.each(['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', APP_URL, 'about:blank'])(
    'denies a new window for %s and opens nothing',
    (url) => {
      const contents = setup()
      expect(contents.openWindow(url)).toEqual({ action: 'deny' })
      expect(contents.openExternal).not.toHaveBeenCalled()
    },
  )

  it('logs a link that could not be opened instead of failing', async () => {
    const contents = setup()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    contents.openExternal.mockRejectedValueOnce(new Error('no browser'))
    expect(contents.openWindow('https://example.com/')).toEqual({ action: 'deny' })
    await vi.waitFor(() => expect(logged).toHaveBeenCalledOnce())
  })
})

describe('lockDownAllWebContents', () => {
  it('locks down every web contents the app creates', () => {
    const app = fakeApp()
    const openExternal = vi.fn(async (_url: string) => {})
    lockDownAllWebContents(app.asApp, { isAppUrl, openExternal })

    const contents = fakeWebContents()
    app.emit('web-contents-created', {}, contents.contents)
    expect(contents.emit('will-navigate', 'https://evil.example/').prevented).toBe(true)
    expect(contents.emit('will-attach-webview').prevented).toBe(true)
    expect(contents.openWindow('https://example.com/')).toEqual({ action: 'deny' })
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/')
  })
})
