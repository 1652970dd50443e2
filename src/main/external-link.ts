/**
 * Only https links leave the app for the user's browser: plain http can be rewritten on the way,
 * and file:, javascript: or custom schemes would let a page start programs on the machine.
 */
export function isExternalLink(url: string): boolean {
  return URL.parse(url)?.protocol === 'https:'
}
