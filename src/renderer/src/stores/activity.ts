import type { Pinia } from 'pinia'
import { watch } from 'vue'
import { updatesInMain } from '../adapters/updates.ts'
import { useSkuImportStore } from './sku-import.ts'
import { useSyncStore } from './sync.ts'

/**
 * Tells main whether a sync run (being queued or sent) or an import is under way, each time that
 * changes and once at start (a page reloaded mid-run starts idle), so main never installs an
 * update then: neither "Restart to update" nor the install at quit.
 */
export function reportActivityToMain(pinia: Pinia): void {
  const sync = useSyncStore(pinia)
  const imports = useSkuImportStore(pinia)
  // Two sources: the watcher runs only when one of the two answers changes.
  watch(
    [() => sync.busy || sync.sending, () => imports.running],
    ([busy, importing]) => {
      // Said again at the next change; main keeps holding the install back meanwhile if it heard "busy".
      updatesInMain.reportActivity({ sync: busy, import: importing }).catch(() => {})
    },
    { immediate: true },
  )
}
