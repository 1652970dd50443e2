import type { Sku } from './schema/sku.ts'
import { searchTerms } from './search-terms.ts'
import { validityOf } from './validation/problem.ts'
import { validateSku } from './validation/validate.ts'

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/**
 * The columns a stored SKU draft keeps beside its payload, derived from it on every write: the
 * list's columns and indexes, the search words and the validity summary. Pure, so the import
 * worker can compute them off the main thread and the repository can trust them.
 */
export function draftColumns(payload: Sku) {
  const result = validateSku(payload)
  const productName = text(payload.productName)
  const brand = text(payload.brand)
  const barcode = text(payload.barcode)
  return {
    validity: validityOf(result),
    errorCount: result.errors.length,
    warningCount: result.warnings.length,
    productName,
    brand,
    barcode,
    category: text(payload.category),
    subCategory: text(payload.subCategory),
    status: text(payload.status),
    terms: searchTerms(productName, brand, barcode),
  }
}

export type DraftColumns = ReturnType<typeof draftColumns>
