import type { PageActivity, UpdateSettings, UpdateStatus } from '#shared/ipc.ts'

/** Settings › Updates, kept by main: the updater's state, a check, the settings, "Restart to update". */
export const updatesInMain = {
  status: (): Promise<UpdateStatus> => window.api.getUpdateStatus(),
  /** Resolves once the feed has answered (an update found then downloads: ask `status` for its progress). */
  check: (): Promise<UpdateStatus> => window.api.checkForUpdates(),
  settings: (settings: UpdateSettings): Promise<UpdateStatus> => window.api.setUpdateSettings(settings),
  /** Quits and installs; main refuses while a sync run or an import is under way. */
  install: (): Promise<void> => window.api.installUpdate(),
  /** What the page is doing that an update must not cut short. */
  reportActivity: (activity: PageActivity): Promise<void> => window.api.reportActivity(activity),
}
