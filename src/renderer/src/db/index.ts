import { AssetChecks } from './asset-checks.ts'
import { db } from './connection.ts'
import { SkuBulkEdits } from './sku-bulk-edits.ts'
import { SkuDraftRepository } from './sku-drafts.ts'
import { SkuImportWrites } from './sku-import-writes.ts'
import { SkuListReader } from './sku-list-reader.ts'
import { SyncReconciler } from './sync-reconcile.ts'
import { SyncRunRepository } from './sync-runs.ts'
import { SyncSelectionReader } from './sync-selection.ts'
import { SkuUndoLog } from './sku-undo-log.ts'
import { SkuSendGates } from './sku-send-gates.ts'
import { SkuValueCounts } from './sku-value-counts.ts'

export { db }
export const assetChecks = new AssetChecks(db)
export const skuDrafts = new SkuDraftRepository(db)
/** The undo history of bulk actions and imports, which both write through it. */
export const skuUndo = new SkuUndoLog(db)
export const skuBulkEdits = new SkuBulkEdits(db, skuUndo)
export const skuImports = new SkuImportWrites(db, skuUndo)
export const skuList = new SkuListReader(db)
/** How many drafts hold each category, brand…: the list's "Did you mean…?". */
export const skuValueCounts = new SkuValueCounts(db)
/** The app's sync runs, beside its drafts, in the same database. */
export const syncRuns = new SyncRunRepository(db)
/** Reads about chosen drafts at destinations: a selection's pre-flight, promotions, what changed since sent. */
export const syncSelection = new SyncSelectionReader(db)
/** Which SKUs a run would hold back, and why (the gates before sending). */
export const sendGates = new SkuSendGates(db)
/** The SKU drafts undecided at a destination, checked against a list of what the platform has. */
export const syncReconcile = new SyncReconciler(db)
