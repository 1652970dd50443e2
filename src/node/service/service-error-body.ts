import type { ServiceProblem } from '#shared/service/outcome.ts'
import type { Redact } from '../secrets/redaction.ts'
import { showable } from './untrusted-text.ts'
import { isRecord } from '#shared/is-record.ts'

/**
 * The platform's errors carry a JSON body with `message`; the sandbox adds `errors: [{path, message}]`.
 * Neither is promised by the contract, so every field is checked and capped, and anything
 * malformed is left out rather than shown half-read.
 */
export const SERVICE_TEXT_LIMITS = {
  message: 500,
  path: 200,
  problemMessage: 300,
  /** Beyond this, a list of problems is noise; the batch splitting finds the items anyway. */
  problems: 100,
} as const

export interface ServiceErrorDetails {
  serviceMessage?: string
  problems?: ServiceProblem[]
}

/** A path as a string (`skus.0.name`) or as segments (`['skus', 0, 'name']`). */
function readPath(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (Array.isArray(value) && value.every((s) => typeof s === 'string' || typeof s === 'number')) {
    return value.join('.')
  }
  return undefined
}

function readProblems(value: unknown, redact: Redact): ServiceProblem[] | undefined {
  if (!Array.isArray(value)) return undefined
  const problems: ServiceProblem[] = []
  for (const item of value.slice(0, SERVICE_TEXT_LIMITS.problems)) {
    if (!isRecord(item) || typeof item.message !== 'string') continue
    const path = readPath(item.path)
    if (path === undefined) continue
    const message = showable(item.message, SERVICE_TEXT_LIMITS.problemMessage, redact)
    if (message === '') continue
    problems.push({ path: showable(path, SERVICE_TEXT_LIMITS.path, redact), message })
  }
  return problems.length > 0 ? problems : undefined
}

/** What the service said about an error, from its parsed JSON body (anything at all). */
export function readServiceError(json: unknown, redact: Redact): ServiceErrorDetails {
  if (!isRecord(json)) return {}
  const details: ServiceErrorDetails = {}
  if (typeof json.message === 'string') {
    const message = showable(json.message, SERVICE_TEXT_LIMITS.message, redact)
    if (message !== '') details.serviceMessage = message
  }
  const problems = readProblems(json.errors, redact)
  if (problems) details.problems = problems
  return details
}
