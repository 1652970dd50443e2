import type { Profile } from '../profile.ts'

/** Where a run was started for: its profile, and the address that profile had then. */
export interface RunTarget {
  profileId: string
  profileName?: string
  url: string
}

/** A profile as it is now: its kind and the address it sends to. */
export interface TargetProfile {
  id: string
  kind: Profile['kind']
  url: string
}

/** An address as compared: a trailing slash says nothing about where requests go. */
function comparable(url: string): string {
  return url.replace(/\/+$/, '')
}

/**
 * Why a run must not send now, or undefined when it may: a run goes to the place it was started
 * for (its items were judged for that service, and some may already be there), never to wherever
 * its profile points today. Checked by the page before a run resumes and by main before every
 * request leaves, so an address edited during a run cannot take the rest of it elsewhere. The embedded sandbox listens on a new loopback port each time the app
 * starts, so for it the profile itself (its id, and that it is still the embedded sandbox) is the
 * place.
 */
export function runTargetProblem(run: RunTarget, profiles: readonly TargetProfile[]): string | undefined {
  const profile = profiles.find((candidate) => candidate.id === run.profileId)
  if (!profile) {
    return `This run was started for ${run.url} with the profile “${run.profileName ?? run.profileId}”, which no longer exists. Cancel it and start a new sync.`
  }
  if (profile.kind === 'embedded-sandbox') return undefined
  if (comparable(profile.url) === comparable(run.url)) return undefined
  return `This run was started for ${run.url}; the profile now points at ${profile.url}. Cancel it and start a new sync.`
}
