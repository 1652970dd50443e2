import { validateAppRequest } from '../validation/validate.ts'
import { validityOf, type Problem, type ValidationResult } from '../validation/problem.ts'
import { hostNameProblem } from './host-names.ts'

/**
 * An app draft checked as the editor shows it: the contract's schema (`validateAppRequest`), and
 * each allowed domain written as text read as a host name. The contract leaves an entry's shape
 * open, so entries that are not text (brought in as JSON) are kept and not judged.
 */
export function validateAppDraft(payload: unknown): ValidationResult {
  const result = validateAppRequest(payload)
  return { errors: [...result.errors, ...domainProblems(payload)], warnings: result.warnings }
}

export function domainProblems(payload: unknown): Problem[] {
  const domains = (payload as { appConfig?: { domains?: unknown } } | null)?.appConfig?.domains
  if (!Array.isArray(domains)) return []
  const out: Problem[] = []
  domains.forEach((entry, index) => {
    if (typeof entry !== 'string') return
    const problem = hostNameProblem(entry)
    if (problem) {
      out.push({
        path: `appConfig.domains.${index}`,
        message: `Allowed domain ${index + 1}${entry.trim() ? ` “${entry}”` : ''} ${problem}`,
      })
    }
  })
  return out
}

/** The columns an app draft keeps beside its payload, derived on every write. */
export function appDraftColumns(payload: unknown) {
  const result = validateAppDraft(payload)
  const name = (payload as { name?: unknown } | null)?.name
  return {
    name: typeof name === 'string' ? name : '',
    validity: validityOf(result),
    errorCount: result.errors.length,
    warningCount: result.warnings.length,
  }
}
