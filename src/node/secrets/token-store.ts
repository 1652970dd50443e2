import type { TokenStorage } from '#shared/profile.ts'
import { createKeyedQueue } from '../keyed-queue.ts'
import { normaliseBaseUrl } from '../profiles/profile-rules.ts'
import { createKeyringBackend, type KeychainBackend } from './keychain-backend.ts'
import { createRedactor } from './redaction.ts'
import { normaliseToken } from './token-rules.ts'
import { messageOf } from '#shared/error-message.ts'

export type { KeychainBackend } from './keychain-backend.ts'
export { InvalidTokenError, MAX_TOKEN_LENGTH } from './token-rules.ts'

/** The name the app's entries carry in the keychain (what a person sees in Keychain Access or Seahorse). */
export const DEFAULT_KEYCHAIN_SERVICE = 'Catalog Desk'

/** Where this store keeps a token: the embedded sandbox's fixed token never comes here. */
export type TokenLocation = Exclude<TokenStorage, 'embedded-sandbox'>

export interface TokenSetResult {
  storage: TokenLocation
  /** Set when the token could not go to the keychain: what happened and what it means. */
  notice?: string
}

export interface TokenStatus {
  isSet: boolean
  storage: TokenLocation | null
}

/**
 * Why a profile has no usable token at an address: none stored, one stored by a version that did
 * not record its address ("unbound"), one set for another address, or a keychain that cannot be read.
 */
export type MissingToken = 'none' | 'unbound' | 'other-address' | 'unreadable'

export type TokenLookup =
  { found: true; token: string; storage: TokenLocation } | { found: false; missing: MissingToken }

export interface KeychainAvailability {
  keychain: boolean
  /** Why the keychain cannot be used, when it cannot. */
  reason?: string
}

/**
 * A profile's token, bound to the address it was set for: the entry holds the address beside the
 * token, and every read names the address the token is about to be sent to. A token set for another
 * address (the profile moved and the old entry could not be deleted) is never handed out.
 */
export interface TokenStore {
  /** Stores a profile's token for `address`: in the keychain, or in memory for this session when there is none. */
  set(profileId: string, address: string, token: string): Promise<TokenSetResult>
  /** The token for requests to `address`, for main's own requests only: no IPC channel may return it. */
  get(profileId: string, address: string): Promise<string | undefined>
  /** The token for `address`, or why there is none (the CLI tells a person what to do about it). */
  lookup(profileId: string, address: string): Promise<TokenLookup>
  /** Removes the token from memory and from the keychain, whatever address it was set for. */
  clear(profileId: string): Promise<void>
  has(profileId: string, address: string): Promise<TokenStatus>
  availability(): Promise<KeychainAvailability>
}

export interface TokenStoreOptions {
  /** The keychain's service name; tests use their own so they never touch a person's entries. */
  service?: string
  keychain?: KeychainBackend
}

// Read by availability() only: a name no profile id can take (ids start with a letter or digit).
const PROBE_ACCOUNT = '-availability-probe'
const MAX_REASON_LENGTH = 240

/** What went wrong with the keychain, in one line, without the token in any of its forms. */
function keychainReason(error: unknown, token?: string): string {
  const raw = messageOf(error)
  // The keychain may echo the entry, where a quote or a backslash in the token is JSON-escaped.
  const escaped = token === undefined ? undefined : JSON.stringify(token).slice(1, -1)
  const redacted = createRedactor(token)(createRedactor(escaped)(raw))
  const line = redacted.replace(/\s+/g, ' ').trim().replace(/\.+$/, '')
  const reason = line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line
  return reason || 'the keychain did not say why'
}

export function memoryNotice(reason: string): string {
  return `No system keychain is available (${reason}): the token is kept in memory until Catalog Desk closes; you will need to paste it again next time.`
}

function checkProfileId(profileId: unknown): asserts profileId is string {
  if (typeof profileId !== 'string' || profileId === '' || profileId.length > 64) {
    throw new Error('A token belongs to a profile: the profile id is missing or invalid.')
  }
}

/** The address a token is bound to, in the one spelling profiles use ("https://host", no trailing slash). */
function boundAddress(address: unknown): string {
  const normalised = typeof address === 'string' ? normaliseBaseUrl(address) : ''
  if (normalised === '' || normalised.length > 2_048) {
    throw new Error('A token is bound to the address it is sent to: the address is missing or invalid.')
  }
  return normalised
}

/** A token with the address it was set for, as kept in memory and (as JSON) in the keychain. */
interface BoundToken {
  address: string
  token: string
}

/** Marks the keychain entries that carry their address. An entry without it predates the binding. */
const ENTRY_FORMAT = 'catalog-desk-token/1'

export function keychainSecret(bound: BoundToken): string {
  return JSON.stringify({ format: ENTRY_FORMAT, address: bound.address, token: bound.token })
}

