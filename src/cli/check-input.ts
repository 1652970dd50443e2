import { applyMappingFile, mappingFileOf, type MappingFile } from '#shared/sheet/mapping.ts'
import { productLayout } from '#shared/sheet/products.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { columnNotes, conversionNotes, productsNote, suggestionNotes } from './sheet-notes.ts'
import type { SheetOptions } from './sheet-options.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { validateDocument, type DocumentKind } from '#shared/validation/document.ts'
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
  /** Every item in file order, valid or not, with its first error (what `push` sends or skips). */
  entries: InputEntry[]
  /** Problems with the document itself (a bulk request whose skus is not a list). */
  documentErrors: number
  /** For a sheet: the mapping used, as a mapping file (what --show-mapping prints). */
  mapping?: MappingFile & { format: string }
  /** For a sheet: its columns whose header looks like a typo of a field, said (`push` prints them). */
  suggestions?: string[]
}

export interface InputEntry {
  /** 0-based position in the file: the list position, or the data row counting from 0. */
  index: number
  payload: unknown
  /** The first error, for a one-line reason; undefined when valid. */
  error?: string
  /** For a sheet: the data row it came from (the first row under the header is 1). */
  row?: number
}

export async function checkInputFile(
  file: string,
  cwd: string,
  options: SheetOptions = {},
): Promise<CheckedInput> {
  const input = await readInputFile(file, cwd)
  if (input.format === 'json') {
    const report = validateDocument(input.document)
    const summary = summarise(report)
    const valid = report.items.filter((_, index) => report.reports[index]?.errors.length === 0) as Sku[]
    const entries = report.items.map((payload, index) => {
      const first = report.reports[index]?.errors[0]
      return first
        ? { index, payload, error: first.path ? `${first.path}: ${first.message}` : first.message }
        : { index, payload }
    })
    return {
      kind: report.kind,
      summary,
      text: formatSummary(summary),
      valid,
      failed: summary.errors.length > 0,
      entries,
      documentErrors: report.documentErrors.length,
    }
  }
  const { headers, rows, notes } = input.sheet
  const layout = productLayout(headers)
  const { mapping, matches } = applyMappingFile(headers, options.mapping, { structural: layout.structural })
  if (options.decimalComma) mapping.decimalComma = true
  const { results, products } = readSheet({ headers, rows }, mapping)
  const suggestions = suggestionNotes(matches, mapping)
  const said = [
    ...(layout.format === 'plain' ? [] : [productsNote(products)]),
    ...columnNotes(matches, mapping, rows),
    ...suggestions,
    ...Object.keys(options.mapping?.columns ?? {})
      .filter((header) => !headers.includes(header))
      .map((header) => `the mapping names the column "${header}", which this file does not have`),
    ...conversionNotes(results),
  ]
  const summary = summariseSheet(input.format, results, [...notes, ...said])
  return {
    kind: input.format,
    summary,
    text: formatSheetSummary(summary),
    valid: results.filter((result) => result.errors.length === 0).map((result) => result.sku),
    failed: summary.errors.length > 0,
    entries: results.map((result, index) => {
      const first = result.errors[0]
      if (!first) return { index, payload: result.sku, row: result.row }
      const where = first.column ? `column "${first.column}": ` : ''
      return {
        index,
        payload: result.sku,
        row: result.row,
        error: `row ${result.row}, ${where}${first.message}`,
      }
    }),
    documentErrors: 0,
    mapping: mappingFileOf(headers, mapping),
    suggestions,
  }
}
