import type { Outcome } from '#shared/service/outcome.ts'
import { redactStrings, type Redact } from '../secrets/redaction.ts'

/** The last gate: every text of an outcome, whoever wrote it. */
export function redactOutcome(outcome: Outcome, redact: Redact): Outcome {
  const safe: Outcome = { ...outcome, message: redact(outcome.message) }
  if (outcome.serviceMessage !== undefined) safe.serviceMessage = redact(outcome.serviceMessage)
  if (outcome.problems !== undefined) {
    safe.problems = outcome.problems.map((problem) => ({
      path: redact(problem.path),
      message: redact(problem.message),
    }))
  }
  if (outcome.body !== undefined) safe.body = redactStrings(outcome.body, redact)
  return safe
}