/**
 * The keychain entry read back, or undefined for an entry that does not carry its address: a bare
 * token stored before tokens were bound (or anything else). Such a token is never sent anywhere.
 */
export function parseKeychainSecret(secret: string): BoundToken | undefined {
  if (!secret.startsWith('{')) return undefined
  let entry: unknown
  try {
    entry = JSON.parse(secret)
  } catch {
    return undefined
  }
  if (typeof entry !== 'object' || entry === null) return undefined
  const { format, address, token } = entry as Record<string, unknown>
  if (format !== ENTRY_FORMAT || typeof address !== 'string' || typeof token !== 'string') return undefined
  if (address === '' || token === '') return undefined
  return { address, token }
}

/** The token when it was set for `address`; otherwise why it is not given. */
function matching(bound: BoundToken | undefined, address: string, storage: TokenLocation): TokenLookup {
  if (!bound) return { found: false, missing: 'unbound' }
  if (bound.address !== address) return { found: false, missing: 'other-address' }
  return { found: true, token: bound.token, storage }
}

export function createTokenStore(options: TokenStoreOptions = {}): TokenStore {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE
  const keychain = options.keychain ?? createKeyringBackend()
  /** Tokens the keychain refused this session. They win over the keychain: they are newer. */
  const memory = new Map<string, BoundToken>()
  /**
   * Profiles whose keychain entry should be gone but could not be deleted (the keychain was away).
   * Hidden for the session and deleted as soon as the keychain answers. The address binding alone
   * already keeps such a token from a new address; this also hides it from the same address (a
   * profile removed, then made again under the same id).
   */
  const pendingDeletes = new Set<string>()
  const serially = createKeyedQueue()

  /** True when the keychain holds no token for the profile any more (or never did). */
  async function settlePendingDelete(profileId: string): Promise<boolean> {
    if (!pendingDeletes.has(profileId)) return true
    try {
      await keychain.delete(service, profileId)
      pendingDeletes.delete(profileId)
      return true
    } catch {
      return false
    }
  }

  async function fromKeychain(profileId: string, address: string): Promise<TokenLookup> {
    if (!(await settlePendingDelete(profileId))) return { found: false, missing: 'none' }
    let secret: string | undefined
    try {
      secret = await keychain.get(service, profileId)
    } catch {
      // Unreadable now (locked, gone): as if unset. availability() says why.
      return { found: false, missing: 'unreadable' }
    }
    if (secret === undefined) return { found: false, missing: 'none' }
    return matching(parseKeychainSecret(secret), address, 'keychain')
  }

  /** Memory first (newer), then the keychain; each checked against the address the token is for. */
  async function lookup(profileId: string, address: string): Promise<TokenLookup> {
    const kept = memory.get(profileId)
    return kept ? matching(kept, address, 'memory') : fromKeychain(profileId, address)
  }

  return {
    async set(profileId, rawAddress, rawToken) {
      checkProfileId(profileId)
      const address = boundAddress(rawAddress)
      const token = normaliseToken(rawToken)
      return serially(profileId, async () => {
        try {
          await keychain.set(service, profileId, keychainSecret({ address, token }))
        } catch (error) {
          // Tried again on every set: the keychain may be back (unlocked, daemon restarted).
          memory.set(profileId, { address, token })
          return { storage: 'memory', notice: memoryNotice(keychainReason(error, token)) }
        }
        // The keychain now holds the newest token, which also replaced any entry awaiting deletion.
        memory.delete(profileId)
        pendingDeletes.delete(profileId)
        return { storage: 'keychain' }
      })
    },

    async get(profileId, rawAddress) {
      checkProfileId(profileId)
      const address = boundAddress(rawAddress)
      return serially(profileId, async () => {
        const found = await lookup(profileId, address)
        return found.found ? found.token : undefined
      })
    },

    async lookup(profileId, rawAddress) {
      checkProfileId(profileId)
      const address = boundAddress(rawAddress)
      return serially(profileId, () => lookup(profileId, address))
    },

    async clear(profileId) {
      checkProfileId(profileId)
      return serially(profileId, async () => {
        memory.delete(profileId)
        pendingDeletes.add(profileId)
        await settlePendingDelete(profileId)
      })
    },

    async has(profileId, rawAddress) {
      checkProfileId(profileId)
      const address = boundAddress(rawAddress)
      return serially(profileId, async () => {
        const found = await lookup(profileId, address)
        return found.found ? { isSet: true, storage: found.storage } : { isSet: false, storage: null }
      })
    },

    async availability() {
      // A read is enough to know the keychain answers, and leaves nothing behind.
      try {
        await keychain.get(service, PROBE_ACCOUNT)
        return { keychain: true }
      } catch (error) {
        return { keychain: false, reason: keychainReason(error) }
      }
    },
  }
}
