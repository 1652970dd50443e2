import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createPreviewAssetLoader, formatBytes } from '#node/preview-assets.ts'
import { resourcesDir } from './service-deps.ts'

// The loader against the repository's real resources folder and a real web server on loopback.

interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

let servers: Server[] = []

afterEach(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((closed) => {
          server.closeAllConnections()
          server.close(() => closed())
        }),
    ),
  )
  servers = []
})

/** A server on 127.0.0.1 that records each request and answers with `handle`. */
async function serve(handle: RequestListener) {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers })
    handle(request, response)
  })
  servers.push(server)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, seen }
}

const loader = (options: { maxBytes?: number; timeoutMs?: number } = {}) =>
  createPreviewAssetLoader({ resourcesDir, ...options })

describe('bundled samples', () => {
  it('reads the sample glasses and the default environment from resources/preview', async () => {
    const model = await loader().load({ source: 'sample', name: 'model' })
    expect(model).toMatchObject({ name: 'sample-glasses.glb', contentType: 'model/gltf-binary' })
    expect(model.bytes).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(model.bytes)).toEqual(readFileSync(join(resourcesDir, 'preview/sample-glasses.glb')))
    // A binary glTF: "glTF", version 2.
    expect(Buffer.from(model.bytes.subarray(0, 4)).toString('latin1')).toBe('glTF')

    const environment = await loader().load({ source: 'sample', name: 'environment' })
    expect(environment).toMatchObject({ name: 'studio.hdr', contentType: 'image/vnd.radiance' })
    expect(Buffer.from(environment.bytes.subarray(0, 10)).toString('latin1')).toBe('#?RADIANCE')
  })

  it('says which file is missing when the resources folder is not where it should be', async () => {
    const broken = createPreviewAssetLoader({ resourcesDir: '/nonexistent/resources' })
    await expect(broken.load({ source: 'sample', name: 'model' })).rejects.toThrow(
      'The bundled preview sample sample-glasses.glb could not be read from /nonexistent/resources/preview/sample-glasses.glb (ENOENT).',
    )
  })

  it('knows no other sample, whatever a caller passes', async () => {
    await expect(loader().load({ source: 'sample', name: 'toString' as 'model' })).rejects.toThrow(
      'There is no bundled preview sample called "toString".',
    )
  })
})

