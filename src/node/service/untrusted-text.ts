/**
 * Text that came from the service (or from anything in between, such as a proxy) is untrusted: it
 * may be huge, carry control or bidi characters that disguise what a person reads, or span many
 * lines. It is only ever shown as plain text, so flattening and capping it is all it needs.
 */
import type { Redact } from '../secrets/redaction.ts'

// Format characters (zero-width, bidi overrides) are dropped; control characters and line or
// paragraph separators become spaces.
const FORMAT = /\p{Cf}+/gu
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu

/** One line of plain text; reads at most `budget * 4` characters so a megabyte costs nothing. */
export function flatten(value: string, budget: number): string {
  const head = value.length > budget * 4 ? value.slice(0, budget * 4) : value
  return head.replace(FORMAT, '').replace(BREAKS, ' ').replace(/\s+/g, ' ').trim()
}

/** Cuts at a character boundary (never inside a surrogate pair); an ellipsis marks the cut. */
export function truncate(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value
  const characters = Array.from(value.slice(0, maxLength * 2))
  if (value.length <= maxLength * 2 && characters.length <= maxLength) return value
  return characters.slice(0, Math.max(0, maxLength - 1)).join('') + '…'
}

/**
 * Untrusted text made fit to show: the token goes first, while it is still whole (a cut could leave
 * half of it), and again after flattening (removed invisible characters could join its halves).
 */
export function showable(value: string, maxLength: number, redact: Redact): string {
  return truncate(redact(flatten(redact(value), maxLength)), maxLength)
}
