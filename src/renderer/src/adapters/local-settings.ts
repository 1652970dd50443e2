import type { AssetBudgets } from '#shared/asset-checks/budgets.ts'
import type { LocalSettings } from '#shared/ipc.ts'
import { forgetPreviewFailures } from './preview-assets.ts'
import { forgetThumbnailRefusals } from './thumbnails.ts'

/**
 * This computer's side of the app, kept by main: "Allow local addresses", the asset budgets and the
 * embedded sandbox.
 */
export const localSettingsInMain = {
  get: (): Promise<LocalSettings> => window.api.getLocalSettings(),
  /**
   * Failures kept from before are forgotten, so each picture and model is asked for again: at once,
   * for a page opened before main has answered (it writes the setting to disk first, which a busy
   * disk makes slow), and once it has, for what was refused in between.
   */
  allowLocalAddresses: async (allow: boolean): Promise<LocalSettings> => {
    const forget = () => {
      forgetPreviewFailures()
      forgetThumbnailRefusals()
    }
    const answer = window.api.setAllowLocalAddresses(allow)
    forget()
    const settings = await answer
    forget()
    return settings
  },
  /** What the next "Check assets" judges by (main reads them again and refuses budgets it cannot use). */
  assetBudgets: (budgets: AssetBudgets): Promise<LocalSettings> => window.api.setAssetBudgets(budgets),
}
