import type { AssetRef } from '#shared/asset-checks/asset-refs.ts'
import type { AssetCheck, AssetStatus } from '#shared/asset-checks/results.ts'
import type { CatalogDatabase } from './database.ts'
import type { AssetCheckRecord } from './records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

const WORST: readonly AssetStatus[] = ['error', 'warning', 'ok']

/** One draft's check to keep: `checks` are the answers for `refs`, in the same order. */
export interface DraftCheck {
  draftId: string
  refs: readonly AssetRef[]
  checks: readonly AssetCheck[]
}

/** What "Check assets" found, by draft: the last check of each, kept until the next. */
export class AssetChecks {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  of(draftId: string): Promise<AssetCheckRecord | undefined> {
    return this.db.assetChecks.get(draftId)
  }

  /** Keeps a draft's check. */
  async save(check: DraftCheck, checkedAt = systemClock.now()): Promise<AssetCheckRecord> {
    const [record] = await this.saveMany([check], checkedAt)
    return record!
  }

  /** Keeps several drafts' checks in one write (a step of a check of many drafts). */
  async saveMany(checks: readonly DraftCheck[], checkedAt = systemClock.now()): Promise<AssetCheckRecord[]> {
    const records = checks.map(({ draftId, refs, checks: answers }): AssetCheckRecord => {
      const assets = refs.map((ref, at) => ({ ...answers[at]!, field: ref.field }))
      const status = WORST.find((worst) => assets.some((asset) => asset.status === worst)) ?? 'ok'
      return { id: draftId, checkedAt, status, assets }
    })
    await this.db.assetChecks.bulkPut(records)
    return records
  }

  /** The drafts whose last check's worst status is one of `statuses`, from the index alone. */
  idsWith(statuses: readonly AssetStatus[]): Promise<string[]> {
    return this.db.assetChecks.where('status').anyOf(statuses).primaryKeys()
  }

  /** Every draft checked at least once. */
  checkedIds(): Promise<string[]> {
    return this.db.assetChecks.toCollection().primaryKeys()
  }

  /** The last checks whose worst status is `status`, whole (a few, for the sync's pre-flight). */
  withStatus(status: AssetStatus): Promise<AssetCheckRecord[]> {
    return this.db.assetChecks.where('status').equals(status).toArray()
  }
}
