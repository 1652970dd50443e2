import type { Pinia } from 'pinia'
import { computed, watch } from 'vue'
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
  const activity = computed(() => ({ sync: sync.busy || sync.sending, import: imports.running }))
  watch(
    activity,
    (now, before) => {
      if (before && now.sync === before.sync && now.import === before.import) return
      // Said again at the next change; main keeps holding the install back meanwhile if it heard "busy".
      updatesInMain.reportActivity(now).catch(() => {})
    },
    { immediate: true },
  )
}
