import { join } from 'node:path'
import { messageOf } from '#shared/error-message.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import type { EmbeddedSandbox } from './handlers/types.ts'

/**
 * The token the embedded sandbox accepts. Not a secret: the sandbox is a stand-in for the service
 * on this computer, so a new user can try everything without credentials. The Sandbox profile
 * sends it by itself; a custom profile pointed at the sandbox uses it too. Not a plain word
 * either: tokens are redacted wherever they appear, and "sandbox" appears in the sandbox's messages.
 */
export const EMBEDDED_SANDBOX_TOKEN = 'sandbox-token'

export const SANDBOX_STORE_FILE_NAME = 'sandbox-received.json'

export interface StartedSandbox {
  /** The running sandbox, to close on quit; undefined when it could not start. */
  running: Sandbox | undefined
  /** What the handlers know of it: its address, or why there is none. */
  handlerView: EmbeddedSandbox
}

/**
 * Starts the app's own sandbox on a free loopback port; what it receives is kept in `dataDir`.
 * Never rejects: the app starts without its sandbox, and Settings says why.
 */
export async function startEmbeddedSandbox(dataDir: string): Promise<StartedSandbox> {
  try {
    const running = await startSandbox({
      port: 0,
      token: EMBEDDED_SANDBOX_TOKEN,
      // Profiles may be set to either encoding; the sandbox should work with both.
      tokenEncoding: 'either',
      storeFile: join(dataDir, SANDBOX_STORE_FILE_NAME),
      // The app's own file: damaged or too big, it is kept aside and never stops the app.
      unusableStore: 'set-aside',
    })
    const { url, notice } = running
    return { running, handlerView: { url, token: EMBEDDED_SANDBOX_TOKEN, ...(notice ? { notice } : {}) } }
  } catch (error) {
    console.error('The embedded sandbox could not start', error)
    return {
      running: undefined,
      handlerView: { url: '', token: EMBEDDED_SANDBOX_TOKEN, problem: messageOf(error) },
    }
  }
}
