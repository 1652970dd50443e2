import { profileSchema, type Profile, type ProfileView } from '#shared/profile.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'
import { destinationKindOf } from '#shared/sync/destination.ts'

/** The stored part of a profile view: what the form edits and sends back. */
export function profileOf(view: ProfileView): Profile {
  const { name, id, tokenEncoding, batchSize, concurrency, timeouts, requiredFields, holdBadCheckDigits } =
    view
  const common = {
    id,
    name,
    tokenEncoding,
    batchSize,
    concurrency,
    timeouts: { ...timeouts },
    requiredFields: [...requiredFields],
    holdBadCheckDigits,
  }
  // The fields its kind of destination adds (a service's address), and nothing else of the view.
  return { ...common, kind: view.kind, ...destinationKindOf(view).ownFields(view) } as Profile
}

export function newProfile(): Profile {
  return {
    ...DEFAULT_SENDING,
    timeouts: { ...DEFAULT_SENDING.timeouts },
    requiredFields: [...DEFAULT_SENDING.requiredFields],
    id: `profile-${crypto.randomUUID().slice(0, 8)}`,
    name: 'New profile',
    kind: 'service',
    baseUrl: 'https://',
  }
}

/** The schema's problems by dotted path, for inline messages. */
export function profileProblems(profile: Profile, otherNames: readonly string[] = []): Map<string, string> {
  const parsed = profileSchema().safeParse(profile)
  const problems = new Map<string, string>()
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.set(issue.path.join('.'), issue.message)
  }
  // Two profiles of one name read alike in the list, the Sync page ("Syncing goes to Staging") and
  // the list's Sync column: which one is meant is lost.
  const name = profile.name.trim().toLowerCase()
  if (!problems.has('name') && otherNames.some((other) => other.trim().toLowerCase() === name))
    problems.set('name', `Another profile is named “${profile.name.trim()}”: give this one a name of its own`)
  return problems
}

/** The form's field of a problem's path, for moving the focus there. */
export function fieldId(path: string): string {
  const fixed: Record<string, string> = {
    name: 'profile-name',
    baseUrl: 'profile-url',
    batchSize: 'profile-batch',
    concurrency: 'profile-concurrency',
  }
  if (path.startsWith('timeouts.')) return `profile-${path.slice('timeouts.'.length)}`
  return fixed[path] ?? 'profile-name'
}

function valueAt(profile: Profile, path: string): unknown {
  let value: unknown = profile
  for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key]
  return value
}

/**
 * The problems to show: every one after a save was tried (`'all'`), else only those of fields the
 * person touched, by leaving them or by changing them from what the form opened with. A new
 * profile's untouched address ("https://") is not shown as wrong before anything is typed.
 */
export function shownProblems(
  problems: Map<string, string>,
  touched: ReadonlySet<string> | 'all',
  draft: Profile,
  original: Profile,
): Map<string, string> {
  if (touched === 'all') return problems
  return new Map(
    [...problems].filter(
      ([path]) =>
        touched.has(path) || JSON.stringify(valueAt(draft, path)) !== JSON.stringify(valueAt(original, path)),
    ),
  )
}
