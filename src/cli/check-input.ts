import { mappingOf, matchColumns } from '../shared/sheet/columns.ts'
import { convertSheet } from '../shared/sheet/rows.ts'
import type { Sku } from '../shared/schema/sku.ts'
import { validateDocument, type DocumentKind } from '../shared/validation/document.ts'
import { readInputFile } from './read-input.ts'
import { formatSheetSummary, summariseSheet, type SheetSummary } from './sheet-report.ts'
import { formatSummary, summarise, type ValidationSummary } from './validation-report.ts'

/** A file read and checked by the same pipeline as the app's importer: what `validate` prints and `convert` writes. */
export interface CheckedInput {
  kind: DocumentKind | 'csv' | 'xlsx'
  /** The `--json` output. */
  summary: ValidationSummary | SheetSummary
  /** The text output. */
  text: string
  /** The SKUs without errors, in file order. */
  valid: Sku[]
  /** Whether anything was an error (an item, or the document itself). */
  failed: boolean
}

export async function checkInputFile(file: string, cwd: string): Promise<CheckedInput> {
  const input = await readInputFile(file, cwd)
  if (input.format === 'json') {
    const report = validateDocument(input.document)
    const summary = summarise(report)
    const valid = report.items.filter((_, index) => report.reports[index]?.errors.length === 0) as Sku[]
    return {
      kind: report.kind,
      summary,
      text: formatSummary(summary),
      valid,
      failed: summary.errors.length > 0,
    }
  }
  const { headers, rows, notes } = input.sheet
  const matches = matchColumns(headers)
  const ignored = matches
    .filter((match) => match.path === null && match.header.trim() !== '')
    .map(
      (match) =>
        `column "${match.header}" matches no field of the contract (or one an earlier column fills) and is ignored`,
    )
  const results = convertSheet({ headers, rows }, mappingOf(matches))
  const summary = summariseSheet(input.format, results, [...notes, ...ignored])
  return {
    kind: input.format,
    summary,
    text: formatSheetSummary(summary),
    valid: results.filter((result) => result.errors.length === 0).map((result) => result.sku),
    failed: summary.errors.length > 0,
  }
}
