import { Dexie, type EntityTable, type Table } from 'dexie'
import type { AppDraftRecord, SkuDraftRecord, SkuUndoRecord } from './records.ts'
import { searchTerms } from '../../../shared/search-terms.ts'

export const DATABASE_NAME = 'catalog-desk'

/**
 * The local store. Each schema version stays listed forever: Dexie upgrades a database from
 * whatever version a user's machine holds, running every later version's upgrade in order.
 */
export class CatalogDatabase extends Dexie {
  skuDrafts!: EntityTable<SkuDraftRecord, 'id'>
  appDrafts!: EntityTable<AppDraftRecord, 'id'>
  skuUndo!: Table<SkuUndoRecord, [batch: string, id: string]>

  constructor(name = DATABASE_NAME) {
    super(name)
    this.version(1).stores({
      skuDrafts: 'id, updatedAt, productName, brand, barcode, category, status, validity, syncState',
      appDrafts: 'id, updatedAt, name, syncState',
    })
    // v2: word search over name, brand and barcode, and filtering by sub-category.
    this.version(2)
      .stores({
        skuDrafts:
          'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, syncState, *terms',
      })
      .upgrade((tx) =>
        tx
          .table<SkuDraftRecord, string>('skuDrafts')
          .toCollection()
          .modify((draft) => {
            draft.subCategory = typeof draft.payload.subCategory === 'string' ? draft.payload.subCategory : ''
            draft.terms = searchTerms(draft.productName, draft.brand, draft.barcode)
          }),
      )
    // v3: what the last bulk action changed, so it can be undone exactly. Kept in the database
    // rather than in memory: the drafts a 100,000-draft delete removed weigh ~185 MB as objects.
    // A new, empty table: there is nothing of older versions to carry over.
    this.version(3).stores({ skuUndo: '[batch+id], batch' })
  }
}
