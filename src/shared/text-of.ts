/** A value read as text: the string itself, or empty for anything else (absent, a number, null). */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
