import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { counted } from '#shared/counted.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'
import { sunsetPng } from './harness/preview-page.ts'
import { putDrafts } from './harness/stored-drafts.ts'

// Issue #32, part 3: the list's photos come through main's guarded fetcher. A sheet that names
// this computer or the office network as a photo's host gets no request sent there, and the tile
// says why; a photo the guard allows still shows.

/**
 * A web server on 127.0.0.1 that counts every connection made to it, whatever is sent over it
 * (a TLS handshake to this plain http server counts too): "nothing reached it" means nothing.
 */
interface PhotoServer {
  port: number
  connections: number
  requests: string[]
  close(): Promise<void>
}

async function startPhotoServer(): Promise<PhotoServer> {
  const png = sunsetPng()
  const served: PhotoServer = { port: 0, connections: 0, requests: [], close: async () => {} }
  const server: Server = createServer((request, response) => {
    served.requests.push(`${request.method} ${request.url}`)
    if (request.url === '/photo.png') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
      response.end(png)
    } else if (request.url === '/moved.png') {
      // An error page served as a picture, as some CDNs do.
      response.writeHead(200, { 'content-type': 'image/png' })
      response.end('<!doctype html><title>Moved</title><p>This photo has moved.</p>')
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
    }
  })
  server.on('connection', () => served.connections++)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  served.port = (server.address() as AddressInfo).port
  served.close = () =>
    new Promise<void>((closed) => {
      server.closeAllConnections()
      server.close(() => closed())
    })
  return served
}

let photos: PhotoServer

test.beforeEach(async () => {
  photos = await startPhotoServer()
})

test.afterEach(async () => {
  await photos.close()
})

/** Stores a draft per name and photo address, and opens the list on them. */
async function openListWith(page: Page, drafts: Array<[name: string, photo: string]>): Promise<void> {
  await page.goto('/#/skus')
  await expect(page.getByText('No SKU drafts yet')).toBeVisible()
  await putDrafts(
    page,
    drafts.map(([productName, productImage]) => ({ ...newSkuPayload(), productName, productImage })),
  )
  await page.reload()
  await expect(page.getByText(`${counted(drafts.length, 'draft')} on this computer`)).toBeVisible()
}

const rowNamed = (page: Page, name: string) =>
  page.getByRole('grid', { name: 'SKUs' }).getByRole('row', { name: new RegExp(name) })

const localRefusal = (address: string) =>
  `Not loaded: a local address (${address}). Settings can allow local addresses.`

test.describe('Photos in the SKU list', () => {
  test('a photo on this computer or the office network is never requested, and its tile says why', async ({
    page,
  }) => {
    await openListWith(page, [
      ['Loopback Aviator', `https://127.0.0.1:${photos.port}/photo.png`],
      ['Loopback Round', `http://127.0.0.1:${photos.port}/photo.png`],
      // Never connected to: the guard refuses a private address before any connection.
      ['Office Wayfarer', 'https://10.0.0.1/photo.png'],
    ])

    for (const [name, address] of [
      ['Loopback Aviator', '127.0.0.1'],
      ['Loopback Round', '127.0.0.1'],
      ['Office Wayfarer', '10.0.0.1'],
    ] as const) {
      const tile = rowNamed(page, name).getByRole('img', { name: localRefusal(address) })
      await expect(tile).toBeVisible()
      await expect(tile).toHaveAttribute('title', localRefusal(address))
      await expect(rowNamed(page, name).locator('img')).toHaveCount(0)
    }
    // Main answered all three (the tiles say so) without one connection to the server.
    expect(photos.connections).toBe(0)
    expect(await axe(page)).toEqual([])
    await screenshot(page, 'list-thumbnails-refused')
  })

  // A CI run went back to the list while main was still writing the setting to disk: the list
  // kept the refusal it had learnt before, and the photo never showed.
  test('turning on “Allow local addresses” shows a photo on this computer, even back in the list before main has answered', async ({
    page,
    heldAnswers,
  }) => {
    await openListWith(page, [['Studio Aviator', `http://127.0.0.1:${photos.port}/photo.png`]])
    await expect(
      rowNamed(page, 'Studio Aviator').getByRole('img', { name: localRefusal('127.0.0.1') }),
    ).toBeVisible()
    expect(photos.connections).toBe(0)

    await page.getByRole('link', { name: 'Settings' }).click()
    heldAnswers.hold('setAllowLocalAddresses')
    await page.getByRole('checkbox', { name: 'Allow local addresses' }).check()
    await heldAnswers.answered('setAllowLocalAddresses')
    await page.getByRole('link', { name: 'SKUs' }).click()

    const photo = rowNamed(page, 'Studio Aviator').getByRole('img', { name: 'Photo of Studio Aviator' })
    await expect(photo).toBeVisible()
    await expect
      .poll(() => photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(64)
    expect(photos.requests).toEqual(['GET /photo.png'])
    heldAnswers.release('setAllowLocalAddresses')
    await page.getByRole('link', { name: 'Settings' }).click()
    await expect(page.getByRole('checkbox', { name: 'Allow local addresses' })).toBeChecked()
  })

  test.describe('with local addresses allowed', () => {
    // The photo server stands in for a CDN on this computer, as in the preview tests.
    test.use({ allowLocalAddresses: true })

    test('a photo shows, lazily and from the app’s own origin; a page that is not a picture says so', async ({
      page,
    }) => {
      await openListWith(page, [
        ['Moved Cat Eye', `http://127.0.0.1:${photos.port}/moved.png`],
        ['Studio Aviator', `http://127.0.0.1:${photos.port}/photo.png`],
        ['Studio Round', `http://127.0.0.1:${photos.port}/photo.png`],
      ])

      for (const name of ['Studio Aviator', 'Studio Round']) {
        const photo = rowNamed(page, name).getByRole('img', { name: `Photo of ${name}` })
        await expect(photo).toBeVisible()
        await expect(photo).toHaveAttribute('loading', 'lazy')
        await expect
          .poll(() => photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
          .toBe(64)
        // Asked of the app's origin, which main answers: the page never calls the photo's host.
        expect(await photo.evaluate((img) => (img as unknown as { src: string }).src)).toBe(
          new URL(
            `/thumbnail?src=${encodeURIComponent(`http://127.0.0.1:${photos.port}/photo.png`)}`,
            page.url(),
          ).href,
        )
      }
      await expect(
        rowNamed(page, 'Moved Cat Eye').getByRole('img', {
          name: 'Not loaded: a web page (HTML), not a picture',
        }),
      ).toBeVisible()
      // Two rows, one photo: main fetched it once.
      expect(photos.requests.filter((request) => request === 'GET /photo.png')).toEqual(['GET /photo.png'])
      expect(await axe(page)).toEqual([])
      await screenshot(page, 'list-thumbnails-allowed')
    })
  })
})
