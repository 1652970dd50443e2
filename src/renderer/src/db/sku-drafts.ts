import type { Sku } from '#shared/schema/sku.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { searchTerms } from '#shared/search-terms.ts'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord } from './records.ts'

/** A draft that has never been sent, with a new id. */
export function newDraftRecord(payload: Sku, now: number, columns = draftColumns(payload)): SkuDraftRecord {
  return {
    id: crypto.randomUUID(),
    payload,
    createdAt: now,
    updatedAt: now,
    sync: {},
    standing: [],
    ...columns,
  }
}

/**
 * Reads and writes one SKU draft at a time. With the bulk edits (sku-bulk-edits.ts) and the
 * import's writes (sku-import-writes.ts), the only code that writes drafts' content. Sync writes
 * only their standings (`sync`, `standing`: db/sync-outbox.ts, db/sync-runs.ts), without touching
 * `updatedAt`.
 */
export class SkuDraftRepository {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  async create(payload: Sku, now = Date.now()): Promise<SkuDraftRecord> {
    const record = newDraftRecord(payload, now)
    await this.db.skuDrafts.add(record)
    return record
  }

  get(id: string): Promise<SkuDraftRecord | undefined> {
    return this.db.skuDrafts.get(id)
  }

  /**
   * Deletes a draft never changed since it was made (no save since, sent nowhere): a "New SKU"
   * left as it came. Whether it was deleted. Nothing to undo: it held nothing anyone typed.
   */
  discardUntouched(id: string): Promise<boolean> {
    return this.db.transaction('rw', this.db.skuDrafts, this.db.assetChecks, async () => {
      const record = await this.db.skuDrafts.get(id)
      if (!record || record.updatedAt !== record.createdAt || Object.keys(record.sync).length > 0)
        return false
      await this.db.skuDrafts.delete(id)
      await this.db.assetChecks.delete(id)
      return true
    })
  }

  /** Most recently edited first. */
  recent(limit = 500): Promise<SkuDraftRecord[]> {
    return this.db.skuDrafts.orderBy('updatedAt').reverse().limit(limit).toArray()
  }

  count(): Promise<number> {
    return this.db.skuDrafts.count()
  }

  /** Drafts whose name, brand or barcode has a word starting with every word of `query`. */
  async search(query: string, limit = 500): Promise<SkuDraftRecord[]> {
    const words = searchTerms(query)
    if (words.length === 0) return this.recent(limit)
    const [first, ...rest] = words
    const matches = await this.db.skuDrafts.where('terms').startsWith(first!).distinct().toArray()
    return matches
      .filter((draft) => rest.every((word) => draft.terms.some((term) => term.startsWith(word))))
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, limit)
  }
}
