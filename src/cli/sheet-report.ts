import type { RowResult } from '#shared/sheet/types.ts'

/** One problem of a sheet's `--json` output; `row` is null for a problem with the file itself. */
export interface SheetProblem {
  row: number | null
  column: string
  value: string
  message: string
}

/** The `--json` output of `validate` for a CSV or XLSX file, as its usage text documents it. */
export interface SheetSummary {
  kind: 'csv' | 'xlsx'
  items: number
  valid: number
  invalid: number
  errors: SheetProblem[]
  warnings: SheetProblem[]
  /** What the reader and the column matching want the user to know (ignored columns, extra cells). */
  notes: string[]
}

export function summariseSheet(
  kind: 'csv' | 'xlsx',
  results: readonly RowResult[],
  notes: string[],
): SheetSummary {
  const errors: SheetProblem[] = results.flatMap((result) => result.errors)
  const warnings: SheetProblem[] = results.flatMap((result) => result.warnings)
  if (results.length === 0)
    warnings.unshift({ row: null, column: '', value: '', message: 'The file holds no SKUs' })
  const invalid = results.filter((result) => result.errors.length > 0).length
  return { kind, items: results.length, valid: results.length - invalid, invalid, errors, warnings, notes }
}

/**
 * The text report: notes first, then each problem as `row N, column "Header": message`, row by
 * row (errors before warnings), then one summary line.
 */
export function formatSheetSummary(summary: SheetSummary): string {
  const line = (problem: SheetProblem, warning: boolean) => {
    const where = [
      problem.row === null ? '' : `row ${problem.row}`,
      problem.column ? `column "${problem.column}"` : '',
    ]
      .filter(Boolean)
      .join(', ')
    return `${where ? `${where}: ` : ''}${problem.message}${warning ? ' (warning)' : ''}`
  }
  const groups = new Map<number | null, string[][]>()
  const group = (row: number | null) => {
    let found = groups.get(row)
    if (!found) groups.set(row, (found = [[], []]))
    return found
  }
  for (const problem of summary.errors) group(problem.row)[0]!.push(line(problem, false))
  for (const problem of summary.warnings) group(problem.row)[1]!.push(line(problem, true))
  const order = [...groups.keys()].sort((a, b) => (a ?? -1) - (b ?? -1))
  const lines = [
    ...summary.notes.map((note) => `note: ${note}`),
    ...order.flatMap((row) => group(row).flat()),
  ]
  const noun = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  lines.push(
    `${noun(summary.items, 'SKU')} checked: ${summary.valid} valid, ${summary.invalid} invalid, ${noun(summary.warnings.length, 'warning')}`,
  )
  return lines.join('\n') + '\n'
}
