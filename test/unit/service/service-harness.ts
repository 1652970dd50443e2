import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '#node/sandbox/server.ts'
import { createServiceClient, type ServiceClientConfig } from '#node/service/client.ts'
import type { Timeouts } from '#shared/profile.ts'
import { fixture } from '../shared/contract-fixtures.ts'

/** Real sockets on loopback, closed after each test: the client is tested as it runs, without mocks. */

export const TOKEN = 'cd-test-token-7f3a9c2e1b'
export const TOKEN_BASE64 = Buffer.from(TOKEN, 'utf8').toString('base64')

/** Short enough for fast tests, long enough that a loaded machine does not trip them. */
export const TEST_TIMEOUTS: Timeouts = { connectMs: 2_000, responseMs: 1_500, totalMs: 10_000 }

const closers: (() => Promise<void>)[] = []

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

export async function sandboxFor(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ token: TOKEN, ...options })
  closers.push(() => sandbox.close())
  return sandbox
}

export function clientFor(baseUrl: string, overrides: Partial<ServiceClientConfig> = {}) {
  return createServiceClient({
    baseUrl,
    tokenEncoding: 'raw',
    timeouts: TEST_TIMEOUTS,
    getToken: async () => TOKEN,
    ...overrides,
  })
}

/** The contract's two example SKUs, fresh. */
export const skus = () => (fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }).skus

export const appRequest = () => fixture('app-create-request.json')

/** Requests that reached an operation of the sandbox. */
export const operationRequests = (sandbox: Sandbox) =>
  sandbox.requests().filter((entry) => entry.endpoint !== null)

/** A loopback port with nothing listening, as the other unit tests get one. */
export { closedPort } from '../loopback-servers.ts'

export interface TinyServer {
  url: string
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[]
}

/** A server of our own, for answers the sandbox does not give (echoes, huge bodies, redirects). */
export async function tinyServer(
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<TinyServer> {
  const requests: TinyServer['requests'] = []
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
      handle(request, response, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}
