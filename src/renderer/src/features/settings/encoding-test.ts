import type { ConnectionTest } from '#shared/ipc.ts'
import type { TokenEncoding } from '#shared/profile.ts'

/** What one encoding's connection test says about that encoding. */
export type EncodingAnswer = 'accepted' | 'refused' | 'not-sent' | 'unknown'

export interface EncodingTests {
  raw: ConnectionTest
  base64: ConnectionTest
}

export const ENCODING_NAMES: Record<TokenEncoding, string> = {
  raw: 'Raw',
  base64: 'Base64-encoded',
}

/**
 * Accepted: the service read the request past authentication. Refused: it answered 401 or 403.
 * Not sent: there was no token to send (nothing was asked). Anything else (unreachable, a timeout,
 * a 500) says nothing about the encoding.
 */
export function encodingAnswer(test: ConnectionTest): EncodingAnswer {
  if (test.ok) return 'accepted'
  if (test.kind === 'needs-token') return test.status === 401 || test.status === 403 ? 'refused' : 'not-sent'
  return 'unknown'
}

export interface EncodingVerdict {
  /** The encoding to use, when exactly one was accepted, or both (then the profile's stays right). */
  accepted: TokenEncoding[]
  /** One sentence for the person who pressed "Test both". */
  summary: string
  /** What to do about it, when the profile sends the token in a way the service refused. */
  advice?: string
}

/** What the two tests, raw then base64, say together, for a profile that sends `current`. */
export function encodingVerdict(tests: EncodingTests, current: TokenEncoding): EncodingVerdict {
  const raw = encodingAnswer(tests.raw)
  const base64 = encodingAnswer(tests.base64)
  const accepted = (['raw', 'base64'] as const).filter(
    (encoding) => encodingAnswer(tests[encoding]) === 'accepted',
  )
  if (raw === 'not-sent' || base64 === 'not-sent') {
    return {
      accepted,
      summary: `Nothing was sent: ${(raw === 'not-sent' ? tests.raw : tests.base64).message}`,
    }
  }
  if (accepted.length === 2) {
    return {
      accepted,
      summary: 'The service accepted the token both ways, raw and base64-encoded: either setting works.',
    }
  }
  if (accepted.length === 1) {
    const good = accepted[0]!
    const bad = good === 'raw' ? 'base64' : 'raw'
    const told = (encoding: TokenEncoding) => (encoding === 'raw' ? 'raw' : 'base64-encoded')
    const refusedToo = encodingAnswer(tests[bad]) === 'refused'
    return {
      accepted,
      summary: `The service accepts the token ${told(good)}${refusedToo ? ` and refuses it ${told(bad)}` : ''}.`,
      ...(current === good
        ? {}
        : {
            advice: `This profile sends it ${told(current)}: set Token encoding to “${ENCODING_NAMES[good]}” below and save.`,
          }),
    }
  }
  if (raw === 'refused' && base64 === 'refused') {
    return {
      accepted,
      summary:
        'The service refused the token both ways, so the encoding is not the problem: the token is wrong, has expired, or was made for another address.',
    }
  }
  const unclear = raw === 'unknown' ? tests.raw : tests.base64
  return { accepted, summary: `Could not tell which encoding the service accepts: ${unclear.message}` }
}
