import type { ValidationResult } from '#shared/validation/problem.ts'
import { isMissingField } from '#shared/validation/validate.ts'

/** Problems grouped by dotted path, so each input finds its own in one lookup. */
export interface ProblemIndex {
  errors: Map<string, string[]>
  /** The missing-field warnings: a field marks itself missing. */
  warnings: Map<string, string[]>
  /** The other warnings, said beside the value they are about (a barcode's check digit). */
  notes: Map<string, string[]>
}

function group(problems: ValidationResult['errors']): Map<string, string[]> {
  const byPath = new Map<string, string[]>()
  for (const { path, message } of problems) byPath.set(path, [...(byPath.get(path) ?? []), message])
  return byPath
}

export function indexProblems(result: ValidationResult): ProblemIndex {
  return {
    errors: group(result.errors),
    warnings: group(result.warnings.filter(isMissingField)),
    notes: group(result.warnings.filter((problem) => !isMissingField(problem))),
  }
}
