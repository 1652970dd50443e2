/**
 * The token the embedded sandbox (and `catalog-desk sandbox` by default) accepts. Not a secret:
 * the sandbox is a stand-in for the service on this computer, and Settings prints this value so
 * that a custom profile can reach it. One place, so the words and the server never disagree.
 */
export const SANDBOX_TOKEN = 'sandbox-token'

/**
 * Tokens anyone can read in the app itself: the sandbox's, and `sandbox`, which Settings named
 * (wrongly) before. Neither protects anything, so neither is redacted: removing them would only
 * mangle the words around them ("this [token removed] accepts…") while hiding nothing.
 */
const PUBLIC_TOKENS: readonly string[] = [SANDBOX_TOKEN, 'sandbox']

export function isPublicToken(token: string): boolean {
  return PUBLIC_TOKENS.includes(token.trim())
}
