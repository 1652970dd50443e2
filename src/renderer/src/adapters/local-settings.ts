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
  /** Failures kept from before are forgotten, so each picture and model is asked for again. */
  allowLocalAddresses: async (allow: boolean): Promise<LocalSettings> => {
    const settings = await window.api.setAllowLocalAddresses(allow)
    forgetPreviewFailures()
    forgetThumbnailRefusals()
    return settings
  },
  /** What the next "Check assets" judges by (main reads them again and refuses budgets it cannot use). */
  assetBudgets: (budgets: AssetBudgets): Promise<LocalSettings> => window.api.setAssetBudgets(budgets),
}
