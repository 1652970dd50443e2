import type { ImportChunkOptions, RowFate, SkuImportWrites } from '#renderer/db/sku-import-writes.ts'
import { draftColumns, type DraftColumns } from '#shared/draft-columns.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { RowResult } from '#shared/sheet/types.ts'
import type { ChunkRow, ReadProgress, RunOptions } from './import-protocol.ts'

/** SKUs converted and waiting to be written, and the rows read since the last such chunk. */
export interface Chunk {
  skus: Sku[]
  columns: DraftColumns[]
  rows: ChunkRow[]
  leftOut: number[]
  progress: ReadProgress
}

/** Chunk writes with the database at once: the next one waits there while the last commits. */
const WRITES_IN_FLIGHT = 2

/** What a run's writes need besides its rows: where they go and what the drafts held when it began. */
export interface ChunkedWritesOf {
  into: SkuImportWrites
  batch: string
  options: RunOptions
  existing: Pick<ImportChunkOptions, 'existingByBarcode' | 'existingDrafts'>
  /** Settles once the page has noted the import's batch: nothing is written before. */
  noted: Promise<void>
  signal: AbortSignal
  /** Each chunk once committed, with what became of each of its rows. */
  onWritten(chunk: Chunk, fates: RowFate[]): void
}

/**
 * An import's rows gathered into chunks and written, one transaction a chunk, while the next ones
 * are read and converted: the import worker's writing, apart from its reading (import.worker.ts).
 * A chunk is handed to the database before the one before it commits
 * (`SkuImportWrites.importChunk` plans each after the last), so the database goes from one to the
 * next without waiting for the worker's thread; a database slower than the file holds the reading
 * back, and memory stays at a few chunks. Each chunk is held until the next one fills, so the last
 * one is known and commits durably.
 */
export function chunkedWrites({ into, batch, options, existing, noted, signal, onWritten }: ChunkedWritesOf) {
  /** Writes handed to the database and not yet committed, oldest first. */
  const inFlight: Promise<void>[] = []
  const write = async (chunk: Chunk, last: boolean) => {
    await noted
    while (inFlight.length >= WRITES_IN_FLIGHT) await inFlight.shift()
    signal.throwIfAborted()
    const written = into
      .importChunk(batch, chunk.skus, {
        duplicates: options.duplicates,
        ...existing,
        columns: chunk.columns,
        reading: options.reading,
        named: chunk.rows.map((row) => row.draft),
        last,
      })
      .then(({ fates }) => onWritten(chunk, fates))
    // A failure is met when it is awaited (at the latest in `end`); until then it is not unhandled.
    written.catch(() => undefined)
    inFlight.push(written)
  }
  const empty = (progress: ReadProgress): Chunk => ({
    skus: [],
    columns: [],
    rows: [],
    leftOut: [],
    progress,
  })
  let filling = empty({ rows: 0, bytes: 0, total: 0 })
  let held: Chunk | undefined
  const filled = async (progress: ReadProgress) => {
    filling.progress = progress
    if (held) await write(held, false)
    held = filling
    filling = empty(progress)
  }

  return {
    /** A stretch of rows read: each SKU to import goes into the chunk filling, the rest are left out. */
    async add(results: RowResult[], read: ReadProgress) {
      for (const result of results) {
        if (options.includeInvalid || result.errors.length === 0) {
          filling.skus.push(result.sku)
          filling.columns.push(draftColumns(result.sku, result.checked))
          filling.rows.push({
            row: result.row,
            errors: result.errors.length,
            ...(result.draft && { draft: result.draft }),
          })
        } else filling.leftOut.push(result.row)
        if (filling.skus.length >= options.chunkSize) await filled(read)
      }
    },
    /** The file is read: the last chunks are written, the very last durably, and all committed. */
    async end(progress: ReadProgress) {
      if (filling.skus.length || filling.leftOut.length) await filled(progress)
      if (held) await write(held, true)
      while (inFlight.length) await inFlight.shift()
    },
    /** Settles once no write is under way, whether they succeeded or not. */
    settled: () => Promise.allSettled(inFlight),
  }
}
