import type { ConnectionTest, ProfilesState } from '#shared/ipc.ts'
import type { Profile, ProfileView } from '#shared/profile.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import type { EmbeddedSandbox, Handlers, ServiceDeps } from './types.ts'
import { tokenAddress } from '#node/profiles/profile-rules.ts'
import { createServiceClient } from '#node/service/client.ts'
import { destinationKindOf, destinationOf } from '#shared/sync/destination.ts'

type ServiceHandlers = Pick<
  Handlers,
  | 'listProfiles'
  | 'saveProfile'
  | 'removeProfile'
  | 'activateProfile'
  | 'setToken'
  | 'clearToken'
  | 'testConnection'
>

/** Where a profile's requests go: the embedded sandbox's current address, or the profile's own. */
export function profileUrl(profile: Profile, sandbox: EmbeddedSandbox): string {
  return destinationKindOf(profile).address(profile, sandbox)
}

/** Why nothing can be sent with this profile now (the embedded sandbox could not start), if anything. */
export function unavailable(profile: Profile, sandbox: EmbeddedSandbox): string | undefined {
  return destinationKindOf(profile).unavailable(sandbox)
}

/** The service client for a profile, reading its token only when a request goes out. */
export function clientForProfile(profile: Profile, deps: ServiceDeps) {
  return createServiceClient({
    baseUrl: profileUrl(profile, deps.sandbox),
    tokenEncoding: profile.tokenEncoding,
    timeouts: profile.timeouts,
    getToken: async () =>
      destinationKindOf(profile).ownToken
        ? // Only a token set for this very address: one left from a former address is never sent.
          deps.tokens.get(profile.id, tokenAddress(profile))
        : deps.sandbox.token,
  })
}

/**
 * Reading a connection test's outcome for a person. The request is an empty batch: it proves the
 * address and the token without creating anything. A 400/422 still means the service read the
 * request past authentication (it disliked the empty batch), so the profile works.
 */
export function connectionTestResult(outcome: Outcome, url: string): ConnectionTest {
  const answered = { kind: outcome.kind, status: outcome.status, url, durationMs: outcome.durationMs }
  switch (outcome.kind) {
    case 'created':
      return {
        ...answered,
        ok: true,
        message: 'The service accepted the token and the empty test batch. Nothing was created.',
      }
    case 'rejected':
    case 'too-large':
      return {
        ...answered,
        ok: true,
        message: `The service took the token but refused the empty test batch (HTTP ${outcome.status}): some services refuse a batch with no SKU in it. The batch was empty, so nothing was created; a first sync of real SKUs shows whether they are accepted.`,
      }
    default:
      return { ...answered, ok: false, message: outcome.message }
  }
}

export function createServiceHandlers(deps: ServiceDeps): ServiceHandlers {
  async function view(profile: Profile): Promise<ProfileView> {
    const builtIn = ['sandbox', 'production', 'staging'].includes(profile.id)
    const url = profileUrl(profile, deps.sandbox)
    const destination = destinationOf(profile, deps.sandbox.url)
    const { ownToken, tokenStorage } = destinationKindOf(profile)
    if (!ownToken)
      return { ...profile, url, destination, builtIn, hasToken: true, tokenStorage: tokenStorage ?? null }
    const token = await deps.tokens.has(profile.id, tokenAddress(profile))
    return { ...profile, url, destination, builtIn, hasToken: token.isSet, tokenStorage: token.storage }
  }

  async function state(): Promise<ProfilesState> {
    const { profiles, activeId, notice } = await deps.profiles.list()
    const views = await Promise.all(profiles.map(view))
    return notice ? { profiles: views, activeId, notice } : { profiles: views, activeId }
  }

  async function existing(id: string): Promise<Profile> {
    const profile = await deps.profiles.get(id)
    if (!profile) throw new Error(`There is no profile "${id}".`)
    return profile
  }

  return {
    listProfiles: state,
    saveProfile: async (profile) => {
      await deps.profiles.save(profile)
      return state()
    },
    removeProfile: async (id) => {
      await deps.profiles.remove(id)
      return state()
    },
    activateProfile: async (id) => {
      await deps.profiles.activate(id)
      return state()
    },
    setToken: async (id, token) => {
      const profile = await existing(id)
      const kind = destinationKindOf(profile)
      if (!kind.ownToken) throw new Error(kind.words.noToken)
      // Bound to the address the profile has now: if it moves, this token is not sent there.
      return deps.tokens.set(id, tokenAddress(profile), token)
    },
    clearToken: async (id) => {
      await existing(id)
      await deps.tokens.clear(id)
    },
    testConnection: async (id, encoding) => {
      const stored = await existing(id)
      // "Test both" asks for each encoding in turn: this test only, the profile is not changed.
      const profile = encoding ? { ...stored, tokenEncoding: encoding } : stored
      const down = unavailable(profile, deps.sandbox)
      if (down) return { ok: false, kind: 'unreachable', message: down, url: '', durationMs: 0 }
      const outcome = await clientForProfile(profile, deps).send({ operation: 'bulk-upload', argument: [] })
      return {
        ...connectionTestResult(outcome, profileUrl(profile, deps.sandbox)),
        encoding: profile.tokenEncoding,
      }
    },
  }
}
