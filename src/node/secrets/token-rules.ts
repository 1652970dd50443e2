/** Longer than any real token: a paste this long is a mistake (a whole file, a log), not a token. */
export const MAX_TOKEN_LENGTH = 8_192

/** A token that cannot be stored. Its message never contains the token: it may end up in a log. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError'
}

/**
 * The token as it will be stored and sent: surrounding whitespace (a paste often carries a newline)
 * removed. Anything inside that a header cannot carry is refused rather than silently changed.
 */
export function normaliseToken(raw: unknown): string {
  if (typeof raw !== 'string') throw new InvalidTokenError('The token must be text.')
  const token = raw.trim()
  if (token === '') throw new InvalidTokenError('The token is empty: paste the token from your account.')
  if (token.length > MAX_TOKEN_LENGTH) {
    throw new InvalidTokenError(
      `The token is too long (${token.length.toLocaleString('en')} characters; at most ${MAX_TOKEN_LENGTH.toLocaleString('en')}): paste only the token.`,
    )
  }
  if (/\p{Cc}/u.test(token)) {
    throw new InvalidTokenError(
      'The token must be a single line without line breaks or control characters: paste only the token.',
    )
  }
  return token
}
