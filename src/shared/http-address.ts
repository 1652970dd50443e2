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
