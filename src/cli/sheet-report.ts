/** One problem of a sheet's `--json` output; `row` is null for a problem with the file itself. */
export interface SheetProblem {
  row: number | null
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
  holds: { row: number; reason: string; message: string }[]
  distinct: number
  repeated: { rows: number[] }[]
  sharedBarcodes: { barcode: string; rows: number[] }[]
  repeatedShopIds: { shopId: string; rows: number[] }[]
  /** What the reader and the column matching want the user to know (ignored columns, extra cells). */
  notes: string[]
}

/**
 * One line of the text report: `row N, column "Header": message`, marked when a warning. The
 * report gives the notes first (`note: …`), then each row's lines together (errors first), then
 * `sheetSummaryLine`.
 */
export function sheetProblemLine(problem: SheetProblem, warning: boolean): string {
  const where = [
    problem.row === null ? '' : `row ${problem.row}`,
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
  const noun = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  return `${noun(summary.items, 'SKU')} checked: ${summary.valid} valid, ${summary.invalid} invalid, ${noun(warnings, 'warning')}`
}
