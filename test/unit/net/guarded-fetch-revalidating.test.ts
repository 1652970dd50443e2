import { createServer, type IncomingHttpHeaders } from 'node:http'
import { describe, expect, it } from 'vitest'
import { FetchError, guardedFetch, guardedFetchRevalidating } from '#node/net/guarded-fetch.ts'
import { listenOnLoopback } from '../loopback-servers.ts'
import { fetchOptions as options } from './fetch-options.ts'

// What the guarded fetcher gained for the asset checks, against a real server on 127.0.0.1 (local
// addresses allowed, except where a test is about refusing them): the file's validators, a
// conditional GET answered 304, every media type taken when asked, and failures a caller can tell
// apart. What the preview's callers get is unchanged (test/unit/main/preview-assets.test.ts).

const listen = listenOnLoopback()

const BODY = Buffer.from('glTF-pretend-model')

async function serve(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = []
  const server = createServer((request, response) => {
    seen.push(request.headers)
    if (request.url === '/page') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return void response.end('<!doctype html><p>hello')
    }
    if (request.url === '/gone') {
      response.writeHead(410)
      return void response.end()
    }
    if (request.headers['if-none-match'] === '"v1"') {
      response.writeHead(304, { etag: '"v1"' })
      return void response.end()
    }
    response.writeHead(200, {
      'content-type': 'model/gltf-binary',
      etag: '"v1"',
      'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT',
    })
    response.end(BODY)
  })
  const { port } = await listen(server)
  return { url: `http://127.0.0.1:${port}`, seen }
}

describe('guardedFetchRevalidating', () => {
  it('returns the validators, asks conditionally with them, and a 304 is "not modified"', async () => {
    const server = await serve()
    const first = await guardedFetchRevalidating(`${server.url}/model.glb`, options())
    expect(first).toMatchObject({
      notModified: false,
      contentType: 'model/gltf-binary',
      servedType: 'model/gltf-binary',
      validators: { etag: '"v1"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' },
    })
    expect(server.seen[0]!['if-none-match']).toBeUndefined()

    const again = await guardedFetchRevalidating(`${server.url}/model.glb`, options(), first.validators)
    expect(again).toEqual({
      notModified: true,
      validators: { etag: '"v1"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' },
    })
    expect(server.seen[1]).toMatchObject({
      'if-none-match': '"v1"',
      'if-modified-since': 'Wed, 01 Jan 2025 00:00:00 GMT',
    })

    // Validators that no longer match: the file again, whole.
    const changed = await guardedFetchRevalidating(`${server.url}/model.glb`, options(), { etag: '"v0"' })
    expect(changed.notModified).toBe(false)
    expect(changed.notModified === false && Buffer.from(changed.bytes)).toEqual(BODY)
  })

  it('takes any media type when asked to, saying what was served', async () => {
    const server = await serve()
    const page = await guardedFetchRevalidating(`${server.url}/page`, options({ mediaTypes: 'any' }))
    expect(page).toMatchObject({ notModified: false, servedType: 'text/html' })
    await expect(guardedFetchRevalidating(`${server.url}/page`, options())).rejects.toMatchObject({
      code: 'media-type',
    })
  })

  it('tells failures apart by code, with the status of an HTTP answer; the message stays the same', async () => {
    const server = await serve()
    const gone = await guardedFetch(`${server.url}/gone`, options()).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(FetchError)
    expect(gone).toMatchObject({
      code: 'status',
      status: 410,
      message: `Could not load ${server.url}/gone: the server answered HTTP 410 (Gone)`,
    })
    await expect(guardedFetch(`${server.url}/model.glb`, options({ maxBytes: 4 }))).rejects.toMatchObject({
      code: 'too-large',
    })
    await expect(guardedFetch('ftp://example.com/a.glb', options())).rejects.toMatchObject({
      code: 'refused',
    })
  })

  it('a refused local address names the hint the caller gives', async () => {
    const server = await serve()
    const refusal = guardedFetch(
      `${server.url}/model.glb`,
      options({ allowLocalAddresses: () => false, allowHint: 'run with --allow-local to check it' }),
    )
    await expect(refusal).rejects.toMatchObject({
      code: 'refused',
      message: `Could not load ${server.url}/model.glb: it points to 127.0.0.1, an address on this computer or a local network, which is not loaded unless allowed: run with --allow-local to check it`,
    })
    expect(server.seen).toEqual([])
  })

  it('guardedFetch gives its callers what it always gave: the bytes, the type and the name, nothing more', async () => {
    const server = await serve()
    const fetched = await guardedFetch(`${server.url}/model.glb`, options())
    expect(Object.keys(fetched).sort()).toEqual(['bytes', 'contentType', 'name'])
  })
})
