import { isRecord } from '#shared/is-record.ts'

/**
 * A SKU after a partial update ("only the provided fields are modified"): objects merge key by key
 * at every depth (the docs' example sends `envSettings` with two of its keys), lists and scalars
 * replace what was there, `null` included. Neither argument is changed; parts of both may be
 * shared with the result, so none of them is changed later either.
 */
export function mergeSku(current: unknown, change: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = isRecord(current) ? { ...current } : {}
  for (const [key, value] of Object.entries(change)) {
    const before = Object.hasOwn(merged, key) ? merged[key] : undefined
    // Defined, not assigned: a `__proto__` key from JSON stays a field instead of becoming the prototype.
    Object.defineProperty(merged, key, {
      value: isRecord(value) && isRecord(before) ? mergeSku(before, value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return merged
}
