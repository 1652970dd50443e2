import { counted } from '#shared/counted.ts'
import { z } from '#shared/schema/zod.ts'
import { jsonReply, type Reply } from './reply.ts'

/**
 * "Poisoned" barcodes: SKUs the client believes valid (they meet the contract) but the service
 * refuses, as a real platform would for a barcode it already has or has blocked. They are what
 * makes the sync engine's batch splitting testable end to end: only the service knows them.
 */

const barcodesSchema = z.array(z.string().min(1).max(200)).max(100_000)

/** Checks barcodes that came from outside (options, the control endpoint); throws a readable error. */
export function parseBarcodes(value: unknown): string[] {
  const list = Array.isArray(value) ? value : (value as { barcodes?: unknown } | null)?.barcodes
  const parsed = barcodesSchema.safeParse(list)
  if (!parsed.success) {
    throw new RangeError(
      'Send the barcodes to refuse as a JSON list of non-empty strings (or {"barcodes": [...]})',
    )
  }
  return parsed.data
}

/**
 * A 422 for a batch holding any refused barcode, naming each (`skus.N.barcode`), or undefined. The
 * whole batch is refused and nothing stored, like an invalid batch: the sandbox is all or nothing.
 */
export function refusedBarcodes(
  skus: readonly unknown[],
  refused: ReadonlySet<string> | undefined,
): Reply | undefined {
  if (!refused || refused.size === 0) return undefined
  const errors: { path: string; message: string }[] = []
  skus.forEach((sku, index) => {
    const barcode = (sku as { barcode?: unknown } | null)?.barcode
    if (typeof barcode === 'string' && refused.has(barcode)) {
      errors.push({ path: `skus.${index}.barcode`, message: `The service refuses the barcode ${barcode}` })
    }
  })
  if (errors.length === 0) return undefined
  const message = `${counted(errors.length, 'SKU')} of ${skus.length} refused by the service; nothing was stored`
  return jsonReply(422, { message, errors })
}
