import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { appFileServer } from '#node/app-files.ts'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'

export interface StaticServer {
  /** Origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string
  close(): Promise<void>
}

/**
 * Serves the built renderer over http with the code that serves it to the app's window through
 * the `app:` protocol (src/node/app-files.ts): same files, same headers, nothing outside `root`.
 */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const files = appFileServer(root, CONTENT_SECURITY_POLICY)
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
