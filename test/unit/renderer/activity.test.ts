import 'fake-indexeddb/auto'
import { createPinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { nextTick } from 'vue'
import type { PageActivity } from '#shared/ipc.ts'

// What the page tells main about its sync runs and imports (main installs no update meanwhile).
const reported: PageActivity[] = []
Object.assign(globalThis, {
  window: {
    addEventListener: () => {},
    api: {
      reportActivity: async (activity: PageActivity) => {
        reported.push(activity)
      },
    },
  },
})

const { reportActivityToMain } = await import('#renderer/stores/activity.ts')
const { useSyncStore } = await import('#renderer/stores/sync.ts')
const { useSkuImportStore } = await import('#renderer/stores/sku-import.ts')

describe('reportActivityToMain', () => {
  it('says "idle" at start, then each change of a sync run or an import, and nothing else', async () => {
    const pinia = createPinia()
    reportActivityToMain(pinia)
    expect(reported).toEqual([{ sync: false, import: false }])

    const sync = useSyncStore(pinia)
    sync.busy = true
    await nextTick()
    // Still under way (now sending rather than being queued): not said again.
    sync.busy = false
    sync.live = { endedAt: undefined } as never
    await nextTick()
    const imports = useSkuImportStore(pinia)
    let finish = () => {}
    const running = imports.whileRunning(() => new Promise<void>((resolve) => (finish = resolve)))
    await nextTick()
    sync.live = { endedAt: 1 } as never
    await nextTick()
    finish()
    await running
    await nextTick()
    expect(reported).toEqual([
      { sync: false, import: false },
      { sync: true, import: false },
      { sync: true, import: true },
      { sync: false, import: true },
      { sync: false, import: false },
    ])
  })
})
