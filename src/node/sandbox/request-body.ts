import type { IncomingMessage } from 'node:http'

/** The body was larger than the sandbox accepts; it was not read to the end. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes`)
    this.name = 'BodyTooLargeError'
  }
}

/** Whether the request declares a body larger than `limit`, so it can be refused before reading. */
export function declaresTooLarge(request: IncomingMessage, limit: number): boolean {
  const length = Number(request.headers['content-length'])
  return Number.isFinite(length) && length > limit
}

/**
 * Reads the whole body, at most `limit` bytes: a client that sends more (whatever Content-Length
 * said) gets a `BodyTooLargeError` instead of holding the sandbox's memory. Rejects when the client
 * goes away mid-body.
 */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLargeError(limit)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * `application/json`, optionally with `charset=utf-8` (any case), which is what the contract says
 * the client sends. Anything else, a missing header included, is a 415.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase())
  if (type !== 'application/json') return false
  return parameters.every((parameter) => {
    const [name, value] = parameter.split('=').map((part) => part.trim())
    return name !== 'charset' || value === 'utf-8' || value === '"utf-8"'
  })
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string }

/** Strict UTF-8 and strict JSON (no byte order mark), as a JSON API parser would be. */
export function parseJsonBody(body: Buffer): ParsedJson {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body)
  } catch {
    return { ok: false, message: 'The body is not valid UTF-8' }
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
