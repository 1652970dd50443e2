import { validateAppRequest, validateSku } from './validate.ts'
import type { Problem, ValidationResult } from './problem.ts'
import { isRecord } from '../is-record.ts'

/**
 * What a JSON file holds. The CLI and the importer accept all four shapes the contract's examples
 * use, and say which one they read.
 */
export type DocumentKind = 'sku' | 'sku-list' | 'bulk-request' | 'app-request'

export interface ItemReport extends ValidationResult {
  /** Position of the item in the document (0 for a single SKU or app). */
  index: number
}

export interface DocumentReport {
  kind: DocumentKind
  /** The items found: SKUs, or the one app. */
  items: unknown[]
  reports: ItemReport[]
  /** Problems with the document itself rather than an item (a bulk request whose `skus` is not a list). */
  documentErrors: Problem[]
}

// Fields only an app creation request has; a SKU shares none of them.
const APP_FIELDS = [
  'report_config',
  'appConfig',
  'expire_images_after_days',
  'sdkVersion',
  'algorithmVersion',
]

export function documentKind(document: unknown): DocumentKind {
  if (Array.isArray(document)) return 'sku-list'
  if (isRecord(document) && 'skus' in document) return 'bulk-request'
  if (isRecord(document) && APP_FIELDS.some((field) => field in document)) return 'app-request'
  return 'sku'
}

export function validateDocument(document: unknown): DocumentReport {
  const kind = documentKind(document)
  const documentErrors: Problem[] = []
  let items: unknown[]
  if (kind === 'sku-list') {
    items = document as unknown[]
  } else if (kind === 'bulk-request') {
    const skus = (document as Record<string, unknown>).skus
    items = Array.isArray(skus) ? skus : []
    if (!Array.isArray(skus))
      documentErrors.push({ path: 'skus', message: 'The bulk request’s "skus" must be a list of SKUs' })
  } else {
    items = [document]
  }
  const validate = kind === 'app-request' ? validateAppRequest : validateSku
  return { kind, items, documentErrors, reports: items.map((item, index) => ({ index, ...validate(item) })) }
}
