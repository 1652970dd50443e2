import type { Profile } from '../shared/profile.ts'
import { PROCESSED, type Outcome } from '../shared/service/outcome.ts'
import type { Handlers } from './handlers.ts'
import type { ServiceClient } from './service/client.ts'
import { clientForProfile, type ServiceDeps } from './service-handlers.ts'

type SyncHandlers = Pick<Handlers, 'syncBulkUpload' | 'syncCreateApp' | 'abortSyncRequest'>

const NO_PROFILE_MESSAGE =
  'The profile this run sends with no longer exists, so nothing was sent. Start a new sync with another profile.'

/**
 * An answer for a request that never left: said as an outcome, not thrown, because the engine
 * must tell "not sent" from a failure that may have reached the service (which it reads as unknown).
 * It stops the run, as a wrong address does: nothing sent with this profile could succeed.
 */
function notSent(message: string): Outcome {
  return { kind: 'wrong-address', processed: PROCESSED['wrong-address'], message, durationMs: 0 }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Aborts asked for before their request arrived (the two calls may cross); a few are remembered. */
const EARLY_ABORTS_KEPT = 64

/**
 * The sync engine's transport in main: each call is one request with the named profile's address,
 * timeouts and token (read from the keychain as the request leaves; it never crosses the bridge),
 * and answers the client's classified, redacted outcome. Nothing here resends: the engine in the
 * renderer decides, knowing the outcome table.
 */
export function createSyncHandlers(deps: ServiceDeps): SyncHandlers {
  const inFlight = new Map<string, AbortController>()
  const abortedEarly = new Set<string>()
  // One client a profile, kept while the profile is unchanged: its connections are reused between
  // batches. A profile edited meanwhile (a new address, say) gets a new client.
  const clients = new Map<string, { profile: string; client: ServiceClient }>()

  async function clientFor(profileId: string): Promise<ServiceClient | undefined> {
    const profile: Profile | undefined = await deps.profiles.get(profileId)
    if (!profile) return undefined
    const key = JSON.stringify(profile)
    const cached = clients.get(profileId)
    if (cached?.profile === key) return cached.client
    const client = clientForProfile(profile, deps)
    clients.set(profileId, { profile: key, client })
    return client
  }

  async function send(
    requestId: string,
    profileId: string,
    call: (client: ServiceClient, signal: AbortSignal) => Promise<Outcome>,
  ): Promise<Outcome> {
    if (inFlight.has(requestId)) throw new Error(`Sync request "${requestId}" is already in flight.`)
    // Registered before the first await, so an abort that follows this call always finds it.
    const controller = new AbortController()
    inFlight.set(requestId, controller)
    if (abortedEarly.delete(requestId)) controller.abort()
    try {
      let client: ServiceClient | undefined
      try {
        client = await clientFor(profileId)
      } catch (error) {
        return notSent(`The profile could not be read (${messageOf(error)}); nothing was sent.`)
      }
      if (!client) return notSent(NO_PROFILE_MESSAGE)
      return await call(client, controller.signal)
    } finally {
      inFlight.delete(requestId)
    }
  }

  return {
    syncBulkUpload: (profileId, requestId, skus) =>
      send(requestId, profileId, (client, signal) => client.bulkUpload(skus, { signal })),
    syncCreateApp: (profileId, requestId, request) =>
      send(requestId, profileId, (client, signal) => client.createApp(request, { signal })),
    abortSyncRequest: async (requestId) => {
      const controller = inFlight.get(requestId)
      if (controller) {
        controller.abort()
        return true
      }
      abortedEarly.add(requestId)
      if (abortedEarly.size > EARLY_ABORTS_KEPT) abortedEarly.delete(abortedEarly.values().next().value!)
      return false
    },
  }
}
