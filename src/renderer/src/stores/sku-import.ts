import { defineStore } from 'pinia'
import type { Sku } from '#shared/schema/sku.ts'
import type { ContentReading } from '#shared/payload-fingerprint.ts'
import { skuImports } from '../db/index.ts'
import type {
  DraftByBarcode,
  ImportChunkOptions,
  ImportChunkResult,
  RowFingerprint,
} from '../db/sku-import-writes.ts'
import type { UndoResult } from '../db/sku-undo-log.ts'

/**
 * The import's writes. An import is one undo batch: begun, written a chunk at a time as the
 * worker hands rows over, then finished (kept, so the whole import can be undone) or aborted
 * (rolled back). The flow around it (the file, the worker, the steps) is the import page's.
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

  /** Which of the drafts an export's rows name still exist. */
  function existingDrafts(ids: Iterable<string>): Promise<Set<string>> {
    return skuImports.existingDrafts(ids)
  }

  /** Starts an import: the batch its chunks are written, and undone, under. */
  function begin(): Promise<string> {
    return skuImports.beginImport()
  }

  function writeChunk(
    batch: string,
    skus: readonly Sku[],
    options: ImportChunkOptions,
  ): Promise<ImportChunkResult> {
    return skuImports.importChunk(batch, skus, options)
  }

  function finish(batch: string): void {
    skuImports.finishImport(batch)
  }

  /** Rolls back everything the import wrote: the drafts are as they were before it. */
  function abort(batch: string): Promise<UndoResult> {
    return skuImports.abortImport(batch)
  }

  return { draftsByBarcode, heldBarcodes, unchangedRows, existingDrafts, begin, writeChunk, finish, abort }
})
