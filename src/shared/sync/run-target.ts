/** Where a run was started for: its profile, the address it had then, and the destination. */
export interface RunTarget {
  profileId: string
  profileName?: string
  url: string
  destination: string
}

/** A profile as it is now: the address it sends to, and the destination that is. */
export interface TargetProfile {
  id: string
  url: string
  destination: string
}

/**
 * Why a run must not send now, or undefined when it may: a run goes to the destination it was
 * started for (its items were judged for that service, and their standings there are what it
 * writes), never to wherever its profile points today. Checked by the page before a run resumes
 * and by main before every request leaves, so an address edited during a run cannot take the rest
 * of it elsewhere. The embedded sandbox is one destination whatever port it listens on.
 */
export function runTargetProblem(run: RunTarget, profiles: readonly TargetProfile[]): string | undefined {
  const profile = profiles.find((candidate) => candidate.id === run.profileId)
  if (!profile) {
    return `This run was started for ${run.url} with the profile “${run.profileName ?? run.profileId}”, which no longer exists. Cancel it and start a new sync.`
  }
  if (profile.destination === run.destination) return undefined
  return `This run was started for ${run.url}; the profile now points at ${profile.url}. Cancel it and start a new sync.`
}
