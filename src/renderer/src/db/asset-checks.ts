import type { AssetRef } from '#shared/asset-checks/asset-refs.ts'
import type { AssetCheck, AssetStatus } from '#shared/asset-checks/results.ts'
import type { CatalogDatabase } from './database.ts'
import type { AssetCheckRecord } from './records.ts'

const WORST: readonly AssetStatus[] = ['error', 'warning', 'ok']

/** What "Check assets" found, by draft: the last check of each, kept until the next. */
export class AssetChecks {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  of(draftId: string): Promise<AssetCheckRecord | undefined> {
    return this.db.assetChecks.get(draftId)
  }

  /** Keeps a draft's check: `checks` are the answers for `refs`, in the same order. */
  async save(
    draftId: string,
    refs: readonly AssetRef[],
    checks: readonly AssetCheck[],
    checkedAt = Date.now(),
  ) {
    const assets = refs.map((ref, at) => ({ ...checks[at]!, field: ref.field }))
    const status = WORST.find((worst) => assets.some((asset) => asset.status === worst)) ?? 'ok'
    const record: AssetCheckRecord = { id: draftId, checkedAt, status, assets }
    await this.db.assetChecks.put(record)
    return record
  }
}
