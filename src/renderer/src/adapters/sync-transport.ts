import type { SyncTransport } from '#shared/sync/ports.ts'

/**
 * The engine's transport in the app: each request goes over the bridge to main, which sends it
 * with the run's profile and the token from the keychain, provided the profile still leads to the
 * destination the run was started for. The renderer names the profile, never holds the token. A request once sent is let finish: the engine never aborts one.
 */
export function bridgeTransport({
  profileId,
  destination,
}: {
  profileId: string
  destination: string
}): SyncTransport {
  return {
    bulkUpload: (skus) =>
      window.api.syncBulkUpload(profileId, destination, skus as Record<string, unknown>[]),
    createApp: (request) =>
      window.api.syncCreateApp(profileId, destination, request as Record<string, unknown>),
  }
}
