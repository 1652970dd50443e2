import { defineStore } from 'pinia'
import { assetRefs } from '#shared/asset-checks/asset-refs.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { checkAssets } from '#renderer/adapters/asset-checks.ts'
import { assetChecks } from '#renderer/db/index.ts'
import type { AssetCheckRecord } from '#renderer/db/records.ts'

/** "Check assets": a draft's models and pictures checked by main, the last check kept per draft. */
export const useAssetChecksStore = defineStore('asset-checks', () => {
  /** Checks the assets `payload` names now, and keeps what was found as the draft's last check. */
  async function checkDraft(draftId: string, payload: Sku): Promise<AssetCheckRecord> {
    const refs = assetRefs(payload)
    const checks = refs.length ? await checkAssets(refs) : []
    return assetChecks.save(draftId, refs, checks)
  }

  return { checkDraft, lastCheck: (draftId: string) => assetChecks.of(draftId) }
})
