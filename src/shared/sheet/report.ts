import { toCsv } from './csv.ts'
import { placeOf, sayRow, type RowNumbering } from './places.ts'
import type { CellProblem } from './types.ts'

/**
 * The error report: one line a problem, as a CSV a catalog person can sort and filter, each
 * problem at its place as they find it in their file (places.ts): a sheet's `line` (the header is
 * line 1), a JSON file's or a feed's `item`, PrestaShop's pair by `file` and `line`. The number
 * is written bare, so the column sorts as numbers.
 */
export function errorReportCsv(problems: readonly CellProblem[], numbering: RowNumbering = 'lines'): string {
  const pair = typeof numbering === 'object'
  return toCsv(
    [...(pair ? ['file'] : []), numbering === 'items' ? 'item' : 'line', 'column', 'value', 'message'],
    problems.map((problem) => {
      const place = placeOf(problem.row, numbering)
      return [
        ...(pair ? [place.file ?? ''] : []),
        String(place.n),
        problem.column,
        problem.value,
        problem.message,
      ]
    }),
  )
}

/** A sheet's `line 13, column "Intensity": …`, or `line 13: …` for a problem no column answers for. */
export function formatCellProblem(problem: CellProblem): string {
  const column = problem.column ? `, column "${problem.column}"` : ''
  return `${sayRow(problem.row, 'lines')}${column}: ${problem.message}`
}
