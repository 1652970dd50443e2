import { isPublicToken } from '#shared/sandbox-token.ts'

/**
 * The token must never leave main inside text: not in our messages, not in the service's own words
 * (a service or a proxy may echo the Authorization header back), not in an error from the HTTP
 * stack or the keychain. Every such string goes through a redactor that knows every form the token
 * is sent or could be echoed in.
 */
export type Redact = (text: string) => string

export const REDACTED = '[token removed]'
/** What is left of a text when removing the token did not get rid of it (contrived overlaps). */
const WITHHELD = '[text withheld: it contained the token]'

/** The token as typed, and the forms it takes in a header or a URL. Longest first. */
export function tokenForms(token: string): string[] {
  const bytes = Buffer.from(token, 'utf8')
  const base64 = bytes.toString('base64')
  const forms = new Set([
    token,
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    encodeURIComponent(token),
    encodeURIComponent(base64),
  ])
  forms.delete('')
  // Longest first, so a form that contains a shorter one (padding, escapes) goes whole.
  return [...forms].sort((a, b) => b.length - a.length)
}

export function createRedactor(token: string | undefined): Redact {
  // A token the app itself prints (the sandbox's) hides nothing: redacting it would only mangle text.
  if (!token || isPublicToken(token)) return (text) => text
  const forms = tokenForms(token)
  const contains = (text: string) => forms.some((form) => text.includes(form))
  return (text) => {
    let result = text
    // A replacement can, in theory, join its own marker and the text around it into another form.
    for (let pass = 0; pass < 3 && contains(result); pass++) {
      for (const form of forms) result = result.split(form).join(REDACTED)
    }
    if (!contains(result)) return result
    return contains(WITHHELD) ? '' : WITHHELD
  }
}

/**
 * Redacts every string (values and keys) inside parsed JSON, in place. Iterative: a megabyte of
 * nested arrays must not overflow the stack. Assigns with defineProperty so a `__proto__` key read
 * by JSON.parse stays a plain property.
 */
export function redactStrings(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value)
  if (typeof value !== 'object' || value === null) return value
  const pending: object[] = [value]
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const record = node as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const child = record[key]
      if (typeof child === 'object' && child !== null) pending.push(child)
      const safeChild = typeof child === 'string' ? redact(child) : child
      const safeKey = redact(key)
      if (safeKey === key && safeChild === child) continue
      if (safeKey !== key) delete record[key]
      Object.defineProperty(record, safeKey, {
        value: safeChild,
        writable: true,
        enumerable: true,
        configurable: true,
      })
    }
  }
  return value
}
