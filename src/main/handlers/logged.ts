import type { ProfilesState } from '#shared/ipc.ts'
import { serviceOperation } from '#shared/service/operations.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import type { AppLog } from '#node/app-log.ts'
import type { Handlers } from './types.ts'

/** Text the page gave (a name, a destination) on one line: it never forges a line of the log. */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ')

const profileWords = (state: ProfilesState, id: string) => {
  const profile = state.profiles.find((candidate) => candidate.id === id)
  return oneLine(profile ? `"${profile.name}" [${id}] at ${profile.url || '(no address)'}` : `[${id}]`)
}

const outcomeWords = (outcome: Outcome) =>
  `${outcome.kind}${outcome.status === undefined ? '' : ` (HTTP ${outcome.status})`} in ${outcome.durationMs} ms`

/** A request's outcome: a success in one line, anything else with what the person was told. */
function logOutcome(log: AppLog, what: string, outcome: Outcome) {
  if (outcome.kind === 'created') log.info(`${what}: ${outcomeWords(outcome)}.`)
  else log.warn(`${what}: ${outcomeWords(outcome)}: ${outcome.message}`)
}

/**
 * The handlers, with what matters written to main's log: profile changes and switches, tokens set
 * or cleared (never the token: its place only), connection tests and each request a sync run sent,
 * with its outcome. A handler that throws is logged by the dispatcher (ipc-dispatch.ts).
 */
export function logged(handlers: Handlers, log: AppLog): Handlers {
  return {
    ...handlers,
    saveProfile: async (profile) => {
      const state = await handlers.saveProfile(profile)
      log.info(`Profile saved: ${profileWords(state, profile.id)}.`)
      return state
    },
    removeProfile: async (id) => {
      const state = await handlers.removeProfile(id)
      log.info(`Profile removed: [${id}].`)
      return state
    },
    activateProfile: async (id) => {
      const state = await handlers.activateProfile(id)
      log.info(`Active profile: ${profileWords(state, state.activeId)}.`)
      return state
    },
    setToken: async (id, token) => {
      const saved = await handlers.setToken(id, token)
      log.info(`Token set for [${id}], kept in ${saved.storage === 'keychain' ? 'the keychain' : 'memory'}.`)
      return saved
    },
    clearToken: async (id) => {
      await handlers.clearToken(id)
      log.info(`Token removed for [${id}].`)
    },
    testConnection: async (id, encoding) => {
      const test = await handlers.testConnection(id, encoding)
      const words = `Connection test of [${id}]${encoding ? ` (token ${encoding})` : ''} at ${test.url || '(no address)'}: ${test.kind}${test.status === undefined ? '' : ` (HTTP ${test.status})`}`
      if (test.ok) log.info(`${words}.`)
      else log.warn(`${words}: ${test.message}`)
      return test
    },
    syncSend: async (profileId, destination, request, requestId) => {
      const outcome = await handlers.syncSend(profileId, destination, request, requestId)
      const what = serviceOperation(request.operation).logWords(request.argument)
      logOutcome(log, `Sync: ${what} ${oneLine(destination)} with [${profileId}]`, outcome)
      return outcome
    },
    addFacePhoto: async (name, bytes) => {
      const photo = await handlers.addFacePhoto(name, bytes)
      log.info(`Face photo added: [${photo.id}], ${photo.type}, ${photo.bytes} bytes.`)
      return photo
    },
    deleteFacePhoto: async (id) => {
      await handlers.deleteFacePhoto(id)
      log.info(`Face photo deleted: [${id}].`)
    },
    allowCameraOnce: async () => {
      await handlers.allowCameraOnce()
      log.info('Camera: the person turned it on for the try-on; the next request of the app page is allowed.')
    },
  }
}
