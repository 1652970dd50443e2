import http from 'node:http'
import https from 'node:https'
import got, { type Agents } from 'got'
import type { Timeouts } from '#shared/profile.ts'
import type { ServiceAnswer } from './outcome-classification.ts'

/**
 * One request with a JSON body (POST or PUT, as the operation table says), and nothing more: no retries (resending is the caller's decision,
 * never got's), no redirects, a cap on how much of the answer is read. It never throws; it says
 * either what came back or how it failed and whether the body had left.
 */

export interface JsonPost {
  method: 'POST' | 'PUT'
  url: string
  body: string
  headers: Record<string, string>
  timeouts: Timeouts
  maxResponseBytes: number
  agents: Agents
  signal?: AbortSignal
}

export type JsonPostResult =
  | ({ kind: 'answer'; durationMs: number } & ServiceAnswer)
  | { kind: 'failure'; error: unknown; bodySent: boolean; cancelled: boolean; durationMs: number }

/**
 * A connection per request: a kept-alive socket the server has just closed fails only once the
 * body was written into it, which would read as "maybe processed" for a request that never arrived.
 */
export function createAgents(): Agents {
  return { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) }
}

function hasUploadTiming(error: unknown): boolean {
  const timings = (error as { timings?: { upload?: number } } | null)?.timings
  return typeof timings?.upload === 'number'
}

export function postJson(post: JsonPost): Promise<JsonPostResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  return new Promise((resolve) => {
    let bodySent = false
    let response: { statusCode: number; headers: ServiceAnswer['headers'] } | undefined
    const chunks: Buffer[] = []
    let received = 0
    let settled = false

    const settle = (result: JsonPostResult) => {
      if (settled) return
      settled = true
      resolve(result)
    }
    const answer = (bodyUnread?: ServiceAnswer['bodyUnread']) => {
      if (!response) return
      const result: JsonPostResult = {
        kind: 'answer',
        status: response.statusCode,
        headers: response.headers,
        durationMs: elapsed(),
      }
      if (bodyUnread) result.bodyUnread = bodyUnread
      else result.bodyText = Buffer.concat(chunks).toString('utf8')
      settle(result)
    }
    const fail = (error: unknown) => {
      // Once a status line came, it says what happened; only the body is lost.
      if (response) return answer('read-failed')
      settle({
        kind: 'failure',
        error,
        bodySent: bodySent || hasUploadTiming(error),
        cancelled: post.signal?.aborted ?? false,
        durationMs: elapsed(),
      })
    }

    let stream: ReturnType<typeof got.stream>
    try {
      stream = got.stream(post.url, {
        method: post.method,
        body: post.body,
        headers: post.headers,
        timeout: {
          lookup: post.timeouts.connectMs,
          connect: post.timeouts.connectMs,
          secureConnect: post.timeouts.connectMs,
          response: post.timeouts.responseMs,
          request: post.timeouts.totalMs,
        },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
        agent: post.agents,
        signal: post.signal,
      })
    } catch (error) {
      fail(error)
      return
    }

    // 'finish' is when the last byte of the body was handed to the network (got's timings.upload).
    stream.on('request', (request: http.ClientRequest) => request.once('finish', () => (bodySent = true)))
    stream.on('response', (incoming: http.IncomingMessage) => {
      response = { statusCode: incoming.statusCode ?? 0, headers: incoming.headers }
      const declared = Number(incoming.headers['content-length'])
      if (declared > post.maxResponseBytes) {
        answer('too-large')
        stream.destroy()
      }
    })
    stream.on('data', (chunk: Buffer) => {
      if (settled) return
      received += chunk.length
      if (received > post.maxResponseBytes) {
        chunks.length = 0
        answer('too-large')
        stream.destroy()
        return
      }
      chunks.push(chunk)
    })
    stream.on('end', () => answer())
    stream.on('error', fail)
    stream.on('close', () => fail(new Error('The connection closed without an answer.')))
  })
}
