import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from '@playwright/test'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'
import { expect } from './fixtures.ts'

/** The AR preview beside the SKU editor, as the browser tests look at it. */

/** A file the test's web server answers with. */
export interface ServedFile {
  bytes: Buffer
  type: string
  /** Answered once this settles: a slow server, for a test that acts while a download is under way. */
  wait?: () => Promise<void>
}

export interface AssetServer {
  url: string
  /** Every request, as "GET /path". */
  requests: string[]
  close(): Promise<void>
}

/** A loopback web server standing in for a CDN: the files given, a 404 for anything else. */
export async function startAssetServer(files: Readonly<Record<string, ServedFile>>): Promise<AssetServer> {
  const requests: string[] = []
  const server: Server = createServer(async (request, response) => {
    requests.push(`${request.method} ${request.url}`)
    const file = Object.hasOwn(files, request.url ?? '') ? files[request.url!] : undefined
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('Not Found')
      return
    }
    await file.wait?.()
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length })
    response.end(file.bytes)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}

/** A small warm sunset as an equirectangular PNG: bright orange sky, dark ground. */
export function sunsetPng(): Buffer {
  const png = new PNG({ width: 64, height: 32 })
  for (let y = 0; y < 32; y++) {
    for (let x = 0; x < 64; x++) {
      const sky = y < 16
      const i = (y * 64 + x) * 4
      png.data[i] = sky ? 255 : 60
      png.data[i + 1] = sky ? 140 - y * 4 : 40
      png.data[i + 2] = sky ? 40 : 30
      png.data[i + 3] = 255
    }
  }
  return PNG.sync.write(png)
}

export const stageOf = (page: Page) => page.getByRole('application', { name: '3D preview of the model' })
export const modelCaption = (page: Page) => page.getByTestId('preview-model')
export const environmentCaption = (page: Page) => page.getByTestId('preview-environment')
/** Loads go through main and the GPU is emulated in software: on a busy machine that takes seconds. */
export const LOADED = { timeout: 20_000 }

/**
 * Waits until nothing is loading and any frame the last change asked for has been drawn (the
 * preview's worker says so: data-drawn), then for the page to show it.
 */
export async function settled(page: Page) {
  await expect(stageOf(page)).toHaveAttribute('data-busy', 'false', LOADED)
  await expect(stageOf(page)).toHaveAttribute('data-drawn', 'true', LOADED)
  await pageFramesShown(page)
}

/** Waits for the page's next two frames: what the worker drew is then on the page's screen. */
export function pageFramesShown(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((done) => {
        const raf = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number })
          .requestAnimationFrame
        raf(() => raf(() => done()))
      }),
  )
}

export const framesOf = async (stage: Locator) => Number(await stage.getAttribute('data-frames'))

export async function canvasPixels(page: Page): Promise<PNG> {
  return PNG.sync.read(await page.locator('.ar-preview__canvas').screenshot())
}

/** Share of pixels that differ visibly (pixelmatch's default perceptual threshold). */
export function changed(before: PNG, after: PNG): number {
  expect([after.width, after.height]).toEqual([before.width, before.height])
  const differing = pixelmatch(before.data, after.data, undefined, before.width, before.height, {
    threshold: 0.1,
  })
  return differing / (before.width * before.height)
}

/** A change of a setting shows: more than this share of the pixels differs. */
export const VISIBLE_CHANGE = 0.005
