import { Dexie, type EntityTable } from 'dexie'
import type { AppDraftRecord, SkuDraftRecord } from './records.ts'
import { searchTerms } from './search-terms.ts'

export const DATABASE_NAME = 'catalog-desk'

/**
 * The local store. Each schema version stays listed forever: Dexie upgrades a database from
 * whatever version a user's machine holds, running every later version's upgrade in order.
 */
export class CatalogDatabase extends Dexie {
  skuDrafts!: EntityTable<SkuDraftRecord, 'id'>
  appDrafts!: EntityTable<AppDraftRecord, 'id'>

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
  }
}
