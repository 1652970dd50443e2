/**
 * The address to hand the user's browser for `url`, or undefined when it is not opened. Only https
 * links leave the app: plain http can be rewritten on the way, and file:, javascript: or custom
 * schemes would let a page start programs on the machine. The string is parsed once and the
 * parsed URL's href is what is opened, so the browser is given the address that was checked, not a
 * spelling (spaces, tabs, letter case, backslashes, missing slashes) the OS might read otherwise.
 */
export function externalLink(url: string): string | undefined {
  const parsed = URL.parse(url)
  return parsed?.protocol === 'https:' ? parsed.href : undefined
}
