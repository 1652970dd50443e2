/**
 * Reads a `Retry-After` header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). Anything else is
 * treated as absent, so a garbled header never turns into a wait of NaN or of years.
 */

/** A week: longer waits are the person's decision anyway, and this stays inside a timer's range. */
const MAX_WAIT_MS = 7 * 24 * 60 * 60 * 1000

/** The wait in milliseconds, or undefined when the value is missing or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_WAIT_MS)
  // Date.parse reads bare numbers ("1.5", "-1") as years or dates; an HTTP-date always has a month name.
  if (!/[a-z]{3}/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  // A date in the past means "now".
  return Math.min(Math.max(0, at - nowMs), MAX_WAIT_MS)
}
