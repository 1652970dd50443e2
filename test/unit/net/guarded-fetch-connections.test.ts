import { lookup } from 'node:dns'
import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { guardedFetch } from '#node/net/guarded-fetch.ts'
import { listenOnLoopback } from '../loopback-servers.ts'
import { fetchOptions } from './fetch-options.ts'

// Kept-alive connections and "Allow local addresses", against a real server on 127.0.0.1. Which
// address a connection reaches is checked when it is made, so a connection made while local
// addresses were allowed must never carry a request once they are not. The server is reached by a
// name that resolves to 127.0.0.1, as a rebinding or hostile name would: 127.0.0.1 written as
// such is refused before any connection is looked for.
const NAME = 'files.example.test'

/** NAME answers 127.0.0.1; every other name as the system says. */
function nameLookup(hostname: string, options: { all?: boolean }, callback: (...answer: unknown[]) => void) {
  if (hostname !== NAME) return void lookup(hostname, { all: options.all === true }, callback as never)
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

const listen = listenOnLoopback()

/** A server that numbers its connections and records which one each request came on. */
async function serve() {
  const connections: Socket[] = []
  const requests: Array<{ url: string; connection: number }> = []
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', connection: connections.indexOf(request.socket) })
    response.writeHead(200, { 'content-type': 'model/gltf-binary' })
    response.end('glTF-pretend-model')
  })
  server.on('connection', (socket: Socket) => connections.push(socket))
  const { port } = await listen(server)
  return {
    url: `http://${NAME}:${port}`,
    requests,
    /** Connections the server still holds open. */
    open: () => connections.filter((socket) => !socket.destroyed).length,
  }
}

describe('guardedFetch: connections and "Allow local addresses"', () => {
  it('a connection opened while local addresses were allowed is not used once they are not', async () => {
    const server = await serve()
    let allowLocal = true
    const options = fetchOptions({
      allowLocalAddresses: () => allowLocal,
      network: { lookup: nameLookup as unknown as typeof lookup },
    })

    // Allowed: served, and the connection is kept for the next request.
    await guardedFetch(`${server.url}/first.glb`, options)
    await guardedFetch(`${server.url}/second.glb`, options)
    expect(server.requests).toEqual([
      { url: '/first.glb', connection: 0 },
      { url: '/second.glb', connection: 0 },
    ])
    expect(server.open()).toBe(1)

    // Turned off: the same address is refused, and nothing reaches the server on the old connection.
    allowLocal = false
    await expect(guardedFetch(`${server.url}/third.glb`, options)).rejects.toMatchObject({
      code: 'refused',
      message: `Could not load ${server.url}/third.glb: ${NAME} resolves to 127.0.0.1, an address on this computer or a local network, which is not loaded unless allowed: turn on “Allow local addresses” in Settings to load it`,
    })
    expect(server.requests.map((request) => request.url)).toEqual(['/first.glb', '/second.glb'])
    // The idle connection made while allowed is closed, not left open to the local server.
    await expect.poll(server.open).toBe(0)

    // Allowed again: served, on a new connection.
    allowLocal = true
    await guardedFetch(`${server.url}/fourth.glb`, options)
    expect(server.requests.at(-1)).toEqual({ url: '/fourth.glb', connection: 1 })
  })
})
