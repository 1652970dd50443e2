/** `text` as a regular expression that matches it literally (Node 22 has no `RegExp.escape`). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
