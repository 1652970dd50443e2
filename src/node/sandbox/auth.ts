import { createHash, timingSafeEqual } from 'node:crypto'
import type { SandboxTokenEncoding } from './options.ts'

export type AuthCheck = 'ok' | 'missing' | 'not-bearer' | 'wrong'

/** The values after `Bearer ` the sandbox accepts: the live service's docs disagree on the encoding. */
function acceptedValues(token: string, encoding: SandboxTokenEncoding): string[] {
  const base64 = Buffer.from(token, 'utf8').toString('base64')
  if (encoding === 'raw') return [token]
  if (encoding === 'base64') return [base64]
  return [token, base64]
}

// Hashing first gives equal-length inputs, so timingSafeEqual leaks neither the token nor its length.
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

function matchesAny(value: string, accepted: string[]): boolean {
  const given = digest(value)
  let match = false
  // Every candidate is compared, so the time taken does not say which one was close.
  for (const candidate of accepted) match = timingSafeEqual(given, digest(candidate)) || match
  return match
}

export function checkAuthorization(
  header: string | undefined,
  token: string,
  encoding: SandboxTokenEncoding,
): AuthCheck {
  if (header === undefined || header.trim() === '') return 'missing'
  const found = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)
  if (!found?.[1]) return 'not-bearer'
  return matchesAny(found[1], acceptedValues(token, encoding)) ? 'ok' : 'wrong'
}

const ENCODING_WORDS: Record<SandboxTokenEncoding, string> = {
  raw: 'the token as it is',
  base64: 'the token base64-encoded',
  either: 'the token as it is or base64-encoded',
}

/** The 401 message. Says what the sandbox expects, never what it was sent or what the token is. */
export function authProblem(check: Exclude<AuthCheck, 'ok'>, encoding: SandboxTokenEncoding): string {
  const expected = `this sandbox accepts ${ENCODING_WORDS[encoding]}`
  if (check === 'missing') return `Send the header Authorization: Bearer <token>; ${expected}`
  if (check === 'not-bearer') return `The Authorization header must be "Bearer <token>"; ${expected}`
  return `The token is not valid; ${expected}`
}
