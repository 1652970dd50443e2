import type { LocalSettings } from '#shared/ipc.ts'
import type { HandlerDeps, Handlers } from './types.ts'

type LocalSettingsHandlers = Pick<Handlers, 'getLocalSettings' | 'setAllowLocalAddresses' | 'setAssetBudgets'>

/**
 * This computer's side of the app: the local-address setting, the asset budgets (read by "Check
 * assets" at each call, so a change counts from the next check) and the embedded sandbox's state.
 */
export function createLocalSettingsHandlers(
  deps: Pick<HandlerDeps, 'preferences' | 'sandbox'>,
): LocalSettingsHandlers {
  const settings = (): LocalSettings => {
    const { url, problem, notice } = deps.sandbox
    const { allowLocalAddresses, assetBudgets } = deps.preferences.current()
    return {
      allowLocalAddresses,
      assetBudgets,
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
    // The argument was read by validateBudgets in the dispatcher (ipc-arguments.ts).
    setAssetBudgets: async (budgets) => {
      await deps.preferences.update({ assetBudgets: budgets })
      return settings()
    },
  }
}
