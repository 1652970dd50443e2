import type { ProfileView } from '#shared/profile.ts'
import { takesSamples } from '#shared/sync/destination.ts'
import type { GateTarget } from '../../db/sku-send-gates.ts'
import type { RunTarget, UpdateGate } from '../../db/sync-runs.ts'

/*
 * What a profile tells the store's parts as a run is weighed or started: each reads the profile
 * the same way, so the pre-flight, the gates and the run agree on where it goes and what it needs.
 */

/** The gates an update passes: what the profile requires, named by the profile. */
export function updateGate(profile: ProfileView): UpdateGate {
  return {
    required: profile.requiredFields,
    requiredBy: profile.name,
    holdBadCheckDigits: profile.holdBadCheckDigits,
    takesSamples: takesSamples(profile.destination),
  }
}

/** Where the gates judge a send to, and what its profile requires. */
export function gateTarget(profile: ProfileView): GateTarget {
  return {
    destination: profile.destination,
    required: profile.requiredFields,
    holdBadCheckDigits: profile.holdBadCheckDigits,
    place: profile.name,
  }
}

/** Where a new run sends, as the profile says when it starts. */
export function runTarget(profile: ProfileView): RunTarget {
  return {
    id: profile.id,
    name: profile.name,
    url: profile.url,
    destination: profile.destination,
    batchSize: profile.batchSize,
    concurrency: profile.concurrency,
  }
}
