import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'

/**
 * Real web servers on loopback for a test file: the function returned starts `server` on a free
 * port of `host` (127.0.0.1 unless told) and gives the port, and a way to close it sooner. Every
 * server is closed after its test, kept-alive connections and all (a fetcher's would otherwise
 * hold the close for seconds).
 */
export function listenOnLoopback() {
  const servers = new Set<Server>()
  const close = (server: Server) => {
    servers.delete(server)
    return new Promise<void>((closed) => {
      server.closeAllConnections()
      server.close(() => closed())
    })
  }
  afterEach(async () => {
    await Promise.all([...servers].map(close))
  })
  return async (server: Server, host = '127.0.0.1') => {
    servers.add(server)
    await new Promise<void>((listening) => server.listen(0, host, listening))
    const { port } = server.address() as AddressInfo
    return { port, close: () => close(server) }
  }
}

/** A port on 127.0.0.1 that nothing listens on any more (taken, then given back). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((closed) => server.close(() => closed()))
  return port
}
