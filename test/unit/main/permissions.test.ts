import { describe, expect, it, vi } from 'vitest'
import { appPage } from '#main/app-page.ts'
import { CAMERA_CLICK_MS, handlePermissions } from '#main/security.ts'
import { fakeSession } from './fake-web-contents.ts'

// The page as main loads it, with the router's hash: the one page the camera may be granted to.
const page = appPage()
const APP_URL = `${page.url}#/skus/42`

type RequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: Record<string, unknown>,
) => void

/** Main's permission handlers on a fake session, with a clock the test moves. */
function setup() {
  const { session, asSession } = fakeSession()
  let clock = 1_000_000
  const camera = handlePermissions(asSession, page, () => clock)
  const handler = session.setPermissionRequestHandler.mock.calls[0]![0] as RequestHandler
  const check = session.setPermissionCheckHandler.mock.calls[0]![0] as (...args: unknown[]) => boolean
  /** What main answers a request; each request gets exactly one answer. */
  const request = (permission: string, details: Record<string, unknown>) => {
    const callback = vi.fn<(granted: boolean) => void>()
    handler({}, permission, callback, details)
    expect(callback).toHaveBeenCalledOnce()
    return callback.mock.calls[0]![0]
  }
  return { camera, request, check, advance: (ms: number) => (clock += ms) }
}

/** getUserMedia({ video: true }) from the app's page, as Electron describes it. */
const videoFromApp = {
  mediaTypes: ['video'],
  isMainFrame: true,
  requestingUrl: APP_URL,
  securityOrigin: 'app://catalog-desk/',
}

describe('handlePermissions: the try-on camera', () => {
  it('refuses the camera to the app page until the person clicks', () => {
    const { request } = setup()
    expect(request('media', videoFromApp)).toBe(false)
  })

  it('grants one video request of the app page after the click, and only one', () => {
    const { camera, request } = setup()
    camera.allowOnce()
    expect(request('media', videoFromApp)).toBe(true)
    expect(request('media', videoFromApp)).toBe(false)
    // Another click, another single grant.
    camera.allowOnce()
    expect(request('media', videoFromApp)).toBe(true)
    expect(request('media', videoFromApp)).toBe(false)
  })

  it('grants nothing for a click long past', () => {
    const { camera, request, advance } = setup()
    camera.allowOnce()
    advance(CAMERA_CLICK_MS + 1)
    expect(request('media', videoFromApp)).toBe(false)
  })

  it.each([
    ['the microphone', 'media', { ...videoFromApp, mediaTypes: ['audio'] }],
    ['camera and microphone', 'media', { ...videoFromApp, mediaTypes: ['video', 'audio'] }],
    ['audio and camera', 'media', { ...videoFromApp, mediaTypes: ['audio', 'video'] }],
    ['media of no kind', 'media', { ...videoFromApp, mediaTypes: [] }],
    ['media without its kinds', 'media', { isMainFrame: true, requestingUrl: APP_URL }],
    ['another origin', 'media', { ...videoFromApp, requestingUrl: 'https://evil.example/' }],
    [
      'another page of the app scheme',
      'media',
      { ...videoFromApp, requestingUrl: 'app://catalog-desk/other.html' },
    ],
    ['a subframe of the app page', 'media', { ...videoFromApp, isMainFrame: false }],
    ['screen capture', 'display-capture', videoFromApp],
    ['notifications', 'notifications', { isMainFrame: true, requestingUrl: APP_URL }],
    ['geolocation', 'geolocation', { isMainFrame: true, requestingUrl: APP_URL }],
    ['the clipboard', 'clipboard-read', { isMainFrame: true, requestingUrl: APP_URL }],
    [
      'opening a link',
      'openExternal',
      { isMainFrame: true, requestingUrl: APP_URL, externalURL: 'https://x.example/' },
    ],
  ])(
    'refuses %s even right after the click, and keeps the click for the camera',
    (_what, permission, details) => {
      const { camera, request } = setup()
      camera.allowOnce()
      expect(request(permission, details)).toBe(false)
      // The refused request did not use up the person's click.
      expect(request('media', videoFromApp)).toBe(true)
    },
  )

  it('answers every permission check no, as before the try-on', () => {
    const { camera, check } = setup()
    camera.allowOnce()
    for (const permission of ['media', 'geolocation', 'notifications', 'hid', 'serial', 'usb'])
      expect(check(null, permission, 'app://catalog-desk', { mediaType: 'video', isMainFrame: true })).toBe(
        false,
      )
  })
})
