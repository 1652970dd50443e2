import type { Validity } from '#shared/validation/problem.ts'
import { NOT_FILLED, NOT_FILLED_OPTIONAL } from '#shared/sync/unfilled-fields.ts'
import { count, counted } from './counting.ts'

/**
 * A draft's checks in words, one vocabulary wherever they are named: the list's Checks filter,
 * its badges ("Ready", "3 not filled", "1 error"), the Sync page's tiles and notes ("with errors").
 * A field left empty is "not filled", never "missing": the contract requires none, and whether one
 * keeps a draft from being sent is the send gates' to say ("held back from sending", send-gates.ts;
 * src/shared/sync/unfilled-fields.ts).
 */
export const VALIDITY_LABELS: Record<Validity, string> = {
  valid: 'Ready',
  warnings: `Fields ${NOT_FILLED}`,
  invalid: 'Errors',
}

/** The list's filter that shows the drafts with errors, as other pages point to it. */
export const ERRORS_FILTER = `Checks: ${VALIDITY_LABELS.invalid}`

/** A badge's words from its counts: "1 error", "3 not filled", "Ready". */
export function validityBadgeText(validity: Validity, errors: number, warnings: number): string {
  if (validity === 'invalid') return counted(errors, 'error')
  if (validity === 'warnings') return `${count(warnings)} ${NOT_FILLED}`
  return VALIDITY_LABELS.valid
}

/** "2 fields not filled", for an app's editor (apps have no send gates). */
export function unfilledFields(n: number): string {
  return `${counted(n, 'field')} ${NOT_FILLED}`
}

/** "2 fields not filled (optional)", for fields no gate requires. */
export function optionalUnfilled(n: number): string {
  return `${counted(n, 'field')} ${NOT_FILLED_OPTIONAL}`
}
