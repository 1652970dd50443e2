import { lookup } from 'node:dns'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type RequestListener } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GuardedFetchOptions } from '#node/net/guarded-fetch.ts'
import { formatBytes } from '#shared/byte-size.ts'
import { isPublicAddress } from '#node/net/local-addresses.ts'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import { guardedFetch } from '#node/net/guarded-fetch.ts'
import { SAMPLE_ADDRESSES, SAMPLE_ORIGIN } from '#shared/sample-assets.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { listenOnLoopback } from '../loopback-servers.ts'
import { resourcesDir } from './service-deps.ts'

// The loader against the repository's real resources folder and real web servers on loopback.
// These machines have no internet, so one loopback address stands in for it: 127.0.0.2 counts as
// a public address here (Linux answers on all of 127.0.0.0/8), and test names resolve as below.
// Everything else is judged by the real rules: 127.0.0.1 is this computer, as it is for users.
const INTERNET = '127.0.0.2'
const NAMES: Record<string, string[]> = {
  'cdn.example.test': [INTERNET],
  // A name that answers with this computer: DNS rebinding, or a hostile zone.
  'rebind.example.test': ['127.0.0.1'],
  'both.example.test': [INTERNET, '127.0.0.1'],
}
/** Answers for the test names above, and the system's resolver for any other name. */
function testLookup(
  hostname: string,
  options: { all?: boolean },
  callback: (...answer: unknown[]) => void,
): void {
  const addresses = NAMES[hostname]
  if (!addresses) return void lookup(hostname, { all: options.all === true }, callback as never)
  const all = addresses.map((address) => ({ address, family: 4 }))
  if (options.all) callback(null, all)
  else callback(null, all[0]!.address, 4)
}
const network: GuardedFetchOptions['network'] = {
  lookup: testLookup as unknown as typeof lookup,
  isPublic: (address) => address === INTERNET || isPublicAddress(address),
}

interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

const listen = listenOnLoopback()

/** A server on 127.0.0.1 that records each request and answers with `handle`. */
async function serve(handle: RequestListener, host = INTERNET) {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers })
    handle(request, response)
  })
  const { port, close } = await listen(server, host)
  return { url: `http://${host}:${port}`, port, seen, close }
}

const loader = (options: { maxBytes?: number; timeoutMs?: number; allowLocal?: boolean } = {}) =>
  createPreviewAssetLoader({
    resourcesDir,
    allowLocalAddresses: () => options.allowLocal ?? false,
    network,
    ...options,
  })

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
    const broken = createPreviewAssetLoader({
      resourcesDir: '/nonexistent/resources',
      allowLocalAddresses: () => false,
    })
    await expect(broken.load({ source: 'sample', name: 'model' })).rejects.toThrow(
      'The bundled preview sample sample-glasses.glb could not be read from /nonexistent/resources/preview/sample-glasses.glb (ENOENT).',
    )
  })

  it('answers the template’s sample addresses with the bundled samples, looking nothing up', async () => {
    const looked: string[] = []
    const watching: GuardedFetchOptions['network'] = {
      ...network,
      lookup: ((hostname: string, options: { all?: boolean }, callback: (...answer: unknown[]) => void) => {
        looked.push(hostname)
        testLookup(hostname, options, callback)
      }) as unknown as typeof lookup,
    }
    const samples = createPreviewAssetLoader({
      resourcesDir,
      allowLocalAddresses: () => true,
      network: watching,
    })
    const files = { model: 'sample-glasses.glb', environment: 'studio.hdr', picture: 'sample-product.png' }
    for (const [name, file] of Object.entries(files)) {
      const asset = await samples.load({ source: 'url', url: SAMPLE_ADDRESSES[name as keyof typeof files] })
      expect(asset.name).toBe(file)
      expect(Buffer.from(asset.bytes)).toEqual(readFileSync(join(resourcesDir, 'preview', file)))
    }
    expect((await samples.load({ source: 'url', url: SAMPLE_ADDRESSES.picture })).contentType).toBe(
      'image/png',
    )
    // An address under the sample host that names no sample is refused, still without a lookup.
    await expect(samples.load({ source: 'url', url: `${SAMPLE_ORIGIN}/other.glb` })).rejects.toThrow(
      `Could not load ${SAMPLE_ORIGIN}/other.glb: it is a sample address, but no sample is called so`,
    )
    // Any other caller of the guarded fetcher (the asset checks, the CLI) is refused one too.
    await expect(
      guardedFetch(SAMPLE_ADDRESSES.model, {
        allowLocalAddresses: () => true,
        maxBytes: 1024,
        timeoutMs: 1000,
        maxRedirects: 0,
        mediaTypes: 'any',
        typesByExtension: {},
        accept: '*/*',
        network: watching,
      }),
    ).rejects.toThrow('it is a sample address, which stands for the app’s bundled sample')
    expect(looked).toEqual([])
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
        response.writeHead(200, { 'content-type': 'model/gltf-binary' })
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

  it.each([
    ['file:///etc/passwd', 'only http and https addresses are loaded'],
    ['ftp://example.com/model.glb', 'only http and https addresses are loaded'],
    ['https://user:secret@cdn.example.test/x.glb', 'addresses with a user name or password are not loaded'],
  ])('refuses a redirect to %s', async (location, reason) => {
    const server = await serve((_request, response) => {
      response.writeHead(301, { location })
      response.end()
    })
    await expect(loader().load({ source: 'url', url: `${server.url}/model.glb` })).rejects.toThrow(
      `Could not load ${server.url}/model.glb: it was redirected to ${location}: ${reason}`,
    )
    expect(server.seen).toHaveLength(1)
  })

  it('refuses anything but http(s), and addresses carrying a user name or password', async () => {
    await expect(loader().load({ source: 'url', url: 'file:///etc/passwd' })).rejects.toThrow(
      'Could not load file:///etc/passwd: only http and https addresses are loaded',
    )
    await expect(
      loader().load({ source: 'url', url: 'https://me:token@cdn.example.com/a.glb' }),
    ).rejects.toThrow('addresses with a user name or password are not loaded')
  })

  it('stops at the size limit: by the declared length, before reading the body', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': 4096, 'content-type': 'model/gltf-binary' })
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
    await server.close()
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
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary' })
      response.end()
    })
    await expect(loader().load({ source: 'url', url: `${server.url}/empty.glb` })).rejects.toThrow(
      `Could not load ${server.url}/empty.glb: the server sent an empty file`,
    )
  })
})

