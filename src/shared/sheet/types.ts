import type { Sku } from '../schema/sku.ts'

/**
 * Spreadsheets in and out: the words shared by the importer (renderer worker), the exporter and the
 * CLI. A sheet is a header row and data rows of text cells, whatever file it came from.
 */

/** A dotted contract path with list positions as numbers: `arEffect.effectAssets3D.0.url`. */
export type FieldPath = string

/** How one column of a file was matched to a field, so the mapping screen can say why. */
export interface ColumnMatch {
  /** 0-based position of the column in the file. */
  column: number
  header: string
  /** The field the column fills, or null when it is ignored. */
  path: FieldPath | null
  /** `path`: the header is a contract path; `title`/`synonym`: matched by the catalogue's words; `saved`: from a saved mapping. */
  by: 'path' | 'title' | 'synonym' | 'saved' | 'none'
}

/** The field each column fills, by column position (null: ignored). Saved and reused by header. */
export type ColumnMapping = (FieldPath | null)[]

/** A problem with one cell, as the error report lists it. */
export interface CellProblem {
  /** 1-based data row (the first row under the header is 1). */
  row: number
  /** The column's header as written in the file ('' for a problem with the whole row). */
  column: string
  value: string
  message: string
}

/** One data row turned into a SKU payload, with its problems. */
export interface RowResult {
  row: number
  sku: Sku
  errors: CellProblem[]
  warnings: CellProblem[]
}
