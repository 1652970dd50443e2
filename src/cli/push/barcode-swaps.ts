import { isRecord } from '#shared/is-record.ts'
import { textOf } from '#shared/text-of.ts'
import type { Journal, PayloadRef } from './journal-outbox.ts'
import type { ItemPlan } from './push-gates.ts'
import type { PushInput } from './push-input.ts'

/** A SKU to create that looks like one created there under the barcode it had before. */
export interface BarcodeSwap {
  index: number
  /** Its product name, as written. */
  name: string
  /** The barcode it was created there under, which the input does not hold. */
  was: string
}

/**
 * Push matches SKUs by barcode, so a barcode corrected in the file is a new SKU to it: a tryout
 * corrected one in its sheet, pushed, and the platform held the product twice, nothing said. A
 * creation is taken for such a swap when its product name and brand are those of no other SKU in
 * the input and of exactly one SKU created there (and still there, as far as the journal knows),
 * whose barcode the input does not hold: a catalogue's many SKUs of one generic name, or a frame's
 * colours, are no swap. It is said before anything is sent, not held back: a product may be
 * listed anew under a new barcode.
 *
 * Reads the names of the input's SKUs and of what stands there of every SKU created there, only
 * when the input has SKUs to create; the journal's lines in file order, each once.
 */
export function barcodeSwaps(
  input: Pick<PushInput, 'items' | 'keyOf' | 'kind' | 'payloadOf'>,
  journal: Pick<Journal, 'records' | 'payloadAt'>,
  plans: ReadonlyArray<ItemPlan | undefined>,
): BarcodeSwap[] {
  if (!input.kind.gated || !plans.includes('create')) return []
  // Each name of the input: the one SKU to create that has it, unless another SKU has it too.
  const inInput = new Set<string>()
  const named = new Map<string, number | 'several'>()
  for (const [index, plan] of plans.entries()) {
    if (plan === undefined) continue
    inInput.add(input.keyOf(index))
    const name = nameOf(input.payloadOf(index))
    if (!name) continue
    named.set(name, named.has(name) || plan !== 'create' ? 'several' : index)
  }
  // Each of those names there: the one key created under it, unless several were.
  const refs: Array<{ key: string; ref: PayloadRef }> = []
  for (const [key, record] of journal.records())
    if (record.stands !== undefined && !record.last?.gone) refs.push({ key, ref: record.stands })
  refs.sort((a, b) => a.ref.line - b.ref.line || a.ref.at - b.ref.at)
  const there = new Map<string, string | 'several'>()
  for (const { key, ref } of refs) {
    const name = nameOf(journal.payloadAt(ref))
    if (typeof named.get(name) === 'number') there.set(name, there.has(name) ? 'several' : key)
  }
  const swaps: BarcodeSwap[] = []
  for (const [name, key] of there) {
    const index = named.get(name)
    if (key === 'several' || typeof index !== 'number' || inInput.has(key)) continue
    const payload = input.payloadOf(index)
    swaps.push({ index, name: isRecord(payload) ? textOf(payload.productName).trim() : '', was: key })
  }
  return swaps.sort((a, b) => a.index - b.index)
}

/** A SKU's product name and brand, as one key: spaces and case do not make another product. */
function nameOf(payload: unknown): string {
  if (!isRecord(payload)) return ''
  const words = (value: unknown) => textOf(value).trim().replace(/\s+/g, ' ').toLowerCase()
  const name = words(payload.productName)
  return name ? `${name}\u0000${words(payload.brand)}` : ''
}
