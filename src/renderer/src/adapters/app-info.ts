import { shallowRef } from 'vue'
import type { AppInfo } from '#shared/ipc.ts'

const info = shallowRef<AppInfo>()
let requested = false

/** The app's name and versions from the main process, asked once and shared. */
export function useAppInfo() {
  if (!requested) {
    requested = true
    void window.api.getAppInfo().then((value) => (info.value = value))
  }
  return info
}
