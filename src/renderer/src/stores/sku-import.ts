import { defineStore } from 'pinia'
import { ref } from 'vue'
import { skuImports } from '../db/index.ts'
import type { UndoResult } from '../db/sku-undo-log.ts'

/**
 * An import's rollback. An import is one undo batch, begun and written a chunk at a time by the
 * import worker, which also reads what its dry run needs from the drafts
 * (src/renderer/src/db/import-connection.ts); it is then kept (so the whole import can be undone)
 * or rolled back from here. The flow around it (the file, the worker, the steps) is the import
 * page's.
 */
export const useSkuImportStore = defineStore('skuImport', () => {
  /** An import is writing drafts (or rolling them back): main installs no update meanwhile. */
  const running = ref(false)

  /** Rolls back everything the import wrote: the drafts are as they were before it. */
  function abort(batch: string): Promise<UndoResult> {
    return skuImports.abortImport(batch)
  }

  /** Runs an import (writing it, and rolling it back when it fails), with `running` true meanwhile. */
  async function whileRunning<T>(work: () => Promise<T>): Promise<T> {
    running.value = true
    try {
      return await work()
    } finally {
      running.value = false
    }
  }

  return { running, abort, whileRunning }
})
