import type { CellProblem } from './types.ts'

/**
 * A file's problems grouped by what is wrong and where: "Brand is not filled (optional)" on 295
 * rows is one group to act on, not 295 lines to page through. A group is a severity, a column and
 * the message with the cell's own text taken out ("Intensity must be a number, not the text
 * "…""), so the same mistake in many rows is one group; errors come first, then the rows the send
 * gates hold back, then the warnings, each the biggest groups first.
 */

/**
 * How much a problem keeps a row from being sent: an error (the contract refuses it), a hold (the
 * send gates keep it back: "held back from sending: Category is empty; Sandbox requires it"), or
 * a warning, which sends all the same.
 */
export type Severity = 'error' | 'held' | 'warning'

/** The severities in the order they are shown. */
export const SEVERITIES: readonly Severity[] = ['error', 'held', 'warning']

export interface ProblemGroup {
  /** Stable within a file: severity, column and kind. */
  key: string
  severity: Severity
  /** The column's header as written in the file ('' for a problem of the whole row). */
  column: string
  /** The message of the first problem of the group, as an example. */
  message: string
  /**
   * Its problems' messages differ (by the cells' text, at least): the group is said by its kind.
   * Absent when every row says the same ("not the text "shop"" on each), which is then said whole.
   */
  varied?: true
  /** What its problems are, said once, where their messages differ by more than a cell's text. */
  kind?: string
  /**
   * The cell of its first row, where it has one: a group said by its kind ("not the text "…"")
   * quotes it as an example, so "…" is never taken for what the cells hold.
   */
  example?: string
  count: number
  /** The first rows with it (at most {@link ROWS_KEPT}); `count` says how many there are. */
  rows: number[]
}

/** Rows kept for each group: enough to find and show them, bounded over a million-row file. */
export const ROWS_KEPT = 1_000

/**
 * A check's digits in a message ("should be 8, not 3"). Global, for `replace`; `match` with it
 * answers every occurrence and keeps no state between calls.
 */
const CHECK_DIGITS = /\bshould be \d+, not \d+\b/g

/**
 * The message without what it quotes of the cell, nor the digits a check reads from it ("The check
 * digit of this EAN-13 should be 8, not 3", values/gtin.ts): one kind of mistake whatever the value.
 */
export function problemKind(message: string): string {
  return message.replace(/"[^"]*"|“[^”]*”/g, '"…"').replace(CHECK_DIGITS, 'should be …, not …')
}

/**
 * What `problemKind` takes out of a message that its row's cell does not show: a check's digits
 * ("should be 3, not 7"), said beside a group's example cell (a tryout read "should be …, not …"
 * with no digit anywhere).
 */
export function kindDetail(message: string): string | undefined {
  return message.match(CHECK_DIGITS)?.[0]
}

/**
 * A problem as grouped. One whose message names other rows or a barcode ("Barcode 4006… is also on
 * 2 other SKUs to be sent (row 3, row 4)") says its `kind` itself: a hold's reason.
 */
export type GroupedProblem = CellProblem & { kind?: string }

export function groupKey(
  severity: Severity,
  problem: Pick<GroupedProblem, 'column' | 'message' | 'kind'>,
): string {
  return `${severity}\u0000${problem.column}\u0000${problem.kind ?? problemKind(problem.message)}`
}

/** How a group is said: its one message when its rows all say the same, else its kind. */
export function groupWords(group: Pick<ProblemGroup, 'message' | 'kind' | 'varied'>): string {
  return group.varied ? (group.kind ?? problemKind(group.message)) : group.message
}

/** Adds problems a stretch of rows at a time; memory is one entry per group. */
export class ProblemGrouper {
  private readonly groups = new Map<string, ProblemGroup>()

  add(severity: Severity, problems: readonly GroupedProblem[]) {
    for (const problem of problems) {
      const key = groupKey(severity, problem)
      const group = this.groups.get(key)
      if (!group) {
        this.groups.set(key, {
          key,
          severity,
          column: problem.column,
          message: problem.message,
          ...(problem.kind !== undefined && { kind: problem.kind }),
          ...(problem.value.trim() !== '' && { example: problem.value }),
          count: 1,
          rows: [problem.row],
        })
      } else {
        group.count++
        if (problem.message !== group.message) group.varied = true
        if (group.rows.length < ROWS_KEPT && group.rows.at(-1) !== problem.row) group.rows.push(problem.row)
      }
    }
  }

  /** Errors first, then holds, then warnings; within each, the groups of most rows, then the file's order. */
  get list(): ProblemGroup[] {
    return [...this.groups.values()].sort(
      (a, b) =>
        SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
        b.count - a.count ||
        a.rows[0]! - b.rows[0]!,
    )
  }
}
