import type { LocalSettings } from '#shared/ipc.ts'
import type { HandlerDeps, Handlers } from './types.ts'

type LocalSettingsHandlers = Pick<Handlers, 'getLocalSettings' | 'setAllowLocalAddresses'>

/** This computer's side of the app: the local-address setting and the embedded sandbox's state. */
export function createLocalSettingsHandlers(
  deps: Pick<HandlerDeps, 'preferences' | 'sandbox'>,
): LocalSettingsHandlers {
  const settings = (): LocalSettings => {
    const { url, problem, notice } = deps.sandbox
    return {
      allowLocalAddresses: deps.preferences.current().allowLocalAddresses,
      sandbox:
        problem !== undefined
          ? { running: false, problem }
          : { running: true, url, ...(notice ? { notice } : {}) },
    }
  }
  return {
    getLocalSettings: async () => settings(),
    setAllowLocalAddresses: async (allow) => {
      await deps.preferences.update({ allowLocalAddresses: allow })
      return settings()
    },
  }
}
