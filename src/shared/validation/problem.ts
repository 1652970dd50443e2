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
  if (result.errors.length > 0) return 'invalid'
  return result.warnings.length > 0 ? 'warnings' : 'valid'
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.')
}
