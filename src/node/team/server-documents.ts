import { messageOf } from '#shared/error-message.ts'
import type { Workspace } from './replica.ts'
import { askServer } from './server-request.ts'

/**
 * The workspace's documents read and written straight on its server (never through the replica):
 * the claims and the send records (issue #42), which the server alone must decide. Every answer
 * carries the server's time (its `Date` header), by which claims expire.
 */
export class ServerDocuments {
  readonly #workspace: Workspace

  constructor(workspace: Workspace) {
    this.#workspace = workspace
  }

  /** The server's clock now, from the `Date` its answer to a cheap request carries. */
  async now(): Promise<number> {
    return (await this.request('GET', '')).serverNow
  }

  /**
   * The documents `ids`, each by its row's key (a document removed or never written has none; a
   * removed one has no id in CouchDB's answer either), with the server's time of the reading.
   */
  async read(
    ids: readonly string[],
  ): Promise<{ rows: Array<{ key: string; doc?: unknown }>; serverNow: number }> {
    const answer = await this.request<{ rows?: unknown }>('POST', '/_all_docs?include_docs=true', {
      keys: ids,
    })
    const wanted = new Set(ids)
    const rows = listOf<{ key: string; doc?: unknown }>(answer.body.rows).filter((row) => wanted.has(row.key))
    return { rows, serverNow: answer.serverNow }
  }

  /** Writes `docs` in one request; each answers its new revision, or none when refused (409). */
  async bulk(docs: readonly object[]): Promise<Array<{ rev?: string }>> {
    const answer = await this.request<unknown>('POST', '/_bulk_docs', { docs })
    const results = listOf<{ rev?: unknown; error?: unknown }>(answer.body)
    if (results.length !== docs.length)
      throw new Error(`The workspace's server answered ${results.length} of ${docs.length} documents.`)
    return results.map((result) =>
      !result.error && typeof result.rev === 'string' ? { rev: result.rev } : {},
    )
  }

  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    json?: object,
  ): Promise<{ body: T; serverNow: number }> {
    const { url } = this.#workspace
    const address = `${url}${path}`
    let response
    try {
      response = await askServer(this.#workspace, address, { method, json })
    } catch (error) {
      throw new Error(
        `The workspace's server at ${new URL(url).origin} did not answer: ${messageOf(error)}`,
        { cause: error },
      )
    }
    if (response.statusCode >= 300)
      throw new Error(
        `The workspace's server refused the request (HTTP ${response.statusCode} at ${address}).`,
      )
    const serverNow = Date.parse(response.headers.date ?? '')
    if (!Number.isFinite(serverNow))
      throw new Error(
        `The workspace's server at ${new URL(url).origin} did not say its time (a Date header).`,
      )
    return { body: response.body as T, serverNow }
  }
}

/** The server's answer as the list CouchDB gives (each entry an object), or an error saying not. */
function listOf<T extends object>(value: unknown): T[] {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'object' || entry === null))
    throw new Error('The workspace’s server answered in a form CouchDB never does.')
  return value as T[]
}
