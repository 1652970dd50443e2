import type { DocumentKind } from '#shared/validation/document.ts'
import type { Problem } from '#shared/validation/problem.ts'
import type { RareValue } from '#shared/rare-values.ts'
import { thousands } from '#shared/sheet/places.ts'

/** One problem of the `--json` output; `index` is null for a problem with the document itself. */
export interface LocatedProblem extends Problem {
  index: number | null
}

/** The `--json` output of `validate`, as its usage text documents it. */
export interface ValidationSummary {
  kind: DocumentKind
  /** How many items (SKUs, or the one app) were checked. */
  items: number
  /** Items without errors; warnings allowed. */
  valid: number
  invalid: number
  errors: LocatedProblem[]
  warnings: LocatedProblem[]
  /** The verdict of a file of SKUs (not of an app): verdict-report.ts. */
  sendable?: number
  heldBack?: number
  holds?: { index: number; reason: string; message: string }[]
  distinct?: number
  repeated?: { indexes: number[] }[]
  /** `differIn`: the few fields the SKUs on the barcode differ in, when only a few (what-differs.ts). */
  sharedBarcodes?: { barcode: string; indexes: number[]; differIn?: string }[]
  repeatedShopIds?: { shopId: string; indexes: number[] }[]
  /** Values that look like typos of a common one: rare-value-report.ts. A question, never a problem. */
  rareValues?: (RareValue & { indexes: number[]; message: string })[]
}

/** The warning of a file that holds no SKUs: an empty list passes every check, which is rarely what was meant. */
export const NO_SKUS = 'The file holds no SKUs'

/**
 * One line of the text report: `path: message`, marked when a warning. `[N]` (counting from 0,
 * like the paths) is shown only when the file holds a list. The report gives each item's lines
 * together, errors first, the document's own before them, then `summaryLine`.
 */
export function problemLine(problem: LocatedProblem, warning: boolean, kind: DocumentKind): string {
  const inList = kind === 'sku-list' || kind === 'bulk-request'
  const index = inList && problem.index !== null ? `[${problem.index}] ` : ''
  const path = problem.path ? `${problem.path}: ` : ''
  return `${index}${path}${problem.message}${warning ? ' (warning)' : ''}`
}

export function summaryLine(
  summary: Pick<ValidationSummary, 'kind' | 'items' | 'valid' | 'invalid'>,
  warnings: number,
  documentErrors: number,
): string {
  const noun = summary.kind === 'app-request' ? 'app' : 'SKU'
  const parts = [
    `${count(summary.items, noun)} checked: ${thousands(summary.valid)} valid`,
    `${thousands(summary.invalid)} invalid`,
    count(warnings, 'warning'),
  ]
  if (documentErrors > 0) parts.push(count(documentErrors, 'error') + ' in the document itself')
  return parts.join(', ')
}

function count(n: number, noun: string): string {
  return `${thousands(n)} ${noun}${n === 1 ? '' : 's'}`
}
