import { isRecord } from './is-record.ts'

/** One difference between two JSON documents, at a dotted path (`arEffect.transform.position.x`). */
export interface JsonChange {
  path: string
  kind: 'added' | 'removed' | 'changed'
  /** The value before (absent when added). */
  before?: unknown
  /** The value after (absent when removed). */
  after?: unknown
}

/**
 * What changed from `before` to `after`, leaf by leaf: objects and arrays are walked (key order
 * does not matter, array positions do), anything else is compared by value. A value whose type
 * changed (a number that became text, an object that became a list) is one change at its path.
 */
export function diffJson(before: unknown, after: unknown, path = ''): JsonChange[] {
  const bothObjects = isRecord(before) && isRecord(after)
  const bothArrays = Array.isArray(before) && Array.isArray(after)
  if (bothObjects || bothArrays) {
    const keys = bothArrays
      ? Array.from({ length: Math.max(before.length, after.length) }, (_, i) => String(i))
      : [...new Set([...Object.keys(before as object), ...Object.keys(after as object)])]
    return keys.flatMap((key) => {
      const at = path === '' ? key : `${path}.${key}`
      const has = (value: unknown) => Object.prototype.hasOwnProperty.call(value, key)
      const old = (before as Record<string, unknown>)[key]
      const next = (after as Record<string, unknown>)[key]
      if (!has(before)) return [{ path: at, kind: 'added' as const, after: next }]
      if (!has(after)) return [{ path: at, kind: 'removed' as const, before: old }]
      return diffJson(old, next, at)
    })
  }
  if (Object.is(before, after)) return []
  return [{ path, kind: 'changed', before, after }]
}
