import { readFileSync } from 'node:fs'
import { createServer, type RequestListener } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { ThumbnailCache, type ThumbnailAnswer } from '#node/thumbnail-cache.ts'
import {
  MAX_THUMBNAIL_SOURCE_BYTES,
  THUMBNAIL_CACHE_BOUNDS,
  thumbnailRoute,
  type ThumbnailRouteOptions,
} from '#node/thumbnail-route.ts'
import { SAMPLE_ADDRESSES, SAMPLE_ORIGIN } from '#shared/sample-assets.ts'
import { thumbnailAddress } from '#shared/thumbnail-address.ts'
import { closedPort, listenOnLoopback } from '../loopback-servers.ts'
import { resourcesDir } from './service-deps.ts'

// The route against real web servers on 127.0.0.1. A photo server on this computer is a local
// address: the tests that need its photos turn "Allow local addresses" on, as a person testing
// with local files would; the others show that nothing reaches it while the setting is off.

/** A 1×1 PNG (its header is what the sniff reads). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
const PAGE = Buffer.from('<!doctype html><title>Moved</title><p>This photo has moved.</p>')

const listen = listenOnLoopback()

/** A server on 127.0.0.1 that counts connections, records requests and answers with `handle`. */
async function serve(handle: RequestListener) {
  const seen = { connections: 0, requests: [] as string[] }
  const server = createServer((request, response) => {
    seen.requests.push(request.url ?? '')
    handle(request, response)
  })
  server.on('connection', () => seen.connections++)
  const { port } = await listen(server)
  return { url: `http://127.0.0.1:${port}`, seen }
}

/** Serves `files` by path, each as the type given (a server's word, not what the bytes are). */
const files =
  (served: Record<string, { bytes: Buffer; type: string }>): RequestListener =>
  (request, response) => {
    const file = served[request.url ?? '']
    if (!file) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length })
    response.end(file.bytes)
  }

function route(options: Partial<ThumbnailRouteOptions> = {}) {
  const handle = thumbnailRoute({
    policy: CONTENT_SECURITY_POLICY,
    allowLocalAddresses: () => true,
    resourcesDir,
    ...options,
  })
  return (photo: string, method = 'GET') =>
    handle(new Request(new URL(thumbnailAddress(photo), 'app://catalog-desk'), { method }))
}

/** Every answer's headers: the page's policy, no sniffing, a cache header. */
function expectAppHeaders(answer: Response) {
  expect(answer.headers.get('content-security-policy')).toContain(CONTENT_SECURITY_POLICY)
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
  expect(answer.headers.get('cache-control')).toBeTruthy()
}

