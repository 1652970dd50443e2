import type { DocumentKind, DocumentReport } from '#shared/validation/document.ts'
import type { Problem } from '#shared/validation/problem.ts'

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
}

export function summarise(report: DocumentReport): ValidationSummary {
  const errors: LocatedProblem[] = report.documentErrors.map((problem) => ({ index: null, ...problem }))
  const warnings: LocatedProblem[] = []
  // An empty list passes every check, which is rarely what the person meant to validate.
  if (
    report.kind !== 'sku' &&
    report.kind !== 'app-request' &&
    report.items.length === 0 &&
    errors.length === 0
  ) {
    warnings.push({ index: null, path: '', message: 'The file holds no SKUs' })
  }
  for (const item of report.reports) {
    errors.push(...item.errors.map((problem) => ({ index: item.index, ...problem })))
    warnings.push(...item.warnings.map((problem) => ({ index: item.index, ...problem })))
  }
  const invalid = report.reports.filter((item) => item.errors.length > 0).length
  return {
    kind: report.kind,
    items: report.items.length,
    valid: report.items.length - invalid,
    invalid,
    errors,
    warnings,
  }
}

/**
 * The text report: each problem as `path: message`, item by item (errors first), then one summary
 * line. `[N]` (counting from 0, like the paths) is shown only when the file holds a list.
 */
export function formatSummary(summary: ValidationSummary): string {
  const inList = summary.kind === 'sku-list' || summary.kind === 'bulk-request'
  const line = (problem: LocatedProblem, warning: boolean) => {
    const index = inList && problem.index !== null ? `[${problem.index}] ` : ''
    const path = problem.path ? `${problem.path}: ` : ''
    return `${index}${path}${problem.message}${warning ? ' (warning)' : ''}`
  }
  // Grouped by item (document-level first, then each item's errors before its warnings), so the
  // problems of one SKU read together however many SKUs the file holds.
  const groups = new Map<number | null, { errors: string[]; warnings: string[] }>()
  const group = (index: number | null) => {
    let found = groups.get(index)
    if (!found) groups.set(index, (found = { errors: [], warnings: [] }))
    return found
  }
  for (const problem of summary.errors) group(problem.index).errors.push(line(problem, false))
  for (const problem of summary.warnings) group(problem.index).warnings.push(line(problem, true))
  const order = [...groups.keys()].sort((a, b) => (a ?? -1) - (b ?? -1))
  const lines = order.flatMap((index) => [...group(index).errors, ...group(index).warnings])
  lines.push(summaryLine(summary))
  return lines.join('\n') + '\n'
}

function summaryLine(summary: ValidationSummary): string {
  const noun = summary.kind === 'app-request' ? 'app' : 'SKU'
  const documentErrors = summary.errors.filter((problem) => problem.index === null).length
  const parts = [
    `${count(summary.items, noun)} checked: ${summary.valid} valid`,
    `${summary.invalid} invalid`,
    count(summary.warnings.length, 'warning'),
  ]
  if (documentErrors > 0) parts.push(count(documentErrors, 'error') + ' in the document itself')
  return parts.join(', ')
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
