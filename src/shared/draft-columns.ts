import { textOf } from './text-of.ts'
import type { Sku } from './schema/sku.ts'
import { draftTerms } from './search-terms.ts'
import { validityOf, type ValidationResult } from './validation/problem.ts'
import { validateSku } from './validation/validate.ts'
import { skuGaps } from './sync/send-gates.ts'

/**
 * The columns a stored SKU draft keeps beside its payload, derived from it on every write: the
 * list's columns and indexes, the search words and the validity summary. Pure, so the import
 * worker can compute them off the main thread and the repository can trust them. `result`: what
 * `validateSku` said of this very payload, when the caller has it already.
 */
export function draftColumns(payload: Sku, result: ValidationResult = validateSku(payload)) {
  const productName = textOf(payload.productName)
  const brand = textOf(payload.brand)
  const barcode = textOf(payload.barcode)
  return {
    validity: validityOf(result),
    errorCount: result.errors.length,
    warningCount: result.warnings.length,
    productName,
    brand,
    barcode,
    category: textOf(payload.category),
    subCategory: textOf(payload.subCategory),
    status: textOf(payload.status),
    terms: draftTerms(productName, brand, barcode),
    gaps: skuGaps(payload),
  }
}

export type DraftColumns = ReturnType<typeof draftColumns>
