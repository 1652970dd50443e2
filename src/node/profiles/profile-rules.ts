import { BUILT_IN_PROFILES, profileSchema, type Profile } from '#shared/profile.ts'
import { destinationKindOf, normaliseBaseUrl } from '#shared/sync/destination.ts'

export const SANDBOX_PROFILE_ID = 'sandbox'

export interface ProfileIssue {
  /** The field, as a dotted path ("timeouts.connectMs"); empty for the profile as a whole. */
  path: string
  message: string
}

/** A profile that cannot be saved, with the schema's own messages (written for a person). */
export class InvalidProfileError extends Error {
  override name = 'InvalidProfileError'
  readonly issues: ProfileIssue[]

  constructor(issues: ProfileIssue[]) {
    super(issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; '))
    this.issues = issues
  }
}

export function builtInProfile(id: string): Profile | undefined {
  return BUILT_IN_PROFILES.find((profile) => profile.id === id)
}

export { normaliseBaseUrl }

/** What a token is bound to: the address it is sent to. */
export function tokenAddress(profile: Profile): string {
  return destinationKindOf(profile).tokenAddress(profile)
}

/**
 * The profile as it is stored, or the reasons it cannot be. On top of the schema: built-ins keep
 * their kind (the Sandbox profile is the embedded sandbox; Production and Staging are services), and
 * only the built-in Sandbox profile may use the embedded sandbox, whose token is not a secret.
 */
export function checkProfile(input: unknown): { profile: Profile } | { issues: ProfileIssue[] } {
  const parsed = profileSchema().safeParse(input)
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    }
  }
  const profile = parsed.data
  const builtIn = builtInProfile(profile.id)
  if (builtIn && builtIn.kind !== profile.kind) {
    return {
      issues: [{ path: 'kind', message: destinationKindOf(builtIn).words.builtInKeeps(builtIn.name) }],
    }
  }
  const kind = destinationKindOf(profile)
  if (!builtIn && !kind.customProfiles) {
    return {
      issues: [
        { path: 'kind', message: kind.words.notCustom ?? `A profile cannot be of kind ${profile.kind}.` },
      ],
    }
  }
  return { profile: kind.normalise(profile) }
}

export function validateProfile(input: unknown): Profile {
  const result = checkProfile(input)
  if ('issues' in result) throw new InvalidProfileError(result.issues)
  return result.profile
}
