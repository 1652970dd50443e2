import type { ImportCounts } from '#renderer/db/sku-import-writes.ts'
import { count, drafts } from '#renderer/words/counting.ts'
import type { WrittenChunk } from './import-protocol.ts'

/** Rows listed for each kind of row to look at: enough to act on, bounded over a large file. */
export const ROWS_LISTED = 1_000

/** A row of the file to look at after the import, and the draft it concerns (if any). */
export interface ListedRow {
  row: number
  draft?: string
}

/** Rows of one kind: the first {@link ROWS_LISTED}, and how many there are. */
export interface ListedRows {
  count: number
  rows: ListedRow[]
}

/** What an import did, named by rows: what the page says once it is done. */
export interface ImportResult extends ImportCounts {
  batch: string
  /** Rows not imported because they have errors (the person chose to leave them out). */
  leftOut: ListedRows
  /** Rows skipped because their barcode was taken, each with the draft holding it. */
  duplicates: ListedRows
  /** Rows whose barcode belongs to a sent draft, left as it is. */
  notDrafts: ListedRows
  /** Rows imported although they have errors: drafts to fix in the app. */
  withErrors: ListedRows
  /** The draft of each row the dry run found problems on: the grouped problems link to them. */
  drafts: ReadonlyMap<number, string>
}

const listed = (): ListedRows => ({ count: 0, rows: [] })

function list(into: ListedRows, row: ListedRow) {
  into.count++
  if (into.rows.length < ROWS_LISTED) into.rows.push(row)
}

/**
 * Adds up an import chunk by chunk, by row. Memory is bounded: the counts, the listed rows, and a
 * draft for each row of `problemRows` (the rows the dry run's groups name).
 */
export class ImportResultTally {
  private readonly counts: ImportCounts = {
    created: 0,
    updated: 0,
    unchanged: 0,
    skippedDuplicates: 0,
    skippedNotDraft: 0,
  }
  private readonly leftOut = listed()
  private readonly duplicates = listed()
  private readonly notDrafts = listed()
  private readonly withErrors = listed()
  private readonly drafts = new Map<number, string>()
  private readonly problemRows: ReadonlySet<number>

  constructor(problemRows: ReadonlySet<number>) {
    this.problemRows = problemRows
  }

  add(chunk: Pick<WrittenChunk, 'rows' | 'leftOut' | 'fates'>) {
    const { fates } = chunk
    for (const row of chunk.leftOut) list(this.leftOut, { row })
    fates.forEach((fate, i) => {
      const { row, errors } = chunk.rows[i]!
      this.counts[fate.kind]++
      if (fate.kind === 'skippedDuplicates') list(this.duplicates, { row, draft: fate.draft })
      else if (fate.kind === 'skippedNotDraft') list(this.notDrafts, { row, draft: fate.draft })
      else {
        if (errors > 0 && fate.kind !== 'unchanged') list(this.withErrors, { row, draft: fate.draft })
        if (this.problemRows.has(row)) this.drafts.set(row, fate.draft)
      }
    })
  }

  result(batch: string): ImportResult {
    return {
      batch,
      ...this.counts,
      leftOut: this.leftOut,
      duplicates: this.duplicates,
      notDrafts: this.notDrafts,
      withErrors: this.withErrors,
      drafts: this.drafts,
    }
  }
}

/** "295 drafts imported, 3 updated, 200 unchanged": the result's first words, on the page and in the list's snackbar. */
export function importHeadline(outcome: ImportCounts): string {
  const updated = outcome.updated ? `, ${count(outcome.updated)} updated` : ''
  const unchanged = outcome.unchanged ? `, ${count(outcome.unchanged)} unchanged` : ''
  return `${drafts(outcome.created)} imported${updated}${unchanged}`
}
