import { defineStore } from 'pinia'
import type { ContentReading } from '#shared/payload-fingerprint.ts'
import { skuImports } from '../db/index.ts'
import type { DraftByBarcode, RowFingerprint } from '../db/sku-import-writes.ts'
import type { UndoResult } from '../db/sku-undo-log.ts'

/**
 * The import's reads before it runs, and its rollback. An import is one undo batch, begun and
 * written a chunk at a time by the import worker (src/renderer/src/db/import-connection.ts), then
 * kept (so the whole import can be undone) or rolled back from here. The flow around it (the
 * file, the worker, the steps) is the import page's.
 */
export const useSkuImportStore = defineStore('skuImport', () => {
  /** The drafts that already hold these barcodes: what a duplicate policy decides about. */
  function draftsByBarcode(barcodes: Iterable<string>): Promise<Map<string, DraftByBarcode>> {
    return skuImports.findByBarcodes(barcodes)
  }

  /** Whether each of the file's rows would change nothing under "update" (its draft holds its content). */
  function unchangedRows(rows: readonly RowFingerprint[], reading: ContentReading): Promise<boolean[]> {
    return skuImports.unchangedRows(rows, reading)
  }

  /** Every barcode a draft holds: the dry run fingerprints only rows that could update one. */
  function heldBarcodes(): Promise<string[]> {
    return skuImports.heldBarcodes()
  }

  /** Rolls back everything the import wrote: the drafts are as they were before it. */
  function abort(batch: string): Promise<UndoResult> {
    return skuImports.abortImport(batch)
  }

  return { draftsByBarcode, heldBarcodes, unchangedRows, abort }
})
