import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import { assetRefs } from '#shared/asset-checks/asset-refs.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { checkAssets } from '#renderer/adapters/asset-checks.ts'
import { assetChecks, db } from '#renderer/db/index.ts'
import type { AssetCheckRecord } from '#renderer/db/records.ts'
import { AssetCheckRequests, checkDraftAssets, type AssetCheckTally } from './asset-check-run.ts'
import type { Progress } from './sku-drafts.ts'

/** "Check assets": drafts' models and pictures checked by main, the last check kept per draft. */
export const useAssetChecksStore = defineStore('asset-checks', () => {
  /** A check of many drafts under way, for the list's progress bar (with Cancel). */
  const progress = shallowRef<Progress>()
  let stopping: AbortController | undefined

  /** Checks the assets `payload` names now, and keeps what was found as the draft's last check. */
  async function checkDraft(draftId: string, payload: Sku): Promise<AssetCheckRecord> {
    const refs = assetRefs(payload)
    const checks = await new AssetCheckRequests(checkAssets).of(refs)
    return assetChecks.save({ draftId, refs, checks })
  }

  /**
   * Checks the assets of these drafts, keeping each one's check as it is done; one run at a time.
   * Rejects when main could not be asked (what was kept by then stays).
   */
  async function checkDrafts(ids: readonly string[]): Promise<AssetCheckTally> {
    if (stopping) throw new Error('a check of assets is already under way')
    const controller = new AbortController()
    stopping = controller
    const label = 'Checking assets'
    try {
      return await checkDraftAssets(
        ids,
        {
          read: (chunk) => db.skuDrafts.bulkGet([...chunk]),
          check: checkAssets,
          save: (checks) => assetChecks.saveMany(checks),
        },
        {
          signal: controller.signal,
          onProgress: (done, total) => {
            progress.value = { label, done, total, stop: controller.signal.aborted ? 'stopping' : 'offered' }
          },
        },
      )
    } finally {
      stopping = undefined
      progress.value = undefined
    }
  }

  /** Stops the check under way after the files being read now; what was checked is kept. */
  function stop() {
    if (!stopping || !progress.value) return
    stopping.abort()
    progress.value = { ...progress.value, stop: 'stopping' }
  }

  return {
    progress,
    checkDraft,
    checkDrafts,
    stop,
    lastCheck: (draftId: string) => assetChecks.of(draftId),
  }
})
