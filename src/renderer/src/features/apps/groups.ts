import type { Problem, ValidationResult } from '#shared/validation/problem.ts'

/**
 * The editor's groups, as the product thinks of an app rather than as the contract nests it. Each
 * names the preview screen it is about, so opening a group shows the screen it changes.
 */
export const APP_GROUPS = [
  { key: 'general', label: 'General', screen: undefined },
  { key: 'report', label: 'Report', screen: 'report' },
  { key: 'experience', label: 'Experience', screen: 'instructions' },
  { key: 'appearance', label: 'Appearance', screen: undefined },
  { key: 'access', label: 'Access', screen: undefined },
  { key: 'meta', label: 'Meta', screen: undefined },
] as const

export type GroupKey = (typeof APP_GROUPS)[number]['key']
export type PreviewScreen = 'loading' | 'instructions' | 'report'

const GENERAL = new Set(['', 'name', 'status', 'expire_images_after_days', 'sdkVersion', 'algorithmVersion'])

/** The group whose controls edit the field at a dotted path (problems are shown on its tab). */
export function groupOfPath(path: string): GroupKey {
  const [first = '', second, third] = path.split('.')
  if (GENERAL.has(first)) return 'general'
  if (first === 'report_config') return 'report'
  if (first === 'appConfig') {
    if (second === 'domains') return 'access'
    if (second === 'meta') return 'meta'
    if (second === 'ui_config' && third === 'appearance') return 'appearance'
    // appConfig itself or its ui_config missing, and everything in ui_config but appearance.
    if (second === undefined || second === 'ui_config') return 'experience'
    return 'meta'
  }
  return 'meta'
}

export interface GroupCounts {
  errors: number
  warnings: number
}

/** Errors and missing fields per group, for the tabs. */
export function countByGroup(result: ValidationResult): Record<GroupKey, GroupCounts> {
  const counts = Object.fromEntries(APP_GROUPS.map(({ key }) => [key, { errors: 0, warnings: 0 }])) as Record<
    GroupKey,
    GroupCounts
  >
  const add = (problems: Problem[], kind: keyof GroupCounts) => {
    for (const problem of problems) counts[groupOfPath(problem.path)][kind]++
  }
  add(result.errors, 'errors')
  add(result.warnings, 'warnings')
  return counts
}
