import { isRecord } from '../is-record.ts'
import { pathParameter } from '../service/operations.ts'
import { textOf } from '../text-of.ts'

/**
 * The platform's id of each SKU a bulk upload created, read from its answer wherever the answer
 * carries them. The live service's bulk answer body is not documented, so this reads the shapes
 * an answer would plausibly take, and nothing else:
 *
 * - the list: the answer itself when it is a list, else its `skus`, `items` or `data` list;
 * - an entry: a text or a number (the id of the SKU at that position), or an object with the id
 *   under `_id`, `id` or `skuId` (in that order), naming its SKU by `barcode` when it has one;
 * - entries that name a barcode are matched by it; the others by position, and only when the list
 *   holds exactly one entry a SKU sent (a shorter or longer list cannot say which is which).
 *
 * An id that could not travel in a path (`pathParameter`) is not an id. A SKU without an id here
 * has none known: updating it waits for one (a platform list's ids column, say).
 */
export function platformIdsOf(answer: unknown, barcodes: readonly string[]): Array<string | undefined> {
  const found: Array<string | undefined> = barcodes.map(() => undefined)
  const entries = entriesOf(answer)
  if (!entries) return found
  const wanted = new Map<string, number>()
  barcodes.forEach((barcode, position) => wanted.set(barcode.trim(), position))
  const byPosition = entries.length === barcodes.length
  entries.forEach((entry, position) => {
    const id = idOf(entry)
    if (id === undefined) return
    const barcode = isRecord(entry) ? textOf(entry.barcode).trim() : ''
    const at = barcode !== '' ? wanted.get(barcode) : byPosition ? position : undefined
    if (at !== undefined && found[at] === undefined) found[at] = id
  })
  return found
}

function entriesOf(answer: unknown): unknown[] | undefined {
  if (Array.isArray(answer)) return answer
  if (!isRecord(answer)) return undefined
  for (const key of ['skus', 'items', 'data']) if (Array.isArray(answer[key])) return answer[key]
  return undefined
}

function idOf(entry: unknown): string | undefined {
  const raw = isRecord(entry) ? (entry._id ?? entry.id ?? entry.skuId) : entry
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw
  return pathParameter().safeParse(text).success ? (text as string) : undefined
}