describe('the thumbnail route', () => {
  it('serves a picture as the type its bytes say, with the headers of the app’s origin', async () => {
    // Served as a generic type: the bytes decide.
    const photos = await serve(files({ '/a.png': { bytes: PNG, type: 'application/octet-stream' } }))
    const answer = await route()(`${photos.url}/a.png`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(PNG)
    expectAppHeaders(answer)
    // A picture opened as a document (an SVG is one) runs nothing, in an origin of its own.
    expect(answer.headers.get('content-security-policy')).toBe(`${CONTENT_SECURITY_POLICY}; sandbox`)
    // Each showing asks main again, whose cache knows whether the setting still allows it.
    expect(answer.headers.get('cache-control')).toBe('private, no-cache')
  })

  it('shows the template’s sample picture from the app’s own files, and no other sample address', async () => {
    // No network at all: a lookup would throw.
    const offline = route({
      network: {
        lookup: (() => {
          throw new Error('looked up')
        }) as never,
        isPublic: () => true,
      },
    })
    const answer = await offline(SAMPLE_ADDRESSES.picture)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(
      readFileSync(join(resourcesDir, 'preview', 'sample-product.png')),
    )
    // The sample model is the app's too, but no picture: refused as any model would be.
    const model = await offline(SAMPLE_ADDRESSES.model)
    expect(model.status).toBe(415)
    expect(await model.text()).toMatch(/^Not loaded: .*not a picture$/)
    const other = await offline(`${SAMPLE_ORIGIN}/photo.jpg`)
    expect(other.status).toBe(403)
    expect(await other.text()).toMatch(/^Not loaded: it is a sample address, but no sample is called so/)
  })

  it('answers HEAD with the headers and no body', async () => {
    const photos = await serve(files({ '/a.png': { bytes: PNG, type: 'image/png' } }))
    const answer = await route()(`${photos.url}/a.png`, 'HEAD')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-length')).toBe(String(PNG.length))
    expect(await answer.text()).toBe('')
  })

  it.each([
    ['a web page served as a PNG', PAGE, 'image/png', 'Not loaded: a web page (HTML), not a picture'],
    ['JSON', Buffer.from('{"error":"not found"}'), 'image/jpeg', 'Not loaded: JSON, not a picture'],
    ['bytes of no known kind', Buffer.from('just some text'), 'image/png', 'Not loaded: not a picture'],
    [
      'a picture no <img> draws',
      Buffer.from('q0tUWCAyMLsNChoK', 'base64'),
      'image/ktx2',
      'Not loaded: a KTX2 texture, which the list cannot show',
    ],
  ])('refuses %s, saying so, with the same headers', async (_what, bytes, type, words) => {
    const photos = await serve(files({ '/photo.png': { bytes, type } }))
    const answer = await route()(`${photos.url}/photo.png`)
    expect(answer.status).toBe(415)
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expectAppHeaders(answer)
    expect(await answer.text()).toBe(words)
  })

  it('refuses a photo on this computer or a private network without connecting, unless allowed', async () => {
    const photos = await serve(files({ '/a.png': { bytes: PNG, type: 'image/png' } }))
    const refusing = route({ allowLocalAddresses: () => false })
    for (const [photo, address] of [
      [`${photos.url}/a.png`, '127.0.0.1'],
      [`https://${photos.url.slice('http://'.length)}/a.png`, '127.0.0.1'],
      ['https://10.0.0.1/a.png', '10.0.0.1'],
      ['https://[::1]/a.png', '::1'],
    ]) {
      const answer = await refusing(photo!)
      expect(answer.status).toBe(403)
      expectAppHeaders(answer)
      expect(await answer.text()).toBe(
        `Not loaded: a local address (${address}). Settings can allow local addresses.`,
      )
    }
    expect(photos.seen.connections).toBe(0)
  })

  it('keeps an answer under the setting it was given with: allowed once is not allowed after', async () => {
    const photos = await serve(files({ '/a.png': { bytes: PNG, type: 'image/png' } }))
    let allow = true
    const photo = route({ allowLocalAddresses: () => allow })
    expect((await photo(`${photos.url}/a.png`)).status).toBe(200)
    allow = false
    expect((await photo(`${photos.url}/a.png`)).status).toBe(403)
    allow = true
    expect((await photo(`${photos.url}/a.png`)).status).toBe(200)
    expect(photos.seen.requests).toEqual(['/a.png'])
  })

  it('refuses a photo larger than its limit while it streams in', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(4096)])
    const photos = await serve((_request, response) => {
      // No Content-Length: the limit is met while reading.
      response.writeHead(200, { 'content-type': 'image/png' })
      response.end(big)
    })
    const answer = await route({ maxPictureBytes: 2048 })(`${photos.url}/big.png`)
    expect(answer.status).toBe(413)
    expectAppHeaders(answer)
    expect(await answer.text()).toBe('Not loaded: too big (over 2 KB)')
    expect(MAX_THUMBNAIL_SOURCE_BYTES).toBe(8 * 1024 * 1024)
  })

  it('says why a photo could not be fetched: a missing one, a server that is not there', async () => {
    const photos = await serve(files({}))
    const photo = route()
    const missing = await photo(`${photos.url}/gone.png`)
    expect(missing.status).toBe(502)
    expect(await missing.text()).toBe('Not loaded: the server answered HTTP 404 (Not Found)')

    const unreachable = await photo(`http://127.0.0.1:${await closedPort()}/a.png`)
    expect(unreachable.status).toBe(502)
    expectAppHeaders(unreachable)
    expect(await unreachable.text()).toBe('Not loaded: no connection, the server refused it (ECONNREFUSED)')
  })

  it('answers a request without a photo address, or not a GET, with the same headers', async () => {
    const handle = thumbnailRoute({
      policy: CONTENT_SECURITY_POLICY,
      allowLocalAddresses: () => false,
      resourcesDir,
    })
    const none = await handle(new Request('app://catalog-desk/thumbnail'))
    expect(none.status).toBe(400)
    expectAppHeaders(none)
    expect(await none.text()).toBe('Not loaded: no photo address was given')
    const post = await handle(
      new Request(`app://catalog-desk${thumbnailAddress('https://a.test/a.png')}`, { method: 'POST' }),
    )
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    expectAppHeaders(post)
  })

  it('fetches a photo once for every row that shows it, at the same time or after', async () => {
    const photos = await serve(
      files({ '/a.png': { bytes: PNG, type: 'image/png' }, '/b.png': { bytes: PAGE, type: 'image/png' } }),
    )
    const photo = route()
    const answers = await Promise.all(Array.from({ length: 6 }, () => photo(`${photos.url}/a.png`)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect((await photo(`${photos.url}/a.png`)).status).toBe(200)
    // A refusal too: the tile asks why with a second request, which the cache answers.
    expect((await photo(`${photos.url}/b.png`)).status).toBe(415)
    expect(await (await photo(`${photos.url}/b.png`)).text()).toBe(
      'Not loaded: a web page (HTML), not a picture',
    )
    expect(photos.seen.requests).toEqual(['/a.png', '/b.png'])
  })

  it('keeps at most its number of answers, the least recently used going first', async () => {
    const photos = await serve(
      files({
        '/a.png': { bytes: PNG, type: 'image/png' },
        '/b.png': { bytes: PNG, type: 'image/png' },
        '/c.png': { bytes: PNG, type: 'image/png' },
      }),
    )
    const photo = route({ cache: { maxEntries: 2 } })
    await photo(`${photos.url}/a.png`)
    await photo(`${photos.url}/b.png`)
    await photo(`${photos.url}/a.png`) // a is now the most recent: b goes when c comes
    await photo(`${photos.url}/c.png`)
    await photo(`${photos.url}/a.png`)
    await photo(`${photos.url}/b.png`)
    expect(photos.seen.requests).toEqual(['/a.png', '/b.png', '/c.png', '/b.png'])
  })

  it('keeps at most its number of bytes', async () => {
    const photos = await serve(
      files({ '/a.png': { bytes: PNG, type: 'image/png' }, '/b.png': { bytes: PNG, type: 'image/png' } }),
    )
    // Room for one picture only.
    const photo = route({ cache: { maxBytes: PNG.length + 10 } })
    await photo(`${photos.url}/a.png`)
    await photo(`${photos.url}/b.png`)
    await photo(`${photos.url}/a.png`)
    expect(photos.seen.requests).toEqual(['/a.png', '/b.png', '/a.png'])
  })

  it('asks again for a refused photo after a minute, and for a picture after half an hour', async () => {
    let now = 0
    let broken = true
    const photos = await serve((request, response) => {
      if (request.url === '/a.png' || !broken)
        return files({ [request.url!]: { bytes: PNG, type: 'image/png' } })(request, response)
      response.writeHead(503).end()
    })
    const photo = route({ now: () => now })
    expect((await photo(`${photos.url}/b.png`)).status).toBe(502)
    await photo(`${photos.url}/a.png`)
    broken = false
    now += THUMBNAIL_CACHE_BOUNDS.refusalMs - 1
    expect((await photo(`${photos.url}/b.png`)).status).toBe(502)
    now += 1
    expect((await photo(`${photos.url}/b.png`)).status).toBe(200)
    expect(photos.seen.requests).toEqual(['/b.png', '/a.png', '/b.png'])
    now += THUMBNAIL_CACHE_BOUNDS.pictureMs
    await photo(`${photos.url}/a.png`)
    expect(photos.seen.requests).toEqual(['/b.png', '/a.png', '/b.png', '/a.png'])
  })
})

