import { resolveObjectURL } from 'node:buffer'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { PreviewAssetRequest } from '#shared/ipc.ts'

// The page's bridge, as the preload builds it: main answers every address with a picture (of the
// size its `bytes` parameter asks for, a few bytes otherwise), or with a page for .html addresses.
const asked: string[] = []
Object.assign(globalThis, {
  window: {
    api: {
      loadPreviewAsset: async (request: PreviewAssetRequest) => {
        const url = request.source === 'url' ? request.url : request.name
        asked.push(url)
        const size = Number(new URL(url).searchParams.get('bytes') ?? 0)
        return {
          name: new URL(url).pathname.split('/').at(-1),
          contentType: url.endsWith('.html') ? 'text/html' : 'image/png',
          bytes: size ? new Uint8Array(size) : new TextEncoder().encode(url),
        }
      },
    },
  },
})

type RemoteImages = typeof import('#renderer/adapters/remote-images.ts')
let images: RemoteImages

beforeEach(async () => {
  asked.length = 0
  // Each test starts with no picture held or kept (and an empty asset cache).
  vi.resetModules()
  images = await import('#renderer/adapters/remote-images.ts')
})

/** Lets the revocations that wait for a picture's blob address run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Whether a blob: address still leads to its picture (revoked ones do not). */
const alive = (url: string) => resolveObjectURL(url) !== undefined

const address = (name: string) => `https://images.example/${name}.png`

/** Shows the picture at `url` in an image, then takes the image away; returns its blob address. */
async function showThenHide(url: string): Promise<string> {
  const hold = images.holdRemoteImage(url)
  const blob = await hold.url
  hold.release()
  return blob
}

describe('pictures at web addresses', () => {
  it('are fetched once for every image that shows them, and stay while one does', async () => {
    const form = images.holdRemoteImage(address('front'))
    const preview = images.holdRemoteImage(address('front'))
    const url = await form.url
    expect(await preview.url).toBe(url)
    expect(asked).toEqual([address('front')])
    expect(await (await fetch(url)).text()).toBe(address('front'))

    form.release()
    form.release() // a second release of one hold changes nothing
    expect(alive(url)).toBe(true)
    preview.release()
    // Not shown any more, but kept: typed back, it shows without asking main again.
    expect(alive(url)).toBe(true)
    expect(await showThenHide(address('front'))).toBe(url)
    expect(asked).toHaveLength(1)
  })

  it('no longer shown, only the most recent are kept; one still shown is never revoked', async () => {
    const shown = images.holdRemoteImage(address('shown'))
    const shownUrl = await shown.url
    const typed: string[] = []
    for (let i = 0; i < 40; i++) typed.push(await showThenHide(address(`typed-${i}`)))
    await settled()
    expect(alive(shownUrl)).toBe(true)
    const kept = images.KEPT_UNUSED.count
    expect(typed.filter(alive)).toEqual(typed.slice(-kept))

    shown.release()
    await settled()
    // Released last, it is the newest unused picture: kept, while the oldest typed one goes.
    expect(alive(shownUrl)).toBe(true)
    expect(typed.filter(alive)).toEqual(typed.slice(-kept + 1))
  })

  it('large pictures no longer shown are kept within a byte budget, not a count', async () => {
    const size = Math.floor(images.KEPT_UNUSED.bytes / 3) + 1
    const large: string[] = []
    for (let i = 0; i < 3; i++) large.push(await showThenHide(`${address(`large-${i}`)}?bytes=${size}`))
    // Three of them are over the budget (though well under the count): the oldest goes.
    await settled()
    expect(large.map(alive)).toEqual([false, true, true])
  })

  it('a page is not a picture: the hold fails, and after a forget the next one asks main again', async () => {
    const page = 'https://images.example/gallery.html'
    const hold = images.holdRemoteImage(page)
    await expect(hold.url).rejects.toThrow('gallery.html is not a picture (text/html)')
    hold.release()
    images.forgetRemoteImage(page)
    const retry = images.holdRemoteImage(page)
    await expect(retry.url).rejects.toThrow('not a picture')
    expect(asked).toHaveLength(2)
    retry.release()
  })
})