describe('assets from the web', () => {
  it('fetches with one plain GET: no token, no cookie, no credentials', async () => {
    const glb = Buffer.from('glTF-pretend-model')
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary; charset=binary' })
      response.end(glb)
    })
    const asset = await loader().load({ source: 'url', url: `${server.url}/models/Aviator%20Gold.glb?v=2` })
    expect(asset.name).toBe('Aviator Gold.glb')
    expect(asset.contentType).toBe('model/gltf-binary')
    expect(Buffer.from(asset.bytes)).toEqual(glb)
    // Exactly the file: IPC sends a typed array's whole buffer, which must hold nothing else.
    expect(asset.bytes.buffer.byteLength).toBe(glb.length)
    expect(server.seen).toHaveLength(1)
    expect(server.seen[0]).toMatchObject({ method: 'GET', url: '/models/Aviator%20Gold.glb?v=2' })
    expect(server.seen[0]!.headers).not.toHaveProperty('authorization')
    expect(server.seen[0]!.headers).not.toHaveProperty('cookie')
  })

  it('guesses the type from the file name when the server sends a generic one', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' })
      response.end('#?RADIANCE\n')
    })
    const asset = await loader().load({ source: 'url', url: `${server.url}/studio.HDR` })
    expect(asset).toMatchObject({ name: 'studio.HDR', contentType: 'image/vnd.radiance' })
  })

  it('says what the server answered when it is not a success', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('no such file')
    })
    await expect(loader().load({ source: 'url', url: `${server.url}/frame.glb` })).rejects.toThrow(
      `Could not load ${server.url}/frame.glb: the server answered HTTP 404 (Not Found)`,
    )
  })

  it('follows up to three redirects, and no more', async () => {
    const server = await serve((request, response) => {
      const hop = Number(/\/hop\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0)
      if (request.url === '/final.glb') {
        response.end('model')
        return
      }
      response.writeHead(302, { location: hop >= 1 ? `/hop/${hop - 1}` : '/final.glb' })
      response.end()
    })
    const asset = await loader().load({ source: 'url', url: `${server.url}/hop/2` })
    expect(Buffer.from(asset.bytes).toString()).toBe('model')
    expect(asset.name).toBe('2')

    server.seen.length = 0
    await expect(loader().load({ source: 'url', url: `${server.url}/hop/3` })).rejects.toThrow(
      `Could not load ${server.url}/hop/3: it was redirected more than 3 times`,
    )
    expect(server.seen).toHaveLength(4)
  })

  it.each(['file:///etc/passwd', 'ftp://example.com/model.glb', 'http://user:secret@127.0.0.1/x.glb'])(
    'refuses a redirect to %s',
    async (location) => {
      const server = await serve((_request, response) => {
        response.writeHead(301, { location })
        response.end()
      })
      await expect(loader().load({ source: 'url', url: `${server.url}/model.glb` })).rejects.toThrow(
        /^Could not load http:\/\/127\.0\.0\.1:\d+\/model\.glb: it was redirected to .+, which is not a web address the preview loads$/,
      )
      expect(server.seen).toHaveLength(1)
    },
  )

  it('refuses anything but http(s), and addresses carrying a user name or password', async () => {
    await expect(loader().load({ source: 'url', url: 'file:///etc/passwd' })).rejects.toThrow(
      'Could not load file:///etc/passwd: only http and https addresses can be loaded',
    )
    await expect(
      loader().load({ source: 'url', url: 'https://me:token@cdn.example.com/a.glb' }),
    ).rejects.toThrow('addresses with a user name or password are not loaded')
  })

  it('stops at the size limit: by the declared length, before reading the body', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': 4096 })
      response.end(Buffer.alloc(4096))
    })
    await expect(
      loader({ maxBytes: 1024 }).load({ source: 'url', url: `${server.url}/big.glb` }),
    ).rejects.toThrow(`Could not load ${server.url}/big.glb: larger than 1 KB`)
  })

  it('stops at the size limit while streaming when no length is declared', async () => {
    let written = 0
    let closedEarly = false
    const server = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary' })
      request.socket.on('close', () => (closedEarly = written < 64 * 1024 * 1024))
      // An endless body, sent as the client reads it: the loader must hang up, not buffer it.
      const chunk = Buffer.alloc(64 * 1024)
      const pump = () => {
        while (!response.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length
          if (!response.write(chunk)) return void response.once('drain', pump)
        }
        response.end()
      }
      pump()
    })
    await expect(
      loader({ maxBytes: 1024 * 1024 }).load({ source: 'url', url: `${server.url}/endless.glb` }),
    ).rejects.toThrow(`Could not load ${server.url}/endless.glb: larger than 1 MB`)
    await expect.poll(() => closedEarly).toBe(true)
  })

  it('gives up when the server does not answer in time', async () => {
    const server = await serve(() => {
      // Never answers.
    })
    await expect(
      loader({ timeoutMs: 300 }).load({ source: 'url', url: `${server.url}/slow.glb` }),
    ).rejects.toThrow(`Could not load ${server.url}/slow.glb: no complete answer within 300 ms (ETIMEDOUT)`)
  })

  it('says there is no connection when nothing listens or the name does not resolve', async () => {
    const server = await serve(() => {})
    const closed = server.url
    await new Promise<void>((done) => servers.pop()!.close(() => done()))
    await expect(loader().load({ source: 'url', url: `${closed}/a.glb` })).rejects.toThrow(
      `Could not load ${closed}/a.glb: no connection, the server refused it (ECONNREFUSED)`,
    )
    await expect(
      loader().load({ source: 'url', url: 'https://catalog-desk-preview.invalid/a.glb' }),
    ).rejects.toThrow(
      /^Could not load https:\/\/catalog-desk-preview\.invalid\/a\.glb: no connection, the server name (was not found \(ENOTFOUND\)|could not be looked up \(EAI_AGAIN\))$/,
    )
  })

  it('refuses an empty answer', async () => {
    const server = await serve((_request, response) => response.end())
    await expect(loader().load({ source: 'url', url: `${server.url}/empty.glb` })).rejects.toThrow(
      `Could not load ${server.url}/empty.glb: the server sent an empty file`,
    )
  })
})

describe('formatBytes', () => {
  it('writes sizes as a person reads them', () => {
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(10)).toBe('10 bytes')
  })
})
