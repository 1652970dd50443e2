import type { HandlerDeps, Handlers } from './types.ts'

type UpdateHandlers = Pick<
  Handlers,
  'getUpdateStatus' | 'checkForUpdates' | 'setUpdateSettings' | 'installUpdate' | 'reportActivity'
>

/**
 * Settings › Updates, over the update service: its state, a check asked for, the settings, "Restart
 * to update", and what the page is doing (a sync run or an import), which holds any install back.
 */
export function createUpdateHandlers(deps: Pick<HandlerDeps, 'updates'>): UpdateHandlers {
  return {
    getUpdateStatus: async () => deps.updates.status(),
    checkForUpdates: () => deps.updates.check('asked'),
    // The address was read by the contract's schema (ipc-arguments.ts): https, or http to this computer.
    // A new one is kept only once the person confirms it in main's own dialog (the service asks).
    setUpdateSettings: (settings) => deps.updates.setSettings(settings),
    installUpdate: async () => deps.updates.install(),
    reportActivity: async (activity) => deps.updates.setActivity(activity),
  }
}
