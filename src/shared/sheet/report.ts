import { toCsv } from './csv.ts'
import type { CellProblem } from './types.ts'

/** The error report: one line a problem, as a CSV a catalog person can sort and filter. */
export function errorReportCsv(problems: readonly CellProblem[]): string {
  return toCsv(
    ['row', 'column', 'value', 'message'],
    problems.map((problem) => [String(problem.row), problem.column, problem.value, problem.message]),
  )
}

/** `row 12, column "Intensity": …`, or `row 12: …` for a problem no column answers for. */
export function formatCellProblem(problem: CellProblem): string {
  const column = problem.column ? `, column "${problem.column}"` : ''
  return `row ${problem.row}${column}: ${problem.message}`
}
