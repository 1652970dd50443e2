import type { Transaction } from 'dexie'
import { CHECK_DIGIT_GAP, skuGaps } from '#shared/sync/send-gates.ts'
import { validityOf } from '#shared/validation/problem.ts'
import { validateSku } from '#shared/validation/validate.ts'
import type { SkuDraftRecord } from './records.ts'

/**
 * Database v10: GTIN check digits (src/shared/values/gtin.ts). A SKU draft whose barcode is a GTIN
 * with a wrong check digit (or a letter where a digit belongs) gains the `check-digit` entry in
 * `gaps`, which a profile may hold back, and the warning that says so among its problems. The gaps
 * are derived again for every SKU draft, as v6 did; only the drafts that gain the entry are
 * validated again (their counts and validity change), which spares the others a second reading.
 */
export function upgradeToCheckDigits(tx: Transaction): Promise<number> {
  return tx
    .table<SkuDraftRecord, string>('skuDrafts')
    .toCollection()
    .modify((draft) => {
      draft.gaps = skuGaps(draft.payload)
      if (!draft.gaps.includes(CHECK_DIGIT_GAP)) return
      const result = validateSku(draft.payload)
      draft.validity = validityOf(result)
      draft.errorCount = result.errors.length
      draft.warningCount = result.warnings.length
    })
}
