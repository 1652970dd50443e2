import { join } from 'node:path'
import { messageOf } from '#shared/error-message.ts'
import { SANDBOX_TOKEN } from '#shared/sandbox-token.ts'
import { moveProfileAddress, type AddressMove } from '#node/profiles/address-move.ts'
import type { ProfileStore } from '#node/profiles/profile-store.ts'
import { startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import type { TokenStore } from '#node/secrets/token-store.ts'
import type { EmbeddedSandbox } from './handlers/types.ts'
import { readSandboxPort, rememberSandboxPort } from './sandbox-port.ts'

/**
 * The token the embedded sandbox accepts. Not a secret: the sandbox is a stand-in for the service
 * on this computer, so a new user can try everything without credentials. The Sandbox profile
 * sends it by itself; a custom profile pointed at the sandbox uses it too. Printed as it is:
 * it is one of the public tokens redaction leaves alone (shared/sandbox-token.ts).
 */
export const EMBEDDED_SANDBOX_TOKEN = SANDBOX_TOKEN

export const SANDBOX_STORE_FILE_NAME = 'sandbox-received.json'

export interface StartedSandbox {
  /** The running sandbox, to close on quit; undefined when it could not start. */
  running: Sandbox | undefined
  /** What the handlers know of it: its address, or why there is none. */
  handlerView: EmbeddedSandbox
  /**
   * The port it listened on at the last start, when it could not have it again (another program
   * took it): profiles pointed at the old address are to follow it (`moveProfilesToSandbox`).
   */
  previousPort?: number
}

/** The sandbox's address on `port`, in each spelling a profile may use for it. */
function sandboxAddresses(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`]
}

/**
 * Starts the app's own sandbox on the loopback port it had last time, or on a free one the first
 * time and when that port is taken; the port is kept in `dataDir`, and so is what it receives.
 * A stable address matters: profiles point at it, and tokens are bound to it.
 * Never rejects: the app starts without its sandbox, and Settings says why.
 */
export async function startEmbeddedSandbox(dataDir: string): Promise<StartedSandbox> {
  const remembered = await readSandboxPort(dataDir)
  try {
    const running = await startSandbox({
      port: remembered ?? 0,
      unavailablePort: 'free-port',
      token: EMBEDDED_SANDBOX_TOKEN,
      // Profiles may be set to either encoding; the sandbox should work with both.
      tokenEncoding: 'either',
      storeFile: join(dataDir, SANDBOX_STORE_FILE_NAME),
      // The app's own file: damaged or too big, it is kept aside and never stops the app.
      unusableStore: 'set-aside',
    })
    const notices = running.notice ? [running.notice] : []
    if (running.port !== remembered) {
      try {
        await rememberSandboxPort(dataDir, running.port)
      } catch (error) {
        console.error("The embedded sandbox's port could not be kept", error)
        notices.push(
          `The sandbox's port could not be kept for the next start (${messageOf(error)}): its address may change then.`,
        )
      }
    }
    const notice = notices.join(' ')
    return {
      running,
      handlerView: { url: running.url, token: EMBEDDED_SANDBOX_TOKEN, ...(notice ? { notice } : {}) },
      ...(remembered !== undefined && remembered !== running.port ? { previousPort: remembered } : {}),
    }
  } catch (error) {
    console.error('The embedded sandbox could not start', error)
    return {
      running: undefined,
      handlerView: { url: '', token: EMBEDDED_SANDBOX_TOKEN, problem: messageOf(error) },
    }
  }
}

/**
 * After a start on a new port: moves the custom profiles that pointed at the sandbox's old address
 * to its new one, tokens included, and returns the handlers' view of the sandbox with a notice
 * saying what moved and what could not. Never rejects: a profile left behind only needs its
 * address set again in Settings, which is no reason to keep the app from starting.
 */
export async function moveProfilesToSandbox(
  started: StartedSandbox,
  deps: { profiles: ProfileStore; tokens: TokenStore },
): Promise<EmbeddedSandbox> {
  const { running, handlerView, previousPort } = started
  if (!running || previousPort === undefined) return handlerView
  const from = sandboxAddresses(previousPort)
  let notice: string
  try {
    const move = await moveProfileAddress({ ...deps, from, to: running.url })
    notice = moveNotice(move, previousPort, running.url)
  } catch (error) {
    console.error('The profiles pointed at the embedded sandbox could not be moved', error)
    notice = `The sandbox could not listen on port ${previousPort} again and now listens at ${running.url}; the profiles could not be checked for its old address (${messageOf(error)}): set any that point at ${from.join(' or ')} to the new address.`
  }
  if (notice === '') return handlerView
  return { ...handlerView, notice: [handlerView.notice, notice].filter(Boolean).join(' ') }
}

/** What Settings says about a move; nothing when no custom profile pointed at the old address. */
function moveNotice(move: AddressMove, previousPort: number, url: string): string {
  if (move.moved.length === 0 && move.left.length === 0) return ''
  const sentences = [`The sandbox could not listen on port ${previousPort} again and now listens at ${url}.`]
  if (move.moved.length > 0) {
    const names = move.moved.map((profile) => `"${profile.name}"`).join(', ')
    sentences.push(
      move.moved.length === 1
        ? `The profile ${names} was moved there.`
        : `The profiles ${names} were moved there.`,
    )
  }
  for (const { profile, reason } of move.left) {
    sentences.push(
      `The profile "${profile.name}" still points at ${profile.baseUrl} (${reason}): set it to the new address in Settings.`,
    )
  }
  return [...sentences, ...move.notices].join(' ')
}
