import { isRecord } from '../is-record.ts'
/**
 * What the service did not keep of an app creation request: the contract's sample response comes
 * back with several nested objects empty although the request filled them in, so after a creation
 * the request as sent is compared with the `app` returned, and every difference is shown to the
 * person instead of being silently lost. Fields the service adds (`_id`, `created_at`, …) are not
 * differences; only what was sent is walked.
 */

export type FieldChange =
  /** Sent, absent from the answer. */
  | 'dropped'
  /** Sent with content, returned as `{}` or `[]`. */
  | 'emptied'
  /** Returned with another value or type. */
  | 'changed'

export interface DroppedField {
  /** Dotted path inside the request (`report_config.features`, `appConfig.domains.0`). */
  path: string
  change: FieldChange
  sent: unknown
  /** What came back; absent for `dropped`. */
  returned?: unknown
}

/** Enough to show; a request whose every leaf changed says so in its first entries. */
const MAX_ENTRIES = 500
/** A request nested deeper than this is compared as a whole below this depth. */
const MAX_DEPTH = 64

function isEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isRecord(value) && Object.keys(value).length === 0
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b)
  } catch {
    return false
  }
}

/** The differences between `sent` and `returned`, in the request's field order. */
export function droppedFields(sent: unknown, returned: unknown): DroppedField[] {
  const found: DroppedField[] = []
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

  function walk(path: string, a: unknown, b: unknown, depth: number): void {
    if (found.length >= MAX_ENTRIES) return
    const bothRecords = isRecord(a) && isRecord(b)
    const bothArrays = Array.isArray(a) && Array.isArray(b)
    if (!bothRecords && !bothArrays) {
      if (!sameJson(a, b)) found.push({ path, change: 'changed', sent: a, returned: b })
      return
    }
    if (!isEmpty(a) && isEmpty(b)) {
      found.push({ path, change: 'emptied', sent: a, returned: b })
      return
    }
    if (depth >= MAX_DEPTH) {
      if (!sameJson(a, b)) found.push({ path, change: 'changed', sent: a, returned: b })
      return
    }
    const from = a as Record<string, unknown>
    const to = b as Record<string, unknown>
    for (const key of Object.keys(from)) {
      const child = join(path, key)
      if (!Object.hasOwn(to, key)) found.push({ path: child, change: 'dropped', sent: from[key] })
      else walk(child, from[key], to[key], depth + 1)
      if (found.length >= MAX_ENTRIES) return
    }
  }

  if (isRecord(sent) && isRecord(returned)) walk('', sent, returned, 0)
  else if (!sameJson(sent, returned)) found.push({ path: '', change: 'changed', sent, returned })
  return found
}

/** One line a person reads: `report_config.features: emptied by the service`. */
export function describeDroppedField(field: DroppedField): string {
  const where = field.path || 'the whole request'
  switch (field.change) {
    case 'dropped':
      return `${where}: not returned by the service`
    case 'emptied':
      return `${where}: returned empty`
    case 'changed':
      return `${where}: returned as ${short(field.returned)} (sent ${short(field.sent)})`
  }
}

function short(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? 'nothing'
  } catch {
    text = String(value)
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}
