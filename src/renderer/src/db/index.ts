import { CatalogDatabase } from './database.ts'
import { SkuDraftRepository } from './sku-drafts.ts'
import { SkuListReader } from './sku-list-reader.ts'
import { SyncRunRepository } from './sync-runs.ts'

/** The app's one database, opened lazily by Dexie on first use. */
export const db = new CatalogDatabase()
export const skuDrafts = new SkuDraftRepository(db)
export const skuList = new SkuListReader(db)
/** The app's sync runs, beside its drafts, in the same database. */
export const syncRuns = new SyncRunRepository(db)
