/**
 * The OS keychain as the token store needs it. Any rejection means "the keychain cannot be used
 * right now" (no Secret Service, locked, access denied); the token store then keeps tokens in memory.
 */
export interface KeychainBackend {
  /** The stored secret, or undefined when there is none. */
  get(service: string, account: string): Promise<string | undefined>
  set(service: string, account: string, secret: string): Promise<void>
  /** Resolves whether or not there was a secret to delete. */
  delete(service: string, account: string): Promise<void>
}

type Keyring = typeof import('@napi-rs/keyring')

let keyring: Promise<Keyring> | undefined

// Loaded on first use: a platform without a prebuilt binary then becomes "no keychain" (memory, with
// a notice) instead of a main process that cannot start.
function loadKeyring(): Promise<Keyring> {
  keyring ??= import('@napi-rs/keyring')
  return keyring
}

async function entry(service: string, account: string) {
  const { AsyncEntry } = await loadKeyring()
  // On Linux, the Secret Service only. The library would otherwise fall back to the kernel keyring,
  // which forgets everything at logout: we would report "keychain" for a token that does not last.
  // Without a Secret Service the constructor throws, which the token store reports as "no keychain".
  return new AsyncEntry(service, account, { linux: { store: 'secret-service' } })
}

/** The OS keychain through `@napi-rs/keyring` (Keychain on macOS, Credential Manager, Secret Service). */
export function createKeyringBackend(): KeychainBackend {
  return {
    async get(service, account) {
      const secret = await (await entry(service, account)).getPassword()
      return secret ?? undefined
    },
    async set(service, account, secret) {
      await (await entry(service, account)).setPassword(secret)
    },
    async delete(service, account) {
      await (await entry(service, account)).deletePassword()
    },
  }
}
