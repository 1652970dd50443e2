/** The hosts an address may name over plain http: this computer only (a local sandbox, tests, a mirror). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * Whether an address names this computer (127.0.0.1, ::1, localhost): what is sent there never
 * leaves it, so it needs no network. An address that cannot be read is not one.
 */
export function isLoopbackAddress(value: string): boolean {
  const url = URL.parse(value.trim())
  return url !== null && LOOPBACK_HOSTS.has(url.hostname)
}

/** This computer's names, as the URL API spells them. */
export const LOOPBACK_NAMES: readonly string[] = [...LOOPBACK_HOSTS]

/**
 * An address in the one spelling the URL standard gives it: scheme and host in lower case, the
 * scheme's default port left out, no trailing slash ("HTTP://LocalHost:80/api/" is
 * "http://localhost/api"). An address that cannot be read is given back as it is, for its check
 * to refuse.
 */
export function canonicalAddress(value: string): string {
  const url = URL.parse(value.trim())
  return url ? `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '') : value
}

/**
 * Whether `found` (read from a file: anything) may stand for the address `expected`: the same
 * address in any spelling, or this computer under any of its names (a push journal of
 * "http://localhost:4010" is taken for "http://127.0.0.1:4010" when the person names it).
 */
export function sameAddress(found: unknown, expected: string): boolean {
  return typeof found === 'string' && computerWide(found) === computerWide(expected)
}

function computerWide(value: string): string {
  const url = URL.parse(value.trim())
  if (url && LOOPBACK_HOSTS.has(url.hostname)) url.hostname = 'localhost'
  return canonicalAddress(url ? url.href : value)
}

/**
 * Which rule an address the app sends to (a service, an update feed) breaks, or undefined: it is
 * an https URL, or http to this computer only ('form'); it names no user name or password
 * ('credentials'); and it has no `?` or `#`, even with nothing after it ('query': the URL API
 * reports an empty query or fragment as none). Each caller says it in its own words.
 */
export function httpAddressRule(value: string): 'form' | 'credentials' | 'query' | undefined {
  const url = URL.parse(value)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return 'form'
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'form'
  if (url.username || url.password) return 'credentials'
  if (value.includes('?') || value.includes('#')) return 'query'
  return undefined
}
