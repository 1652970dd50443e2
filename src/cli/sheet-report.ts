import type { RareValue } from '#shared/rare-values.ts'
import { placeOf, sayPlace, thousands, type Place, type RowNumbering } from '#shared/sheet/places.ts'

/** One problem of a sheet's `--json` output; `row` is null for a problem with the file itself. */
export interface SheetProblem {
  /** The data row (the first row under the header is 1), or an XML feed's or JSON list's item. */
  row: number | null
  /** A spreadsheet's line of the row, as the spreadsheet app numbers it (the header is line 1). */
  line?: number
  /** Of PrestaShop's two files, the one whose line it is. */
  file?: string
  column: string
  value: string
  message: string
  /** In a JSON product list: where the row is in the file (`[2].product_colors[1]`). */
  item?: string
}

/** The `--json` output of `validate` for a CSV, XLSX or XML feed, as its usage text documents it. */
export interface SheetSummary {
  kind: 'csv' | 'xlsx' | 'xml' | 'json-products'
  items: number
  valid: number
  invalid: number
  errors: SheetProblem[]
  warnings: SheetProblem[]
  /** The verdict of its SKUs: verdict-report.ts. */
  sendable: number
  heldBack: number
  /** `line` and `lines` (and a pair's `file` and `files`) beside the rows of a spreadsheet. */
  holds: { row: number; line?: number; file?: string; reason: string; message: string }[]
  distinct: number
  repeated: { rows: number[]; lines?: number[]; files?: string[] }[]
  sharedBarcodes: { barcode: string; rows: number[]; lines?: number[]; files?: string[]; differIn?: string }[]
  repeatedShopIds: { shopId: string; rows: number[]; lines?: number[]; files?: string[] }[]
  /** Values that look like typos of a common one, with their first rows: rare-value-report.ts. */
  rareValues: (RareValue & { rows: number[]; lines?: number[]; files?: string[]; message: string })[]
  /** What the reader and the column matching want the user to know (ignored columns, extra cells). */
  notes: string[]
}

/**
 * A row's `line` (and a pair's `file`) beside its `row` in `--json`, for a person to find it in
 * the spreadsheet; nothing for an item of a feed or a JSON list.
 */
export function lineOf(row: number, numbering: RowNumbering): Pick<SheetProblem, 'line' | 'file'> {
  return lineFields(placeOf(row, numbering))
}

/** `lineOf` of a row already placed. */
export function lineFields(place: Place): Pick<SheetProblem, 'line' | 'file'> {
  return place.noun === 'line' ? { line: place.n, ...(place.file !== undefined && { file: place.file }) } : {}
}

/**
 * One line of the text report: `line N, column "Header": message` (`item N` of a feed or a JSON
 * list, `FILE line N` of a pair), marked when a warning. The report gives the notes first
 * (`note: …`), then each row's lines together (errors first), then `sheetSummaryLine`.
 */
export function sheetProblemLine(problem: SheetProblem, warning: boolean): string {
  const where = [
    problem.row === null
      ? ''
      : problem.line === undefined
        ? `item ${problem.row}`
        : sayPlace({
            noun: 'line',
            n: problem.line,
            ...(problem.file !== undefined && { file: problem.file }),
          }),
    problem.item ? `at ${problem.item}` : '',
    problem.column ? `column "${problem.column}"` : '',
  ]
    .filter(Boolean)
    .join(', ')
  return `${where ? `${where}: ` : ''}${problem.message}${warning ? ' (warning)' : ''}`
}

export function sheetSummaryLine(
  summary: Pick<SheetSummary, 'items' | 'valid' | 'invalid'>,
  warnings: number,
): string {
  const noun = (n: number, word: string) => `${thousands(n)} ${word}${n === 1 ? '' : 's'}`
  return `${noun(summary.items, 'SKU')} checked: ${thousands(summary.valid)} valid, ${thousands(summary.invalid)} invalid, ${noun(warnings, 'warning')}`
}
