/**
 * Where drafts are sent: a service, as the app tells one from another. A profile is only a way
 * to reach a destination (its address, its token, its batch size); what was sent where belongs to
 * the destination, so two profiles with the same address share it, and a draft created there
 * through one is never offered again through the other.
 *
 * A destination is its address (`https://api.pixelbin.io`, one spelling: no trailing slash),
 * except the sandbox embedded in the app, which is one place whatever loopback port it listens on
 * (`EMBEDDED_SANDBOX_DESTINATION`), for the Sandbox profile and for any profile pointed at its
 * address. When a profile's address changes, its token is dropped (a token is bound to its address)
 * and what it shows follows the same rule: the state at the new address. What was sent to the old
 * one stays that address's, in the history, and is shown again if the address is set back.
 */

export const EMBEDDED_SANDBOX_DESTINATION = 'embedded-sandbox'

/** One spelling per address, so "https://host/" and " https://host" are not mistaken for a move. */
export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '')
}

/** A profile as far as its destination goes. */
export type DestinationProfile = { kind: 'embedded-sandbox' } | { kind: 'service'; baseUrl: string }

/**
 * The destination of a profile. `sandboxUrl` is the embedded sandbox's address now (empty when
 * it is not running): a profile pointed at it is the embedded sandbox too.
 */
export function destinationOf(profile: DestinationProfile, sandboxUrl: string): string {
  if (profile.kind === 'embedded-sandbox') return EMBEDDED_SANDBOX_DESTINATION
  const address = normaliseBaseUrl(profile.baseUrl)
  return sandboxUrl !== '' && address === normaliseBaseUrl(sandboxUrl)
    ? EMBEDDED_SANDBOX_DESTINATION
    : address
}

/** How a destination is named where no profile names it any more: its address, or "the embedded sandbox". */
export function destinationAddressName(destination: string): string {
  return destination === EMBEDDED_SANDBOX_DESTINATION ? 'the embedded sandbox' : destination
}
