import type { ServiceRequest } from '#shared/service/operations.ts'
import type { SyncTransport } from '#shared/sync/ports.ts'

/**
 * The engine's transport in the app: each request goes over the bridge to main, which sends it
 * with the run's profile and the token from the keychain, provided the profile still leads to the
 * destination the run was started for. The renderer names the profile, never holds the token, and
 * names the operation by its key: main builds the request from its table and checks the argument.
 * A request once sent is let finish: the engine never aborts one.
 */
export function bridgeTransport({
  profileId,
  destination,
}: {
  profileId: string
  destination: string
}): SyncTransport {
  return {
    // The argument's shape is the operation's (the kind built it); main checks it all the same.
    send: (request) => window.api.syncSend(profileId, destination, request as ServiceRequest),
  }
}
