/**
 * The entries of `appConfig.domains` as host names. The contract does not document an entry's
 * shape; the console blocks requests from domains not listed, so the product writes each entry as
 * the host name a shopper's browser shows (`shop.example.com`) and checks it here.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i
const MAX_LENGTH = 253

/** Why `value` is not a host name, in words a catalog person can act on; undefined when it is one. */
export function hostNameProblem(value: string): string | undefined {
  if (value.trim() === '') return 'is empty; write a host name such as shop.example.com, or remove the entry'
  if (value !== value.trim()) return 'has spaces at the start or end'
  if (/\s/.test(value)) return 'has spaces; a host name has none'
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return `must be the host name only (${suggestHost(value) ?? 'shop.example.com'}), without ${value.split('://')[0]}://`
  }
  if (value.includes('*'))
    return 'has a wildcard; the contract does not document wildcards, so list each host name'
  if (/[/?#]/.test(value))
    return `must be the host name only (${suggestHost(value) ?? 'shop.example.com'}), without a path`
  if (value.includes('@')) return 'must be a host name, not an e-mail address or a user name'
  if (value.includes(':')) return `must be the host name only (${value.split(':')[0]}), without a port`
  if (value.length > MAX_LENGTH)
    return `is ${value.length} characters long; a host name has at most ${MAX_LENGTH}`
  if (value.endsWith('.')) return 'ends with a dot'
  // eslint-disable-next-line no-control-regex -- "anything outside ASCII" is exactly what is meant
  if (/[^\x00-\x7f]/.test(value))
    return 'has letters outside a–z; write an international name in its xn-- form'
  const bad = value.split('.').find((label) => !LABEL.test(label))
  if (bad !== undefined) {
    if (bad === '') return 'has two dots in a row, or starts with one'
    if (bad.length > 63) return 'has a part longer than 63 characters between dots'
    if (bad.startsWith('-') || bad.endsWith('-'))
      return `has a part (“${bad}”) that starts or ends with a hyphen`
    return 'may only hold letters a–z, digits, hyphens and dots'
  }
  return undefined
}

/** The host name inside an address someone pasted (`https://shop.example.com/path` → `shop.example.com`). */
export function suggestHost(value: string): string | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`
  const url = URL.parse(candidate.trim())
  if (!url || !url.hostname || hostNameProblemShallow(url.hostname)) return undefined
  return url.hostname
}

function hostNameProblemShallow(host: string): boolean {
  return !host.split('.').every((label) => LABEL.test(label))
}

export function isHostName(value: unknown): value is string {
  return typeof value === 'string' && hostNameProblem(value) === undefined
}
