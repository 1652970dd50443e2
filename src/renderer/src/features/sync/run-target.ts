import type { ProfileView } from '../../../../shared/profile.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'

/** An address as compared: a trailing slash says nothing about where requests go. */
function comparable(url: string): string {
  return url.replace(/\/+$/, '')
}

/**
 * Why a run must not send now, or undefined when it may: a run goes to the place it was started
 * for (its items were judged for that service, and some may already be there), never to wherever
 * its profile points today. The embedded sandbox listens on a new loopback port each time the app
 * starts, so for it the profile itself (its id, and that it is still the embedded sandbox) is the
 * place.
 */
export function runTargetProblem(
  run: Pick<SyncRunRecord, 'profileId' | 'profileName' | 'url'>,
  profiles: readonly Pick<ProfileView, 'id' | 'kind' | 'url'>[],
): string | undefined {
  const profile = profiles.find((candidate) => candidate.id === run.profileId)
  if (!profile) {
    return `This run was started for ${run.url} with the profile “${run.profileName}”, which no longer exists. Cancel it and start a new sync.`
  }
  if (profile.kind === 'embedded-sandbox') return undefined
  if (comparable(profile.url) === comparable(run.url)) return undefined
  return `This run was started for ${run.url}; the profile now points at ${profile.url}. Cancel it and start a new sync.`
}