describe('what main refuses to fetch', () => {
  const refusal = (address: string, url: string) =>
    `Could not load ${url}: it points to ${address}, an address on this computer or a local network, which is not loaded unless allowed: turn on “Allow local addresses” in Settings to load it`

  let sandbox: Sandbox | undefined
  afterEach(async () => {
    await sandbox?.close()
    sandbox = undefined
  })

  it('does not hand the embedded sandbox’s stored catalogue to the page, unless local addresses are allowed', async () => {
    sandbox = await startSandbox({ port: 0, token: 'sandbox-token' })
    const stored = `${sandbox.url}/__sandbox/received`
    await expect(loader().load({ source: 'url', url: stored })).rejects.toThrow(refusal('127.0.0.1', stored))
    // Allowed, it is still not a model or a picture.
    await expect(loader({ allowLocal: true }).load({ source: 'url', url: stored })).rejects.toThrow(
      `Could not load ${stored}: the server sent application/json, not model/gltf-binary, model/gltf+json,`,
    )
  })

  it('loads from this computer once “Allow local addresses” is on', async () => {
    const local = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'model/gltf-binary' })
      response.end('glTF')
    }, '127.0.0.1')
    await expect(loader().load({ source: 'url', url: `${local.url}/a.glb` })).rejects.toThrow(
      refusal('127.0.0.1', `${local.url}/a.glb`),
    )
    expect(local.seen).toHaveLength(0)
    const asset = await loader({ allowLocal: true }).load({ source: 'url', url: `${local.url}/a.glb` })
    expect(Buffer.from(asset.bytes).toString()).toBe('glTF')
  })

  it.each([
    ['http://127.0.0.1:9/a.glb', '127.0.0.1'],
    ['http://[::1]:9/a.glb', '::1'],
    // The URL API reads these as 127.0.0.1, and so does the network.
    ['http://2130706433:9/a.glb', '127.0.0.1'],
    ['http://0x7f.1:9/a.glb', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]:9/a.glb', '::ffff:7f00:1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://10.0.0.1/a.glb', '10.0.0.1'],
    ['http://192.168.1.1/a.glb', '192.168.1.1'],
    ['http://[fd00::1]/a.glb', 'fd00::1'],
    ['http://0.0.0.0:9/a.glb', '0.0.0.0'],
  ])('refuses %s without connecting', async (url, address) => {
    await expect(loader().load({ source: 'url', url })).rejects.toThrow(refusal(address, url))
  })

  it('refuses a name that resolves to this computer, checked when it connects', async () => {
    await expect(loader().load({ source: 'url', url: 'http://localhost:9/a.glb' })).rejects.toThrow(
      /^Could not load http:\/\/localhost:9\/a\.glb: localhost resolves to (127\.0\.0\.1|::1), an address on this computer or a local network/,
    )
    await expect(loader().load({ source: 'url', url: 'http://rebind.example.test:9/a.glb' })).rejects.toThrow(
      'rebind.example.test resolves to 127.0.0.1, an address on this computer',
    )
    // One local answer among public ones is enough to refuse.
    await expect(loader().load({ source: 'url', url: 'http://both.example.test:9/a.glb' })).rejects.toThrow(
      'both.example.test resolves to 127.0.0.1',
    )
  })

  it('checks every redirect: a public address that redirects to this computer is refused before it connects', async () => {
    const local = await serve((_request, response) => response.end('secret'), '127.0.0.1')
    const hops = [`${local.url}/secret`, `http://rebind.example.test:${local.port}/secret`]
    for (const location of hops) {
      const cdn = await serve((_request, response) => {
        response.writeHead(302, { location })
        response.end()
      })
      const url = `http://cdn.example.test:${cdn.port}/model.glb`
      await expect(loader().load({ source: 'url', url })).rejects.toThrow(`Could not load ${url}: `)
      expect(cdn.seen).toHaveLength(1)
    }
    expect(local.seen).toHaveLength(0)
  })

  it('says the same whether a local port is open or not, so it cannot be used to scan them', async () => {
    const open = await serve((_request, response) => response.end('x'), '127.0.0.1')
    const reasons = await Promise.all(
      [open.port, 9].map((port) =>
        loader()
          .load({ source: 'url', url: `http://127.0.0.1:${port}/a.glb` })
          .catch((error: Error) => error.message.replace(`:${port}/`, ':PORT/')),
      ),
    )
    expect(reasons[0]).toBe(reasons[1])
    expect(open.seen).toHaveLength(0)
  })

  it('takes models and pictures only: a web page is refused', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end('<h1>router admin</h1>')
    })
    await expect(loader().load({ source: 'url', url: `${server.url}/model.glb` })).rejects.toThrow(
      `Could not load ${server.url}/model.glb: the server sent text/html, not model/gltf-binary`,
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
