import { isRecord } from '#shared/is-record.ts'
import { textOf } from '#shared/text-of.ts'
import type { Journal } from './journal-outbox.ts'
import type { ItemPlan } from './push-gates.ts'
import type { PushInput } from './push-input.ts'

/** A SKU to create that looks like one created there under the barcode it had before. */
export interface BarcodeSwap {
  index: number
  /** Its product name, as written. */
  name: string
  /** The barcode it was created there under, which the input no longer holds. */
  was: string
}

/**
 * Push matches SKUs by barcode, so a barcode corrected in the file is a new SKU to it: a tryout
 * corrected one in its sheet, pushed, and the platform held the product twice, nothing said. A
 * creation is taken for such a swap when exactly one SKU to create and exactly one SKU created
 * there whose barcode this input no longer holds share a product name and brand (one to one: a
 * catalogue's many SKUs of one generic name are no swap). It is said before anything is sent, not
 * held back: a product may be listed anew under a new barcode.
 *
 * Reads what stands there of every SKU created there that the input does not hold, and only when
 * the input has SKUs to create.
 */
export function barcodeSwaps(
  input: Pick<PushInput, 'items' | 'keyOf' | 'kind' | 'payloadOf'>,
  journal: Pick<Journal, 'records' | 'payloadAt'>,
  plans: ReadonlyArray<ItemPlan | undefined>,
): BarcodeSwap[] {
  if (!input.kind.gated) return []
  const creates = new Map<string, number[]>()
  for (const [index, plan] of plans.entries()) {
    if (plan !== 'create') continue
    const name = nameOf(input.payloadOf(index))
    if (name) creates.set(name, [...(creates.get(name) ?? []), index])
  }
  if (creates.size === 0) return []
  const inInput = new Set(Array.from({ length: input.items.total }, (_, index) => input.keyOf(index)))
  const createdThere = new Map<string, string[]>()
  for (const [key, record] of journal.records()) {
    if (record.stands === undefined || inInput.has(key)) continue
    const name = nameOf(journal.payloadAt(record.stands))
    if (name && creates.has(name)) createdThere.set(name, [...(createdThere.get(name) ?? []), key])
  }
  return [...createdThere].flatMap(([name, keys]) => {
    const indexes = creates.get(name)!
    if (keys.length !== 1 || indexes.length !== 1) return []
    const index = indexes[0]!
    const payload = input.payloadOf(index)
    return [{ index, name: isRecord(payload) ? textOf(payload.productName).trim() : '', was: keys[0]! }]
  })
}

/** A SKU's product name and brand, as one key: spaces and case do not make another product. */
function nameOf(payload: unknown): string {
  if (!isRecord(payload)) return ''
  const words = (value: unknown) => textOf(value).trim().replace(/\s+/g, ' ').toLowerCase()
  const name = words(payload.productName)
  return name ? `${name}\u0000${words(payload.brand)}` : ''
}
