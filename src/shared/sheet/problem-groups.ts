import type { CellProblem } from './types.ts'

/**
 * A file's problems grouped by what is wrong and where: "Barcode is missing" on 295 rows is one
 * group to act on, not 295 lines to page through. A group is a severity, a column and the
 * message with the cell's own text taken out ("Intensity must be a number, not the text "…""),
 * so the same mistake in many rows is one group; errors come first, then the biggest groups.
 */
export interface ProblemGroup {
  /** Stable within a file: severity, column and kind. */
  key: string
  severity: 'error' | 'warning'
  /** The column's header as written in the file ('' for a problem of the whole row). */
  column: string
  /** The message of the first problem of the group, as an example. */
  message: string
  count: number
  /** The first rows with it (at most {@link ROWS_KEPT}); `count` says how many there are. */
  rows: number[]
}

/** Rows kept for each group: enough to find and show them, bounded over a million-row file. */
export const ROWS_KEPT = 1_000

/** The message without what it quotes of the cell: one kind of mistake whatever the value. */
export function problemKind(message: string): string {
  return message.replace(/"[^"]*"|“[^”]*”/g, '"…"')
}

export function groupKey(
  severity: ProblemGroup['severity'],
  problem: Pick<CellProblem, 'column' | 'message'>,
): string {
  return `${severity}\u0000${problem.column}\u0000${problemKind(problem.message)}`
}

/** Adds problems a stretch of rows at a time; memory is one entry per group. */
export class ProblemGrouper {
  private readonly groups = new Map<string, ProblemGroup>()

  add(severity: ProblemGroup['severity'], problems: readonly CellProblem[]) {
    for (const problem of problems) {
      const key = groupKey(severity, problem)
      const group = this.groups.get(key)
      if (!group) {
        this.groups.set(key, {
          key,
          severity,
          column: problem.column,
          message: problem.message,
          count: 1,
          rows: [problem.row],
        })
      } else {
        group.count++
        if (group.rows.length < ROWS_KEPT && group.rows.at(-1) !== problem.row) group.rows.push(problem.row)
      }
    }
  }

  /** Errors first, then the groups of most rows, then the file's order. */
  get list(): ProblemGroup[] {
    return [...this.groups.values()].sort(
      (a, b) =>
        (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
        b.count - a.count ||
        a.rows[0]! - b.rows[0]!,
    )
  }
}
