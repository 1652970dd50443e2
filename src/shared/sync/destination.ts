import { isLoopbackAddress } from '../http-address.ts'
import type { TokenStorage } from '../profile.ts'

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
 *
 * What differs between the kinds of destination a profile leads to (the embedded sandbox, a
 * service at an address of the profile's own) is said once, in `DESTINATION_KINDS`: main, the CLI
 * and the page ask a profile's entry instead of asking which kind it is. A new kind of destination
 * (a team workspace's shared records, say) is one more profile kind and one more entry here, plus
 * its screens.
 */

export const EMBEDDED_SANDBOX_DESTINATION = 'embedded-sandbox'

/**
 * Whether drafts naming sample addresses (the template's, src/shared/sample-assets.ts) may go to
 * `destination`: only the built-in Sandbox takes them (the send gates hold them back elsewhere).
 */
export function takesSamples(destination: string): boolean {
  return destination === EMBEDDED_SANDBOX_DESTINATION
}

/** One spelling per address, so "https://host/" and " https://host" are not mistaken for a move. */
export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '')
}

/** A profile as far as its destination goes. */
export type DestinationProfile = { kind: 'embedded-sandbox' } | { kind: 'service'; baseUrl: string }

/** The kinds of profile, each leading to one kind of destination. */
export type DestinationKindName = DestinationProfile['kind']

/** The embedded sandbox as a destination needs it: where it listens now ('' when not), or why not. */
export interface LocalSandbox {
  url: string
  problem?: string
}

export interface DestinationKind<P extends DestinationProfile = DestinationProfile> {
  readonly kind: P['kind']
  /**
   * Identity: the destination the profile's drafts stand at. `sandboxUrl` is the embedded
   * sandbox's address now (empty when it is not running): a profile pointed at it is the sandbox too.
   */
  destination(profile: P, sandboxUrl: string): string
  /** Where its requests go now: its own address, or the embedded sandbox's today. */
  address(profile: P, sandbox: LocalSandbox): string
  /** The address the person gives it (and may edit), when it has one of its own. */
  ownAddress(profile: P): string | undefined
  /** What a token set for it is bound to (src/node/secrets/token-store.ts). */
  tokenAddress(profile: P): string
  /**
   * Whether the person sets its token. Else main holds it (the embedded sandbox's, which is not a
   * secret) and says where as `tokenStorage`.
   */
  readonly ownToken: boolean
  readonly tokenStorage?: TokenStorage
  /** Why nothing can be sent to it now, or undefined when it may be tried. */
  unavailable(sandbox: LocalSandbox): string | undefined
  /**
   * Offline behaviour: whether sending there needs the network. A destination on this computer
   * (the embedded sandbox, a loopback address) is sent to while the computer is offline; a run to
   * any other is paused by the page while it is offline (`needsNetwork` below).
   */
  needsNetwork(profile: P): boolean
  /** The profile as it is stored: its address in one spelling. */
  normalise(profile: P): P
  /** The fields its profile holds besides the ones every profile has. */
  ownFields(profile: P): Omit<P, 'kind'> | Record<string, never>
  /**
   * How its address moves: `edit` (the person's, in Settings; a custom profile pointed at the
   * embedded sandbox's old port is moved with it, src/node/profiles/address-move.ts) or `sandbox`
   * (it follows the embedded sandbox's port by itself).
   */
  readonly addressMoves: 'edit' | 'sandbox'
  /** Whether a profile the person adds may lead to it (only the built-in Sandbox uses the embedded one). */
  readonly customProfiles: boolean
  /**
   * For a kind that is one place whatever its address: that destination, and how it is named where
   * no profile names it (any other destination is named by its address).
   */
  readonly place?: { readonly destination: string; readonly name: string }
  readonly words: {
    /** Why a built-in profile of this kind keeps it. */
    builtInKeeps(profileName: string): string
    /** Why a profile the person adds cannot be of this kind. */
    readonly notCustom?: string
    /** Why a token cannot be set for it. */
    readonly noToken?: string
    /** After the active profile's name on the SKU list. */
    readonly listNote: string
    /** Said before a sync to it, so a first sync there is not taken for the real one. */
    readonly syncNote?: string
    /** Said in the profile list instead of whether a token is set. */
    readonly tokenLine?: string
    /** Why the CLI cannot push with a profile of this kind, when it cannot. */
    cliRefusal?(profileName: string): string
  }
}

