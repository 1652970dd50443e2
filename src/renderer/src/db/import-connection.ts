import { CatalogDatabase, DATABASE_NAME } from './database.ts'
import { SkuImportWrites } from './sku-import-writes.ts'
import { SkuUndoLog } from './sku-undo-log.ts'

/**
 * The import worker's own way into the app's database: the same database, opened from the
 * worker's thread, so storing 100,000 drafts never blocks the window (serialising a record for
 * IndexedDB happens on the thread that writes it).
 *
 * Two connections. The chunks commit through a relaxed one: the operating system has the data when
 * a chunk's transaction completes, and a power cut may lose the last ones. That is safe because
 * an import is rolled back as a whole until it ends (interrupted-import.ts), and the undo entries
 * of a chunk commit in its own transaction, so a lost chunk takes its entries with it. The import's
 * last chunk (which makes it undoable in the history) commits through a strict one: when the
 * import says done, everything it wrote is on disk (IndexedDB's log is written in order, so a
 * flushed commit carries the relaxed ones before it).
 */
export function openImportWrites(): SkuImportWrites {
  const relaxed = new CatalogDatabase(DATABASE_NAME, { chromeTransactionDurability: 'relaxed' })
  const strict = new CatalogDatabase(DATABASE_NAME, { chromeTransactionDurability: 'strict' })
  return new SkuImportWrites(relaxed, new SkuUndoLog(strict), strict)
}
