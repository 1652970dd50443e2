import type { Sku } from '../../../shared/schema/sku.ts'
import { validateSku } from '../../../shared/validation/validate.ts'
import { validityOf } from '../../../shared/validation/problem.ts'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord } from './records.ts'
import { searchTerms } from './search-terms.ts'

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** The derived columns of a SKU draft: recomputed from the payload on every write. */
function describe(payload: Sku) {
  const result = validateSku(payload)
  const productName = text(payload.productName)
  const brand = text(payload.brand)
  const barcode = text(payload.barcode)
  return {
    validity: validityOf(result),
    errorCount: result.errors.length,
    warningCount: result.warnings.length,
    productName,
    brand,
    barcode,
    category: text(payload.category),
    subCategory: text(payload.subCategory),
    status: text(payload.status),
    terms: searchTerms(productName, brand, barcode),
  }
}

/** Reads and writes SKU drafts. The only code that writes the `skuDrafts` table. */
export class SkuDraftRepository {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  async create(payload: Sku, now = Date.now()): Promise<SkuDraftRecord> {
    const record: SkuDraftRecord = {
      id: crypto.randomUUID(),
      payload,
      createdAt: now,
      updatedAt: now,
      syncState: 'draft',
      ...describe(payload),
    }
    await this.db.skuDrafts.add(record)
    return record
  }

  /** Replaces a draft's payload as written; fails if the draft is gone or no longer editable. */
  async savePayload(id: string, payload: Sku, now = Date.now()): Promise<SkuDraftRecord> {
    return this.db.transaction('rw', this.db.skuDrafts, async () => {
      const current = await this.db.skuDrafts.get(id)
      if (!current) throw new Error('This draft no longer exists.')
      if (current.syncState !== 'draft')
        throw new Error('This draft has been sent and can no longer be edited.')
      const next: SkuDraftRecord = { ...current, payload, updatedAt: now, ...describe(payload) }
      await this.db.skuDrafts.put(next)
      return next
    })
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

  delete(id: string): Promise<void> {
    return this.db.skuDrafts.delete(id)
  }
}