type Variant<K extends DestinationKindName> = Extract<DestinationProfile, { kind: K }>

const EMBEDDED_SANDBOX: DestinationKind<Variant<'embedded-sandbox'>> = {
  kind: 'embedded-sandbox',
  destination: () => EMBEDDED_SANDBOX_DESTINATION,
  address: (_profile, sandbox) => sandbox.url,
  ownAddress: () => undefined,
  tokenAddress: () => EMBEDDED_SANDBOX_DESTINATION,
  ownToken: false,
  tokenStorage: 'embedded-sandbox',
  unavailable: (sandbox) =>
    sandbox.problem === undefined
      ? undefined
      : `The embedded sandbox is not running (${sandbox.problem}); Settings says more.`,
  needsNetwork: () => false,
  normalise: (profile) => profile,
  ownFields: () => ({}),
  addressMoves: 'sandbox',
  customProfiles: false,
  place: { destination: EMBEDDED_SANDBOX_DESTINATION, name: 'the embedded sandbox' },
  words: {
    builtInKeeps: (name) => `The ${name} profile always uses the sandbox built into Catalog Desk.`,
    notCustom: 'Only the built-in Sandbox profile uses the sandbox built into Catalog Desk.',
    noToken: 'The embedded sandbox needs no token.',
    listNote: ', the sandbox built into this app: you can try everything, syncing included, without a token.',
    syncNote:
      'Sandbox: a service on this computer that behaves like the platform; nothing reaches the real platform.',
    tokenLine: 'No token needed',
    cliRefusal: (name) =>
      `The ${name} profile is the sandbox inside the app, which has no fixed address: run "catalog-desk sandbox" and push to it with --base-url and --token-env.`,
  },
}

const SERVICE: DestinationKind<Variant<'service'>> = {
  kind: 'service',
  destination: (profile, sandboxUrl) => {
    const address = normaliseBaseUrl(profile.baseUrl)
    return sandboxUrl !== '' && address === normaliseBaseUrl(sandboxUrl)
      ? EMBEDDED_SANDBOX_DESTINATION
      : address
  },
  address: (profile) => profile.baseUrl,
  ownAddress: (profile) => profile.baseUrl,
  tokenAddress: (profile) => normaliseBaseUrl(profile.baseUrl),
  ownToken: true,
  unavailable: () => undefined,
  needsNetwork: (profile) => !isLoopbackAddress(profile.baseUrl),
  normalise: (profile) => ({ ...profile, baseUrl: normaliseBaseUrl(profile.baseUrl) }),
  ownFields: (profile) => ({ baseUrl: profile.baseUrl }),
  addressMoves: 'edit',
  customProfiles: true,
  words: {
    builtInKeeps: (name) => `The ${name} profile is built in and always sends to a service address.`,
    listNote: '.',
  },
}

export const DESTINATION_KINDS: { readonly [K in DestinationKindName]: DestinationKind<Variant<K>> } = {
  'embedded-sandbox': EMBEDDED_SANDBOX,
  service: SERVICE,
}

/** The entry of a profile's kind of destination, taking the profile as it is (a stored one, a view). */
export function destinationKindOf<P extends DestinationProfile>(profile: P): DestinationKind<P> {
  return DESTINATION_KINDS[profile.kind] as unknown as DestinationKind<P>
}

/** Whether the profile has an address of its own (the person's to edit): narrows it to such a profile. */
export function hasOwnAddress<P extends DestinationProfile>(
  profile: P,
): profile is Extract<P, { baseUrl: string }> {
  return destinationKindOf(profile).ownAddress(profile) !== undefined
}

/** Whether sending with the profile needs the network (see `DestinationKind.needsNetwork`). */
export function needsNetwork(profile: DestinationProfile): boolean {
  return destinationKindOf(profile).needsNetwork(profile)
}

/** The destination of a profile (see `DestinationKind.destination`). */
export function destinationOf(profile: DestinationProfile, sandboxUrl: string): string {
  return destinationKindOf(profile).destination(profile, sandboxUrl)
}

/** How a destination is named where no profile names it any more: its address, or its kind's name. */
export function destinationAddressName(destination: string): string {
  const places = Object.values(DESTINATION_KINDS).map((entry) => entry.place)
  return places.find((place) => place?.destination === destination)?.name ?? destination
}
