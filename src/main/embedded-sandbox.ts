import { join } from 'node:path'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'

/**
 * The token the embedded sandbox accepts. Not a secret: the sandbox is a stand-in for the service
 * on this computer, so a new user can try everything without credentials. The Sandbox profile
 * sends it by itself; a custom profile pointed at the sandbox uses it too. Not a plain word
 * either: tokens are redacted wherever they appear, and "sandbox" appears in the sandbox's messages.
 */
export const EMBEDDED_SANDBOX_TOKEN = 'sandbox-token'

/** Starts the app's own sandbox on a free loopback port; what it receives is kept in `dataDir`. */
export function startEmbeddedSandbox(dataDir: string): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    token: EMBEDDED_SANDBOX_TOKEN,
    // Profiles may be set to either encoding; the sandbox should work with both.
    tokenEncoding: 'either',
    storeFile: join(dataDir, 'sandbox-received.json'),
  })
}
