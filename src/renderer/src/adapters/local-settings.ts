import type { LocalSettings } from '#shared/ipc.ts'
import { forgetPreviewFailures } from './preview-assets.ts'

/** This computer's side of the app, kept by main: "Allow local addresses" and the embedded sandbox. */
export const localSettingsInMain = {
  get: (): Promise<LocalSettings> => window.api.getLocalSettings(),
  /** Failures kept from before are forgotten, so each picture and model is asked for again. */
  allowLocalAddresses: async (allow: boolean): Promise<LocalSettings> => {
    const settings = await window.api.setAllowLocalAddresses(allow)
    forgetPreviewFailures()
    return settings
  },
}
