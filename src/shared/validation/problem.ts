/** One thing wrong (an error) or worth a look (a warning) in a document, at a dotted path. */
export interface Problem {
  /** Dotted JSON path inside the item (`arEffect.envSettings.intensity`); empty for the item itself. */
  path: string
  /** Said in the field catalogue's words, for a catalog person rather than a programmer. */
  message: string
}

export interface ValidationResult {
  errors: Problem[]
  warnings: Problem[]
}

export type Validity = 'valid' | 'warnings' | 'invalid'

export function validityOf(result: ValidationResult): Validity {
  return validityOfCounts({ errors: result.errors.length, warnings: result.warnings.length })
}

/** The same from counts of problems (a dry run's rows carry only those): errors first, then warnings. */
export function validityOfCounts(counts: { errors: number; warnings: number }): Validity {
  return counts.errors > 0 ? 'invalid' : counts.warnings > 0 ? 'warnings' : 'valid'
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.')
}
