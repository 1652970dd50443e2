import { resolveObjectURL } from 'node:buffer'
import { beforeEach, describe, expect, it } from 'vitest'
import type { PreviewAssetRequest } from '../../../src/shared/ipc.ts'

// The page's bridge, as the preload builds it: main answers every address with a small picture,
// or with a page for addresses ending in .html.
const asked: string[] = []
Object.assign(globalThis, {
  window: {
    api: {
      loadPreviewAsset: async (request: PreviewAssetRequest) => {
        const url = request.source === 'url' ? request.url : request.name
        asked.push(url)
        const page = url.endsWith('.html')
        return {
          name: url.split('/').at(-1),
          contentType: page ? 'text/html' : 'image/png',
          bytes: new TextEncoder().encode(url),
        }
      },
    },
  },
})

const { forgetRemoteImage, holdRemoteImage } = await import('../../../src/renderer/src/ui/remote-image.ts')

/** Lets the revocations that wait for a picture's blob address run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Whether a blob: address still leads to its picture (revoked ones do not). */
const alive = (url: string) => resolveObjectURL(url) !== undefined

let run = 0
beforeEach(() => {
  asked.length = 0
  run++
})
const address = (name: string) => `https://images.example/${run}/${name}.png`

describe('pictures at web addresses', () => {
  it('are fetched once for every image that shows them, and stay while one does', async () => {
    const form = holdRemoteImage(address('front'))
    const preview = holdRemoteImage(address('front'))
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
    const again = holdRemoteImage(address('front'))
    expect(await again.url).toBe(url)
    expect(asked).toHaveLength(1)
    again.release()
  })

  it('no longer shown, only the most recent are kept; one still shown is never revoked', async () => {
    const shown = holdRemoteImage(address('shown'))
    const shownUrl = await shown.url
    const typed: string[] = []
    for (let i = 0; i < 40; i++) {
      const hold = holdRemoteImage(address(`typed-${i}`))
      typed.push(await hold.url)
      hold.release()
    }
    await settled()
    expect(alive(shownUrl)).toBe(true)
    const kept = typed.filter(alive)
    // Earlier tests left some unused pictures too; the newest typed ones are the ones kept.
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(40)
    expect(typed.slice(-kept.length)).toEqual(kept)
    shown.release()
    await settled()
    // Released last, it is the newest unused picture: kept, while the oldest typed one goes.
    expect(alive(shownUrl)).toBe(true)
    expect(typed.filter(alive)).toEqual(kept.slice(1))
  })

  it('a page is not a picture: the hold fails, and after a forget the next one asks main again', async () => {
    const hold = holdRemoteImage(`https://images.example/${run}/gallery.html`)
    await expect(hold.url).rejects.toThrow('gallery.html is not a picture (text/html)')
    hold.release()
    forgetRemoteImage(`https://images.example/${run}/gallery.html`)
    const retry = holdRemoteImage(`https://images.example/${run}/gallery.html`)
    await expect(retry.url).rejects.toThrow('not a picture')
    expect(asked).toHaveLength(2)
    retry.release()
  })
})
