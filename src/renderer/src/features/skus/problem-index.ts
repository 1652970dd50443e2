import type { ValidationResult } from '#shared/validation/problem.ts'

/** Problems grouped by dotted path, so each input finds its own in one lookup. */
export interface ProblemIndex {
  errors: Map<string, string[]>
  warnings: Map<string, string[]>
}

function group(problems: ValidationResult['errors']): Map<string, string[]> {
  const byPath = new Map<string, string[]>()
  for (const { path, message } of problems) byPath.set(path, [...(byPath.get(path) ?? []), message])
  return byPath
}

export function indexProblems(result: ValidationResult): ProblemIndex {
  return { errors: group(result.errors), warnings: group(result.warnings) }
}
