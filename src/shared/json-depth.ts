/**
 * The deepest a document may nest objects and lists. The contract's deepest field is five levels
 * down; unknown fields are kept as they are, but thousands of levels would overflow the stack of
 * every recursive step after parsing (validation, export, the push fingerprint).
 */
export const MAX_JSON_DEPTH = 100

/**
 * Whether `value` nests objects or lists deeper than `limit` (walked without recursion). Only
 * objects and lists go on the stack, with their depth beside them rather than in a pair made for
 * each: the walk allocates nothing per value, where it was a tenth of the CLI's time on JSON. (The
 * CLI now checks the depth while it reads the text: json-items.ts.)
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false
  const stack: object[] = [value]
  const depths: number[] = [0]
  while (stack.length > 0) {
    const current = stack.pop()!
    const depth = depths.pop()!
    if (depth >= limit) return true
    if (Array.isArray(current)) {
      for (const child of current) {
        if (typeof child === 'object' && child !== null) {
          stack.push(child)
          depths.push(depth + 1)
        }
      }
    } else {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue
        const child = (current as Record<string, unknown>)[key]
        if (typeof child === 'object' && child !== null) {
          stack.push(child)
          depths.push(depth + 1)
        }
      }
    }
  }
  return false
}
