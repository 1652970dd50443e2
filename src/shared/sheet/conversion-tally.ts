import type { ConversionKind, FieldPath, RowResult } from './types.ts'

/** Cells of one field read one way (Y → yes, "52 mm" → "52"), counted over a file. */
export interface ConversionCount {
  field: FieldPath
  kind: ConversionKind
  count: number
  /** The first one, as an example: the cell as written and what it became. */
  from: string
  to: string
  /** Rows of the first few. */
  rows: number[]
}

/** A field the new-SKU template filled, on how many rows. */
export interface FilledCount {
  field: string
  count: number
}

/** Rows named with each conversion: enough to find them, not every one. */
const ROWS_NAMED = 5

/**
 * Counts how a file's cells were read and what the template filled, by field, for the app's dry
 * run and the CLI's notes alike. Bounded: one entry per field and kind.
 */
export class ConversionTally {
  private readonly conversions = new Map<string, ConversionCount>()
  private readonly filledBy = new Map<string, FilledCount>()

  add(results: readonly RowResult[]) {
    for (const result of results) {
      for (const conversion of result.conversions ?? []) {
        const key = `${conversion.field} ${conversion.kind}`
        const seen = this.conversions.get(key)
        if (!seen) this.conversions.set(key, { ...conversion, count: 1, rows: [result.row] })
        else {
          seen.count++
          if (seen.rows.length < ROWS_NAMED && seen.rows.at(-1) !== result.row) seen.rows.push(result.row)
        }
      }
      for (const field of result.filled ?? []) {
        const seen = this.filledBy.get(field)
        if (seen) seen.count++
        else this.filledBy.set(field, { field, count: 1 })
      }
    }
  }

  get counts(): ConversionCount[] {
    return [...this.conversions.values()]
  }

  get filled(): FilledCount[] {
    return [...this.filledBy.values()]
  }
}
