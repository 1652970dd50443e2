import { setTimeout as sleep } from 'node:timers/promises'
import type { KeychainBackend } from '#node/secrets/token-store.ts'

type Operation = 'get' | 'set' | 'delete'

/** A keychain in a Map that can be switched off, as a locked or absent Secret Service would be. */
export function createFakeKeychain() {
  const entries = new Map<string, string>()
  const state = {
    failure: undefined as string | undefined,
    calls: [] as string[],
    delays: {} as Partial<Record<Operation, number>>,
  }
  const key = (service: string, account: string) => `${service}\u0000${account}`

  async function check(operation: Operation, account: string) {
    state.calls.push(`${operation} ${account}`)
    const delay = state.delays[operation]
    if (delay) await sleep(delay)
    if (state.failure !== undefined) throw new Error(state.failure)
  }

  const backend: KeychainBackend = {
    async get(service, account) {
      await check('get', account)
      return entries.get(key(service, account))
    },
    async set(service, account, secret) {
      await check('set', account)
      entries.set(key(service, account), secret)
    },
    async delete(service, account) {
      await check('delete', account)
      entries.delete(key(service, account))
    },
  }

  return {
    backend,
    entries,
    calls: state.calls,
    /** From now on every call fails with this message, as the real library does without a keychain. */
    fail(message = "Couldn't access platform storage: AccessDenied") {
      state.failure = message
    },
    /** Makes an operation take this long, as a real keychain over D-Bus does. */
    slow(operation: Operation, ms: number) {
      state.delays[operation] = ms
    },
    recover() {
      state.failure = undefined
    },
    stored: (service: string, account: string) => entries.get(key(service, account)),
    /** Writes an entry behind the store's back (as an earlier version, or another program, left it). */
    put: (service: string, account: string, secret: string) => entries.set(key(service, account), secret),
  }
}
