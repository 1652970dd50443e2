import type { Profile } from '#shared/profile.ts'
import { PROCESSED, type Outcome } from '#shared/service/outcome.ts'
import type { HandlerDeps, Handlers, ServiceDeps } from './types.ts'
import type { ServiceClient } from '#node/service/client.ts'
import type { OperationCall } from '#shared/service/operations.ts'
import { runTargetProblem } from '#shared/sync/run-target.ts'
import { clientForProfile, profileUrl, unavailable } from './service.ts'
import { destinationAddressName, destinationOf } from '#shared/sync/destination.ts'
import { messageOf } from '#shared/error-message.ts'
import { SentRequestAnswers } from './sync-answers.ts'

type SyncHandlers = Pick<Handlers, 'syncSend' | 'syncAnswers'>

/**
 * An answer for a request that never left: said as an outcome, not thrown, because the engine
 * must tell "not sent" from a failure that may have reached the service (which it reads as unknown).
 * It stops the run, as a wrong address does: nothing sent with this profile could succeed.
 */
function notSent(message: string): Outcome {
  return { kind: 'wrong-address', processed: PROCESSED['wrong-address'], message, durationMs: 0 }
}

/**
 * The sync engine's transport in main: each call is one request with the named profile's address,
 * timeouts and token (read from the keychain as the request leaves; it never crosses the bridge),
 * and answers the client's classified, redacted outcome. Nothing here resends: the engine in the
 * renderer decides, knowing the outcome table. Nothing here aborts either: a request once sent is
 * let finish (a cancel or pause in the engine sends nothing new), so its outcome is always known.
 * The engine's outbox, which refuses to send an item that is not queued, is what keeps a batch
 * from going out twice. Main keeps the last answers by the engine's request id (`syncAnswers`) for a
 * page that was gone before its answer came, and no update installs while a request is out.
 */
export function createSyncHandlers(deps: ServiceDeps & Pick<HandlerDeps, 'updates'>): SyncHandlers {
  // One client a profile, kept while the profile is unchanged: its connections are reused between
  // batches. A profile edited meanwhile (a new address, say) gets a new client.
  const clients = new Map<string, { profile: string; client: ServiceClient }>()

  function clientFor(profile: Profile): ServiceClient {
    const key = JSON.stringify(profile)
    const cached = clients.get(profile.id)
    if (cached?.profile === key) return cached.client
    const client = clientForProfile(profile, deps)
    clients.set(profile.id, { profile: key, client })
    return client
  }

  /** Sends with the run's profile, unless it is gone or now leads somewhere else than the run's destination. */
  async function send(profileId: string, runDestination: string, request: OperationCall): Promise<Outcome> {
    let profile: Profile | undefined
    try {
      profile = await deps.profiles.get(profileId)
    } catch (error) {
      return notSent(`The profile could not be read (${messageOf(error)}); nothing was sent.`)
    }
    const now = profile && {
      id: profile.id,
      url: profileUrl(profile, deps.sandbox),
      destination: destinationOf(profile, deps.sandbox.url),
    }
    const problem = runTargetProblem(
      { profileId, url: destinationAddressName(runDestination), destination: runDestination },
      now ? [now] : [],
    )
    if (problem) return notSent(`${problem} Nothing was sent.`)
    const down = unavailable(profile!, deps.sandbox)
    if (down) return notSent(`${down} Nothing was sent.`)
    return clientFor(profile!).send(request)
  }

  const answers = new SentRequestAnswers()

  return {
    syncSend: (profileId, runDestination, request, requestId) => {
      const answer = send(profileId, runDestination, request)
      answers.remember(requestId, answer)
      // Until it ends, no update installs: the page that sent it may be gone (a reload).
      deps.updates.holdFor(answer)
      return answer
    },
    syncAnswers: (requestIds, wait) => answers.answers(requestIds, wait),
  }
}
