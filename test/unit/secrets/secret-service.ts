import { AsyncEntry } from '@napi-rs/keyring'

export const RUN_WITH_KEYCHAIN = '.ci/with-keychain.sh npx vitest run test/unit/secrets'

/** An entry in the real Secret Service, read and written behind the token store's back. */
export function rawEntry(service: string, account: string): AsyncEntry {
  return new AsyncEntry(service, account, { linux: { store: 'secret-service' } })
}

/**
 * Whether a Secret Service can really be used here: a D-Bus session, and a throwaway entry that can
 * be written and deleted (a daemon may be on the bus yet locked or broken).
 */
export async function probeSecretService(
  service: string,
): Promise<{ usable: true } | { usable: false; reason: string }> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    return { usable: false, reason: 'there is no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)' }
  }
  try {
    const entry = rawEntry(service, 'probe')
    await entry.setPassword('probe')
    await entry.deletePassword()
    return { usable: true }
  } catch (error) {
    return { usable: false, reason: `the Secret Service did not work: ${(error as Error).message}` }
  }
}

/** Deletes the entries a test run may have left under its service name. */
export async function deleteEntries(service: string, accounts: Iterable<string>): Promise<void> {
  for (const account of accounts) await rawEntry(service, account).deletePassword()
}
