import { profileSchema, type Profile, type ProfileView } from '#shared/profile.ts'
import { DEFAULT_SENDING } from '#shared/profile.ts'

/** The stored part of a profile view: what the form edits and sends back. */
export function profileOf(view: ProfileView): Profile {
  const { name, id, tokenEncoding, batchSize, concurrency, timeouts, requiredFields } = view
  const common = {
    id,
    name,
    tokenEncoding,
    batchSize,
    concurrency,
    timeouts: { ...timeouts },
    requiredFields: [...requiredFields],
  }
  return view.kind === 'embedded-sandbox'
    ? { ...common, kind: 'embedded-sandbox' }
    : { ...common, kind: 'service', baseUrl: view.baseUrl }
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
export function profileProblems(profile: Profile): Map<string, string> {
  const parsed = profileSchema.safeParse(profile)
  const problems = new Map<string, string>()
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.set(issue.path.join('.'), issue.message)
  }
  return problems
}
