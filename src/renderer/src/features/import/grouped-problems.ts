import { groupKey, groupWords, type ProblemGroup } from '#shared/sheet/problem-groups.ts'
import type { ReportedProblem } from './import-protocol.ts'

/**
 * The import's problems as the screen and the error report show them: by group in the grouper's
 * order (errors, then the rows held back from sending, then the warnings, each the most rows
 * first).
 */

/** The kept problems of each group, by the group's key, each in the file's order. */
export function problemsByGroup(problems: readonly ReportedProblem[]): Map<string, ReportedProblem[]> {
  const out = new Map<string, ReportedProblem[]>()
  for (const problem of problems) {
    const key = groupKey(problem.severity, problem)
    const list = out.get(key)
    if (list) list.push(problem)
    else out.set(key, [problem])
  }
  return out
}

/**
 * The error report's lines in the screen's order: group after group, each in row order. A problem
 * of no group (there should be none) goes last, so nothing kept is ever left out of the report.
 */
export function reportOrder(
  problems: readonly ReportedProblem[],
  groups: readonly ProblemGroup[],
): ReportedProblem[] {
  const order = new Map(groups.map((group, i) => [group.key, i]))
  return problems
    .map((problem, i) => ({
      problem,
      i,
      group: order.get(groupKey(problem.severity, problem)) ?? order.size,
    }))
    .sort((a, b) => a.group - b.group || a.problem.row - b.problem.row || a.i - b.i)
    .map(({ problem }) => problem)
}

/** Rows shown under a group's heading while it is closed. */
const EXAMPLES = 5

/** A group as the screen shows it (ProblemGroups.vue, ProblemGroupItem.vue). */
export interface GroupView {
  group: ProblemGroup
  /** The id of the element its rows go in. */
  id: string
  /** What is wrong, without the cell's text when it is said of many rows. */
  kind: string
  examples: { row: number; value: string }[]
  /** Its kept problems, in the file's order. */
  details: ReportedProblem[]
  /** Its rows whose problem was not kept (past PROBLEMS_KEPT). */
  bare: number[]
  /** Problems past the rows the group kept. */
  more: number
}

/** Each group with its kept problems, its first rows as examples, and what was not kept. */
export function groupViews(
  groups: readonly ProblemGroup[],
  problems: readonly ReportedProblem[],
): GroupView[] {
  const kept = problemsByGroup(problems)
  return groups.map((group, i) => {
    const details = kept.get(group.key) ?? []
    const values = new Map<number, string>()
    for (const problem of details) if (!values.has(problem.row)) values.set(problem.row, problem.value)
    const bare = group.rows.filter((row) => !values.has(row))
    const kind = groupWords(group)
    return {
      group,
      id: `import-problem-group-${i}`,
      kind,
      examples: group.rows.slice(0, EXAMPLES).map((row) => ({ row, value: values.get(row) ?? '' })),
      details,
      bare,
      more: Math.max(0, group.count - details.length - bare.length),
    }
  })
}
