import type { Sku } from '#shared/schema/sku.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { searchPrefixes, searchTerms, termsMatch } from '#shared/search-terms.ts'
import { EMPTY_GAP } from '#shared/sync/send-gates.ts'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord } from './records.ts'
import { isUntouchedNew, sweepEach } from './untouched-new.ts'

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

  /** A draft made by "New SKU", marked so (`isUntouchedNew`): left untouched, it is discarded. */
  async create(payload: Sku, now = Date.now()): Promise<SkuDraftRecord> {
    const record: SkuDraftRecord = { ...newDraftRecord(payload, now), untouchedNew: true }
    await this.db.skuDrafts.add(record)
    return record
  }

  /**
   * Deletes a draft made by "New SKU" and left untouched (`isUntouchedNew`), with its asset check;
   * whether it was deleted. Nothing to undo: it held nothing anyone typed.
   */
  discardUntouchedNew(id: string): Promise<boolean> {
    return this.db.transaction('rw', this.db.skuDrafts, this.db.assetChecks, async () => {
      const record = await this.db.skuDrafts.get(id)
      if (!record || !isUntouchedNew(record)) return false
      await this.db.skuDrafts.delete(id)
      await this.db.assetChecks.delete(id)
      return true
    })
  }

  /**
   * Deletes every untouched new draft that `free` lets go (it keeps those an editor holds open),
   * but `keep`; how many. Found on the `gaps` index: a new draft is empty (nothing filled in
   * beyond what a new draft starts with), and empty drafts are few.
   */
  async sweepUntouchedNew(
    free: (id: string, work: () => Promise<boolean>) => Promise<boolean>,
    keep?: string,
  ): Promise<number> {
    const empty = await this.db.skuDrafts.where('gaps').equals(EMPTY_GAP).toArray()
    const ids = empty.filter((draft) => draft.id !== keep && isUntouchedNew(draft)).map((draft) => draft.id)
    return sweepEach(ids, (id) => this.discardUntouchedNew(id), free)
  }

  get(id: string): Promise<SkuDraftRecord | undefined> {
    return this.db.skuDrafts.get(id)
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
