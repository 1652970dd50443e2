/**
 * The deepest a document may nest objects and lists. The contract's deepest field is five levels
 * down; unknown fields are kept as they are, but thousands of levels would overflow the stack of
 * every recursive step after parsing (validation, export, the push fingerprint).
 */
export const MAX_JSON_DEPTH = 100

/** Whether `value` nests objects or lists deeper than `limit` (walked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (typeof current !== 'object' || current === null) continue
    if (depth >= limit) return true
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return false
}
