import type { ServerResponse } from 'node:http'
import type { Problem } from '#shared/validation/problem.ts'

/** What the sandbox answers to one request, before it is written to the socket. */
export interface Reply {
  status: number
  /** Serialised as the JSON body. Absent: no body. */
  json?: unknown
  /** Sent as text/html instead of JSON, as a proxy's error page would be. */
  html?: string
  headers?: Record<string, string>
}

export function jsonReply(status: number, json: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, json, headers } : { status, json }
}

/** An error in the platform's own shape: a JSON body with `message` (and per-field `errors` for a 400). */
export function errorReply(status: number, message: string, headers?: Record<string, string>): Reply {
  return jsonReply(status, { message }, headers)
}

/** A 400: what is wrong, and where (dotted paths, as the shared validation names them). */
export function invalidReply(message: string, errors: Problem[]): Reply {
  return jsonReply(400, { message, errors })
}

export function send(response: ServerResponse, reply: Reply): void {
  // The client has gone (or the sandbox is closing): nothing to write to.
  if (response.destroyed || response.headersSent) return
  let body: string | undefined
  const headers: Record<string, string> = { ...reply.headers }
  if (reply.html !== undefined) {
    body = reply.html
    headers['content-type'] = 'text/html; charset=utf-8'
  } else if (reply.json !== undefined) {
    body = JSON.stringify(reply.json)
    headers['content-type'] = 'application/json; charset=utf-8'
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
  response.writeHead(reply.status, headers)
  response.end(body)
}

/** Drops the connection with a TCP reset and no answer, as a crashed server or a dying proxy would. */
export function resetConnection(response: ServerResponse): void {
  response.socket?.resetAndDestroy()
}