describe('ThumbnailCache', () => {
  const picture = (size: number): ThumbnailAnswer => ({
    kind: 'picture',
    bytes: new Uint8Array(size),
    type: 'image/png',
  })
  const bounds = { maxEntries: 3, maxBytes: 1000, pictureMs: 1000, refusalMs: 10 }

  it('stays within its entries and its bytes, dropping the least recently used', () => {
    const cache = new ThumbnailCache(bounds, () => 0)
    cache.set('a', picture(400))
    cache.set('b', picture(400))
    cache.get('a')
    cache.set('c', picture(400)) // 1,200 bytes: b, the least recently used, goes
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true])
    expect(cache.bytes).toBe(800)

    for (const key of ['d', 'e', 'f']) cache.set(key, { kind: 'refused', status: 403, words: 'Not loaded' })
    expect(cache.size).toBe(3)
    expect(cache.bytes).toBeLessThanOrEqual(1000)
  })

  it('keeps nothing larger than its whole budget, and counts a replaced answer once', () => {
    const cache = new ThumbnailCache(bounds, () => 0)
    cache.set('a', picture(300))
    cache.set('huge', picture(1001))
    expect(cache.get('huge')).toBeUndefined()
    cache.set('a', picture(500))
    expect(cache.size).toBe(1)
    expect(cache.bytes).toBe(500)
  })

  it('forgets an answer when its time is up', () => {
    let now = 0
    const cache = new ThumbnailCache(bounds, () => now)
    cache.set('refused', { kind: 'refused', status: 502, words: 'Not loaded' })
    cache.set('picture', picture(10))
    now = 10
    expect(cache.get('refused')).toBeUndefined()
    expect(cache.get('picture')).toBeDefined()
    expect(cache.size).toBe(1)
    expect(cache.bytes).toBe(10)
  })
})
