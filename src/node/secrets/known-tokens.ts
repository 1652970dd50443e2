import { isPublicToken } from '#shared/sandbox-token.ts'
import { createRedactor, REDACTED, type Redact } from './redaction.ts'
import type { TokenStore } from './token-store.ts'

/**
 * The tokens main has held this session, so that text written to the log (or copied as
 * diagnostics) never carries one, whatever code wrote it: a request logged whole, an error that
 * echoes a header. A token is remembered as it enters main (set) or leaves the keychain (get,
 * lookup), before any code can hold it; one that was never read cannot be in any text main makes.
 */
export interface KnownTokens {
  remember(token: string | undefined): void
  /** The text without any remembered token (in every form `tokenForms` knows) and without credentials in headers. */
  redact: Redact
}

/** More tokens than a session sets or reads; the oldest is forgotten first (it is also the least likely to be logged). */
const MOST_REMEMBERED = 64

/**
 * A credential in a header-like text, whoever's token it is: `Authorization: Bearer …`, a JSON
 * `"authorization":"…"`, `Bearer …` on its own. The scheme's value is replaced up to a quote,
 * space, comma or bracket.
 */
const AUTHORIZATION = /(authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;)}\]]+/gi
const BEARER = /\b(bearer)\s+(?!\[token removed\])[^\s"',;)}\]]+/gi

export function redactCredentials(text: string): string {
  return text.replace(AUTHORIZATION, `$1${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`)
}

export function knownTokens(): KnownTokens {
  const redactors = new Map<string, Redact>()
  return {
    remember(token) {
      const trimmed = token?.trim()
      // The sandbox's token is printed in Settings: it is no secret, and the sandbox's words hold it.
      if (!trimmed || isPublicToken(trimmed)) return
      for (const form of new Set([token!, trimmed])) {
        if (redactors.has(form)) continue
        if (redactors.size >= MOST_REMEMBERED) redactors.delete(redactors.keys().next().value!)
        const plain = createRedactor(form)
        // In a JSON text a quote or a backslash in the token is escaped.
        const escaped = JSON.stringify(form).slice(1, -1)
        const inJson = escaped === form ? undefined : createRedactor(escaped)
        redactors.set(form, inJson ? (text) => inJson(plain(text)) : plain)
      }
    },
    redact(text) {
      let result = text
      for (const redact of redactors.values()) result = redact(result)
      return redactCredentials(result)
    },
  }
}

/**
 * The token store, telling `known` every token that passes through it: a token being set, and one
 * read for a request. Nothing else changes.
 */
export function rememberingTokens(store: TokenStore, known: KnownTokens): TokenStore {
  return {
    ...store,
    async set(profileId, address, token) {
      known.remember(token)
      return store.set(profileId, address, token)
    },
    async get(profileId, address) {
      const token = await store.get(profileId, address)
      known.remember(token)
      return token
    },
    async lookup(profileId, address) {
      const found = await store.lookup(profileId, address)
      if (found.found) known.remember(found.token)
      return found
    },
  }
}
