import type { Sku } from '#shared/schema/sku.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { searchPrefixes, searchTerms, termsMatch } from '#shared/search-terms.ts'
import { EMPTY_GAP } from '#shared/sync/send-gates.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import type { CatalogDatabase } from './database.ts'
import { DraftRepository, unsentDraft } from './draft-repository.ts'
import { storedKind } from './stored-kinds.ts'
import type { SkuDraftRecord } from './records.ts'

/** A SKU draft that has never been sent, with a new id. */
export function newDraftRecord(payload: Sku, now: number, columns = draftColumns(payload)): SkuDraftRecord {
  return unsentDraft(payload, now, columns)
}

/**
 * Reads and writes one SKU draft at a time. With the bulk edits (sku-bulk-edits.ts) and the
 * import's writes (sku-import-writes.ts), the only code that writes drafts' content. Sync writes
 * only their standings (`sync`, `standing`: db/sync-outbox.ts, db/sync-runs.ts), without touching
 * `updatedAt`.
 */
export class SkuDraftRepository extends DraftRepository<SkuDraftRecord> {
  constructor(db: CatalogDatabase) {
    // A discarded draft's asset check goes with it (the kind's `beside` tables).
    super(db, db.skuDrafts, storedKind('skus').beside(db))
  }

  /** A draft made by "New SKU", marked so (`isUntouchedNew`): left untouched, it is discarded. */
  create(payload: Sku, now = systemClock.now()): Promise<SkuDraftRecord> {
    return this.add({ ...newDraftRecord(payload, now), untouchedNew: true })
  }

  /**
   * A new draft is empty (nothing filled in beyond what a new draft starts with), and empty drafts
   * are few: found on the `gaps` index.
   */
  protected mayBeUntouchedNew(): Promise<SkuDraftRecord[]> {
    return this.db.skuDrafts.where('gaps').equals(EMPTY_GAP).toArray()
  }

  /** Most recently edited first. */
  recent(limit = 500): Promise<SkuDraftRecord[]> {
    return this.db.skuDrafts.orderBy('updatedAt').reverse().limit(limit).toArray()
  }

  count(): Promise<number> {
    return this.db.skuDrafts.count()
  }

  /**
   * Drafts whose name, brand or barcode has a word starting with every word of `query`, or whose
   * barcode holds it (`searchPrefixes`).
   */
  async search(query: string, limit = 500): Promise<SkuDraftRecord[]> {
    const words = searchTerms(query)
    if (words.length === 0) return this.recent(limit)
    const [first, ...rest] = words
    const matches = await this.db.skuDrafts
      .where('terms')
      .startsWithAnyOf(searchPrefixes(first!))
      .distinct()
      .toArray()
    return matches
      .filter((draft) => termsMatch(draft.terms, rest))
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, limit)
  }
}
