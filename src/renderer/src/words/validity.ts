import type { Validity } from '#shared/validation/problem.ts'

/**
 * A draft's checks in words, one vocabulary wherever they are named: the list's Checks filter,
 * its badges ("Ready", "3 missing", "1 error"), the Sync page's tiles and notes ("with errors").
 */
export const VALIDITY_LABELS: Record<Validity, string> = {
  valid: 'Ready',
  warnings: 'Missing fields',
  invalid: 'Errors',
}

/** The list's filter that shows the drafts with errors, as other pages point to it. */
export const ERRORS_FILTER = `Checks: ${VALIDITY_LABELS.invalid}`
