import { counted } from '#shared/counted.ts'
import type { Problem } from '#shared/validation/problem.ts'
import { validateSku } from '#shared/validation/validate.ts'
import type { Processed } from './processed.ts'
import type { ReceivedStore } from './received-store.ts'
import { refusedBarcodes } from './rejected-barcodes.ts'
import { errorReply, invalidReply, jsonReply } from './reply.ts'
import { isRecord } from '#shared/is-record.ts'

/**
 * POST skus/bulk-upload with a parsed body. The contract does not say whether one invalid item
 * fails the batch; the sandbox rejects the whole batch and stores nothing, the reading under which
 * a client never has to guess which items were created. Warnings (missing fields) never reject.
 * The 201 (not documented for the live service) is `{message, count, skus: [{_id, barcode}]}`,
 * each SKU's platform id with its barcode as sent (absent when it had none), in the request's
 * order; with `answerIds` false, `{message, count}` alone.
 */
export async function bulkUpload(
  body: unknown,
  settings: {
    maxBatch: number
    answerIds: boolean
    store: ReceivedStore
    now: () => Date
    rejectedBarcodes?: ReadonlySet<string>
  },
): Promise<Processed> {
  const skus = isRecord(body) ? body.skus : undefined
  if (!Array.isArray(skus)) {
    const problem: Problem = isRecord(body)
      ? { path: 'skus', message: 'skus must be a list of SKUs' }
      : { path: '', message: 'The body must be an object with a skus list' }
    return {
      reply: invalidReply('The body is not a bulk upload request ({"skus": [...]})', [problem]),
      stored: false,
      skuCount: null,
    }
  }
  const skuCount = skus.length
  if (skuCount === 0) {
    const problem = { path: 'skus', message: 'The skus list is empty' }
    return { reply: invalidReply('The batch holds no SKUs', [problem]), stored: false, skuCount }
  }
  if (skuCount > settings.maxBatch) {
    const message = `The batch holds ${counted(skuCount, 'SKU')}; this sandbox accepts at most ${settings.maxBatch} a request`
    return { reply: errorReply(413, message), stored: false, skuCount }
  }
  const errors: Problem[] = []
  let invalidItems = 0
  skus.forEach((sku, index) => {
    const found = validateSku(sku).errors
    if (found.length > 0) invalidItems += 1
    for (const problem of found) {
      errors.push({
        path: problem.path ? `skus.${index}.${problem.path}` : `skus.${index}`,
        message: problem.message,
      })
    }
  })
  if (errors.length > 0) {
    const message = `${counted(invalidItems, 'SKU')} of ${skuCount} ${invalidItems === 1 ? 'is' : 'are'} invalid; nothing was stored`
    return { reply: invalidReply(message, errors), stored: false, skuCount }
  }
  const refused = refusedBarcodes(skus, settings.rejectedBarcodes)
  if (refused) return { reply: refused, stored: false, skuCount }
  const created = await settings.store.addSkus(skus, settings.now().toISOString())
  const answer = { message: 'Created', count: skuCount }
  const ids = created.map(({ _id, sku }) => ({ _id, barcode: isRecord(sku) ? sku.barcode : undefined }))
  return {
    reply: jsonReply(201, settings.answerIds ? { ...answer, skus: ids } : answer),
    stored: true,
    skuCount,
  }
}
