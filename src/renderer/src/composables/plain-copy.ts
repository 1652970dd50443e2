import { toRaw } from 'vue'

/**
 * A deep copy made of plain objects and arrays. IndexedDB and IPC clone what they are given and
 * cannot clone Vue's proxies, which can sit at any depth of edited data (an array rebuilt from
 * reactive items holds proxies), so `toRaw` of the top level is not enough.
 */
export function plainCopy<T>(value: T): T {
  const raw = toRaw(value)
  if (Array.isArray(raw)) return raw.map((entry: unknown) => plainCopy(entry)) as T
  if (raw !== null && typeof raw === 'object') {
    return Object.fromEntries(Object.entries(raw).map(([key, entry]) => [key, plainCopy(entry)])) as T
  }
  return raw
}
