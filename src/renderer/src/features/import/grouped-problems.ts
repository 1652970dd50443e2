import { groupKey, problemKind, type ProblemGroup } from '#shared/sheet/problem-groups.ts'
import { gateFieldTitle, IDENTITY_FIELDS } from '#shared/sync/send-gates.ts'
import type { ReportedProblem } from './import-protocol.ts'

/**
 * The import's problems as the screen and the error report show them: by group, errors first,
 * then the warnings that keep a draft from ever being sent (no product name, no barcode), then
 * the other warnings; within each, the grouper's order (the most rows first).
 */

/** "Product name is missing", "Barcode is missing": the validator's words for the send gates' fields. */
const HOLDING = new Set(IDENTITY_FIELDS.map((field) => `${gateFieldTitle(field)} is missing`))

/** A warning group whose rows import, but whose drafts are held back from every send until fixed. */
export function holdsBack(group: Pick<ProblemGroup, 'severity' | 'message'>): boolean {
  return group.severity === 'warning' && HOLDING.has(problemKind(group.message))
}

function rank(group: ProblemGroup): number {
  return group.severity === 'error' ? 0 : holdsBack(group) ? 1 : 2
}

/** The groups in the order they are shown (a stable sort keeps the grouper's order within a rank). */
export function screenOrder(groups: readonly ProblemGroup[]): ProblemGroup[] {
  return [...groups].sort((a, b) => rank(a) - rank(b))
}

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
  const order = new Map(screenOrder(groups).map((group, i) => [group.key, i]))
  return problems
    .map((problem, i) => ({
      problem,
      i,
      group: order.get(groupKey(problem.severity, problem)) ?? order.size,
    }))
    .sort((a, b) => a.group - b.group || a.problem.row - b.problem.row || a.i - b.i)
    .map(({ problem }) => problem)
}
