import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { appOrigin, type OriginHandler } from '#node/app-origin.ts'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'

export interface StaticServer {
  /** Origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string
  close(): Promise<void>
}

/**
 * Serves the app's origin over http with the code that serves it to the app's window through the
 * `app:` protocol (src/node/app-origin.ts): the built renderer's files (same headers, nothing
 * outside `root`) and the list's thumbnails, answered by `thumbnails` (main's route, made by the
 * caller with the settings it runs under).
 */
export async function startStaticServer(root: string, thumbnails: OriginHandler): Promise<StaticServer> {
  const files = appOrigin({ rendererDir: root, policy: CONTENT_SECURITY_POLICY, thumbnails })
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    // Inside the chain: a Request refuses some methods (CONNECT, TRACE) by throwing.
    Promise.resolve()
      .then(() => files(new Request(url, { method: request.method })))
      .then(async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers))
        response.end(Buffer.from(await answer.arrayBuffer()))
      })
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error))
        else response.destroy()
      })
  })
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolveListen())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections()
        server.close(() => resolveClose())
      }),
  }
}
