import type { Outcome } from '../../../../shared/service/outcome.ts'
import type { SendOptions, SyncTransport } from '../../../../shared/sync/ports.ts'

/**
 * The engine's transport in the app: each request goes over the bridge to main, which sends it
 * with the run's profile and the token from the keychain. The renderer names the profile, never
 * holds the token; an aborted signal ends the request in main.
 */
export function bridgeTransport(profileId: string): SyncTransport {
  async function send(call: (requestId: string) => Promise<Outcome>, { signal }: SendOptions = {}) {
    const requestId = crypto.randomUUID()
    const abort = () => void window.api.abortSyncRequest(requestId)
    if (signal?.aborted) abort()
    signal?.addEventListener('abort', abort, { once: true })
    try {
      return await call(requestId)
    } finally {
      signal?.removeEventListener('abort', abort)
    }
  }
  return {
    bulkUpload: (skus, options) =>
      send((id) => window.api.syncBulkUpload(profileId, id, skus as Record<string, unknown>[]), options),
    createApp: (request, options) =>
      send((id) => window.api.syncCreateApp(profileId, id, request as Record<string, unknown>), options),
  }
}
