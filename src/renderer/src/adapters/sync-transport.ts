import type { ServiceRequest } from '#shared/service/operations.ts'
import type { SyncTransport } from '#shared/sync/ports.ts'
import type { MainAnswers } from '../db/sync-outbox.ts'

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
    send: (request, requestId) =>
      window.api.syncSend(profileId, destination, request as ServiceRequest, requestId),
  }
}

/**
 * Main's word on requests a page that is gone sent (its answers are kept by request id): `wait`
 * for those still out, as a run that takes its requests up again must; or not, as the window's
 * start must not (it leaves them sending, main being on them).
 */
export function answersInMain({ wait }: { wait: boolean }): MainAnswers {
  return (requestIds) => window.api.syncAnswers(requestIds, wait)
}
