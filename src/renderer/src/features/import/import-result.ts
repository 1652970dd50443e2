import type { ImportCounts } from '#renderer/db/sku-import-writes.ts'
import { count, drafts } from '#renderer/words/counting.ts'
import type { DestinationCount, WrittenChunk } from './import-protocol.ts'

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
  /** Rows skipped because they name a draft you have (the app's own export), each with it. */
  ownDrafts: ListedRows
  /** Rows whose draft a sync run held (queued or being sent), left as it is. */
  inRun: ListedRows
  /**
   * For each destination, the drafts created there that the import updated and that are now
   * changed since sent: the Sync page offers them as updates there.
   */
  changedAt: DestinationCount[]
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
    skippedDrafts: 0,
    skippedInRun: 0,
  }
  private readonly leftOut = listed()
  private readonly duplicates = listed()
  private readonly ownDrafts = listed()
  private readonly inRun = listed()
  /** The drafts changed since sent, by destination: a draft once however many rows updated it. */
  private readonly changed = new Map<string, Set<string>>()
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
      else if (fate.kind === 'skippedDrafts') list(this.ownDrafts, { row, draft: fate.draft })
      else if (fate.kind === 'skippedInRun') list(this.inRun, { row, draft: fate.draft })
      else {
        for (const destination of fate.changedAt ?? [])
          this.changed.set(destination, (this.changed.get(destination) ?? new Set()).add(fate.draft))
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
      ownDrafts: this.ownDrafts,
      inRun: this.inRun,
      changedAt: [...this.changed].map(([destination, drafts]) => ({ destination, n: drafts.size })),
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

/**
 * Drafts created at a destination that "Update existing" changes, said before the import ("12
 * drafts sent to Sandbox will change: the Sync page will offer them as updates.") or after it.
 */
export function sentDraftsChange(n: number, place: string, when: 'will' | 'did'): string {
  return when === 'will'
    ? `${drafts(n)} sent to ${place} will change: the Sync page will offer ${n === 1 ? 'it as an update' : 'them as updates'}.`
    : `${drafts(n)} sent to ${place} changed: the Sync page offers ${n === 1 ? 'it as an update' : 'them as updates'}.`
}
