import { groupKey, type ProblemGroup } from '#shared/sheet/problem-groups.ts'
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
