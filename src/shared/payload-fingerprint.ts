import { isRecord } from './is-record.ts'

/**
 * A short fingerprint of a payload, the same for the same JSON whatever its key order, so an
 * import's dry run (in its worker) and the drafts (in IndexedDB) can say "unchanged" without one
 * side holding the other's payloads: 100,000 rows are 100,000 short strings.
 */
export function payloadFingerprint(payload: unknown, reading: ContentReading = 'exact'): string {
  return hash53(contentText(payload, reading))
}

/**
 * How two payloads are compared. 'exact': as JSON holds them. 'cells': as a spreadsheet's cells
 * can hold them, where an empty text and no value are both an empty cell, and a group with
 * nothing in it is no group: a draft exported to a sheet and read back is the same content even
 * where its JSON differs in what no cell can say.
 */
export type ContentReading = 'exact' | 'cells'

/** The text two payloads are the same content by: equal texts, same content. */
export function contentText(payload: unknown, reading: ContentReading): string {
  return canonicalJson(reading === 'cells' ? cellForm(payload) : payload)
}

function cellForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cellForm)
  if (!isRecord(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const kept = cellForm(item)
    if (kept === '' || kept === undefined || (isRecord(kept) && Object.keys(kept).length === 0)) continue
    out[key] = kept
  }
  return out
}

/** JSON with every object's keys sorted: one text for one value. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * cyrb53 (a public-domain 53-bit string hash on Math.imul, fast in every engine): two payloads that
 * differ collide about once in 10^15.
 */
function hash53(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}
