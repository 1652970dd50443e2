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
  return canonicalJson(payload, reading === 'cells') ?? '{}'
}

/**
 * JSON with every object's keys sorted: one text for one value, in one pass (a dry run makes one
 * for each of its rows). With `cells`, a member that is empty text or an empty group is left out,
 * as no cell can tell it from no value; undefined for such a value.
 */
function canonicalJson(value: unknown, cells: boolean): string | undefined {
  if (Array.isArray(value))
    // A list keeps its positions: an item is never left out, only what an item holds.
    return `[${value.map((item) => (item === '' ? '""' : (canonicalJson(item ?? null, cells) ?? '{}'))).join(',')}]`
  if (isRecord(value)) {
    const members: string[] = []
    for (const key of Object.keys(value).sort()) {
      const text = canonicalJson(value[key], cells)
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`)
    }
    return cells && members.length === 0 ? undefined : `{${members.join(',')}}`
  }
  if (value === undefined || (cells && value === '')) return undefined
  return JSON.stringify(value) ?? 'null'
}

/**
 * cyrb53 (a public-domain 53-bit string hash on Math.imul, fast in every engine): two payloads that
 * differ collide about once in 10^15.
 */
export function hash53(text: string): string {
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
