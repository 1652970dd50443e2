import type { TokenStorage } from '../../shared/profile.ts'
import { createKeyedQueue } from '../keyed-queue.ts'
import { createKeyringBackend, type KeychainBackend } from './keychain-backend.ts'
import { createRedactor } from './redaction.ts'
import { normaliseToken } from './token-rules.ts'

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

export interface KeychainAvailability {
  keychain: boolean
  /** Why the keychain cannot be used, when it cannot. */
  reason?: string
}

export interface TokenStore {
  /** Stores a profile's token: in the keychain, or in memory for this session when there is none. */
  set(profileId: string, token: string): Promise<TokenSetResult>
  /** The token, for main's own requests only: no IPC channel may return it. */
  get(profileId: string): Promise<string | undefined>
  /** Removes the token from memory and from the keychain. */
  clear(profileId: string): Promise<void>
  has(profileId: string): Promise<TokenStatus>
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
  const raw = error instanceof Error ? error.message : String(error)
  const line = createRedactor(token)(raw).replace(/\s+/g, ' ').trim().replace(/\.+$/, '')
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

export function createTokenStore(options: TokenStoreOptions = {}): TokenStore {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE
  const keychain = options.keychain ?? createKeyringBackend()
  /** Tokens the keychain refused this session. They win over the keychain: they are newer. */
  const memory = new Map<string, string>()
  /**
   * Profiles whose keychain entry should be gone but could not be deleted (the keychain was away).
   * Hidden for the session and deleted as soon as the keychain answers, so a token cleared because
   * its profile's address changed is never sent to the new address.
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

  async function fromKeychain(profileId: string): Promise<string | undefined> {
    if (!(await settlePendingDelete(profileId))) return undefined
    try {
      return await keychain.get(service, profileId)
    } catch {
      // Unreadable now (locked, gone): as if unset. availability() says why.
      return undefined
    }
  }

  return {
    async set(profileId, rawToken) {
      checkProfileId(profileId)
      const token = normaliseToken(rawToken)
      return serially(profileId, async () => {
        try {
          await keychain.set(service, profileId, token)
        } catch (error) {
          // Tried again on every set: the keychain may be back (unlocked, daemon restarted).
          memory.set(profileId, token)
          return { storage: 'memory', notice: memoryNotice(keychainReason(error, token)) }
        }
        // The keychain now holds the newest token, which also replaced any entry awaiting deletion.
        memory.delete(profileId)
        pendingDeletes.delete(profileId)
        return { storage: 'keychain' }
      })
    },

    async get(profileId) {
      checkProfileId(profileId)
      return serially(profileId, async () => memory.get(profileId) ?? (await fromKeychain(profileId)))
    },

    async clear(profileId) {
      checkProfileId(profileId)
      return serially(profileId, async () => {
        memory.delete(profileId)
        pendingDeletes.add(profileId)
        await settlePendingDelete(profileId)
      })
    },

    async has(profileId) {
      checkProfileId(profileId)
      return serially(profileId, async () => {
        if (memory.has(profileId)) return { isSet: true, storage: 'memory' }
        return (await fromKeychain(profileId)) === undefined
          ? { isSet: false, storage: null }
          : { isSet: true, storage: 'keychain' }
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
