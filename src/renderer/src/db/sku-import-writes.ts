import { textOf } from '#shared/text-of.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { draftColumns, type DraftColumns } from '#shared/draft-columns.ts'
import { changedSinceAt, isLive, standingTag, wasSent } from '#shared/sync/standing.ts'
import { contentText, payloadFingerprint, type ContentReading } from '#shared/payload-fingerprint.ts'
import { chunks } from './chunks.ts'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord, SkuUndoRecord } from './records.ts'
import { newDraftRecord } from './sku-drafts.ts'
import { withoutRefusals } from './stored-kinds.ts'
import { CREATED_ENTRY, type BulkOptions, type SkuUndoLog, type UndoResult } from './sku-undo-log.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * What an imported row whose barcode is already taken does: leave the draft holding it ('skip'),
 * replace that draft's payload ('update'; the last row of a file wins), or add a draft anyway.
 * 'update' follows the editor's rule (`saveDraftPayload`): a draft sent before is updated too, and
 * becomes "changed since sent" where it was created; only a draft a sync run holds is left alone.
 */
export type DuplicatePolicy = 'skip' | 'update' | 'keep-both'

/** A draft found by barcode: which one an import would update. */
export interface DraftByBarcode {
  id: string
}

export interface ImportChunkOptions {
  duplicates: DuplicatePolicy
  /** The drafts holding each barcode before the import began (`findByBarcodes`). */
  existingByBarcode: ReadonlyMap<string, { id: string }>
  /** The time written as `createdAt`/`updatedAt`. */
  now?: number
  /**
   * Each SKU's derived columns, when the caller computed them already (the import worker does, off
   * the main thread); computed here otherwise. Same order as the SKUs.
   */
  columns?: readonly DraftColumns[]
  /** How a row is compared with its draft for "unchanged" (a sheet's cells, or JSON exactly). */
  reading?: ContentReading
  /** The draft each SKU's row names (the app's own export), same order as the SKUs. */
  named?: readonly (string | undefined)[]
  /** Of the drafts rows name, those that existed when the import began (`existingDrafts`). */
  existingDrafts?: ReadonlySet<string>
  /**
   * The import's last chunk: committed through the strict connection, when there is one (see
   * the constructor), so that once it resolves everything the import wrote is on disk.
   */
  last?: boolean
}

/** How many rows of an import did what. */
export interface ImportCounts {
  created: number
  /** Rows that replaced the payload of a draft (one that existed, or one an earlier row made). */
  updated: number
  /** Rows under 'update' whose draft already held exactly their payload: nothing was written. */
  unchanged: number
  /** Rows left out under 'skip' because their barcode was taken. */
  skippedDuplicates: number
  /** Rows left out under 'skip' because they name a draft you have (the app's own export). */
  skippedDrafts: number
  /**
   * Rows under 'update' whose draft a sync run holds (queued or being sent): what is read for
   * sending must not change, so it is left as it is, as the editor leaves it.
   */
  skippedInRun: number
}

/** Counts of an import before its first row. */
export function noRows(): ImportCounts {
  return { created: 0, updated: 0, unchanged: 0, skippedDuplicates: 0, skippedDrafts: 0, skippedInRun: 0 }
}

/** What became of one row, and the draft it concerns: the one written, or the one holding its barcode. */
export interface RowFate {
  kind: keyof ImportCounts
  draft: string
  /**
   * For a row that updated a draft sent before: the destinations where it is now "changed since
   * sent" (`changedSinceAt`), so the Sync page offers it as an update there.
   */
  changedAt?: string[]
}

/** What one chunk of an import did: the counts, and each row's fate in the chunk's order. */
export interface ImportChunkResult extends ImportCounts {
  fates: RowFate[]
}

/**
 * A row of a file by its content: the draft it names (the app's own export, its barcode beside it
 * when it has one) or else its barcode, the fingerprint of what it would write
 * (src/shared/payload-fingerprint.ts), and whether it is valid (rows with errors are imported only
 * on request).
 */
export interface RowFingerprint {
  draft?: string
  barcode?: string
  /** As the import compares the row with its draft (its `ContentReading`). */
  fingerprint: string
  /**
   * Exactly, as "changed since sent" compares a draft with what stands where it was created:
   * only for a row that may update a draft created somewhere (`syncedKeys`), and read as a sheet
   * (JSON is compared exactly anyway, `fingerprint`).
   */
  exact?: string
  valid: boolean
}

/** What "update" would do with a row (`planUpdates`), before anything is written. */
export interface RowPlan {
  /** Its draft already holds its content: nothing would be written. */
  unchanged: boolean
  /** A sync run holds its draft: it would be left as it is (`skippedInRun`). */
  inRun: boolean
  /** The draft it would update, if any. */
  draft?: string
  /** Where that draft, updated, would be "changed since sent": offered as an update there. */
  changedAt: string[]
}

/** What an import under way remembers between its chunks. */
interface ImportSession {
  /** The file's name, for the undo history's words. */
  source?: string
  /** The barcodes written so far, to the draft holding each. */
  byBarcode: Map<string, string>
  /** The drafts it created. */
  created: Set<string>
  /**
   * The last chunk handed over has decided what it writes (each row's fate, the barcodes it
   * claims): the next one plans only then. So a chunk may be handed over before the one before it
   * commits, and the database goes from one to the next without waiting for the thread that hands
   * them over; they commit in turn (IndexedDB runs read-write transactions on the same tables in
   * the order they were made).
   */
  planned: Promise<void>
}

/**
 * Which of two drafts sharing a barcode an import updates: one no run holds (a held one would be
 * left as it is), then one sent nowhere (the one being worked on, not the record of what was
 * created), then the latest edited.
 */
function preferred(a: SkuDraftRecord, b: SkuDraftRecord): boolean {
  const rank = (record: SkuDraftRecord) => (isLive(record.sync) ? 0 : wasSent(record.sync) ? 1 : 2)
  return rank(a) !== rank(b) ? rank(a) > rank(b) : a.updatedAt > b.updatedAt
}

/**
 * An import's writes: chunk after chunk, each one transaction, logged under one undo batch so the
 * whole import can be rolled back (cancel, failure, a crash) or undone afterwards.
 */
export class SkuImportWrites {
  private readonly db: CatalogDatabase
  private readonly undoLog: SkuUndoLog
  private readonly strict: CatalogDatabase
  /** Imports under way, by undo batch. */
  private readonly imports = new Map<string, ImportSession>()

  /**
   * `strict`: the same database through a connection whose transactions are durable, for an
   * import's last chunk, when `db`'s are relaxed (the import worker's, import-connection.ts).
   */
  constructor(db: CatalogDatabase, undoLog: SkuUndoLog, strict: CatalogDatabase = db) {
    this.db = db
    this.undoLog = undoLog
    this.strict = strict
  }

  /**
   * The draft holding each barcode, for an import's duplicate check. Where several drafts share a
   * barcode, an editable one is preferred, then the most recently edited.
   */
  async findByBarcodes(barcodes: Iterable<string>): Promise<Map<string, DraftByBarcode>> {
    const wanted = [...new Set(barcodes)].filter((barcode) => barcode !== '')
    const found = new Map<string, SkuDraftRecord>()
    for (const chunk of chunks(wanted)) {
      for (const record of await this.db.skuDrafts.where('barcode').anyOf(chunk).toArray()) {
        const held = found.get(record.barcode)
        if (!held || preferred(record, held)) found.set(record.barcode, record)
      }
    }
    return new Map([...found].map(([barcode, record]) => [barcode, { id: record.id }]))
  }

  /**
   * Of these product names, those a draft without a barcode has (which no row can be matched to).
   * From the indexes alone: the drafts without a barcode first, none of them on most imports.
   */
  async namesWithoutBarcode(names: Iterable<string>): Promise<Set<string>> {
    const found = new Set<string>()
    const barcodeless = new Set(await this.db.skuDrafts.where('barcode').equals('').primaryKeys())
    if (barcodeless.size === 0) return found
    for (const chunk of chunks([...new Set(names)].filter((name) => name !== '')))
      await this.db.skuDrafts
        .where('productName')
        .anyOf(chunk)
        .eachKey((name, cursor) => {
          if (typeof name === 'string' && barcodeless.has(cursor.primaryKey)) found.add(name)
        })
    return found
  }

  /** Every barcode a draft holds, from the index alone. */
  async heldBarcodes(): Promise<string[]> {
    return (await this.db.skuDrafts.orderBy('barcode').uniqueKeys()).filter(
      (key): key is string => typeof key === 'string' && key !== '',
    )
  }

  /** Which of these drafts exist: a row of the app's export updates the draft it names only if it does. */
  async existingDrafts(ids: Iterable<string>): Promise<Set<string>> {
    const wanted = [...new Set(ids)]
    const found = new Set<string>()
    for (const chunk of chunks(wanted))
      for (const key of await this.db.skuDrafts.where('id').anyOf(chunk).primaryKeys()) found.add(key)
    return found
  }

  /**
   * The drafts created somewhere (synced at a destination), by id and by barcode, from the indexes
   * alone: the rows a dry run fingerprints exactly too, to say where they would be changed since
   * sent. At 100,000 drafts none is read whole.
   */
  async syncedKeys(): Promise<{ ids: Set<string>; barcodes: Set<string> }> {
    const synced = standingTag('', 'synced')
    const tags = (await this.db.skuDrafts.orderBy('standing').uniqueKeys()).filter(
      (key): key is string => typeof key === 'string' && key.endsWith(synced),
    )
    const ids = new Set(
      tags.length ? await this.db.skuDrafts.where('standing').anyOf(tags).primaryKeys() : [],
    )
    const barcodes = new Set<string>()
    if (ids.size > 0)
      await this.db.skuDrafts.orderBy('barcode').eachKey((key, cursor) => {
        if (typeof key === 'string' && key !== '' && ids.has(cursor.primaryKey)) barcodes.add(key)
      })
    return { ids, barcodes }
  }

  /**
   * What "update" would do with each row, as `importChunk` decides it: the draft it would update
   * (the one it names, else the one holding its barcode, see `findByBarcodes`), whether that draft
   * already holds its content, whether a run holds it, and where it would be changed since sent.
   */
  async planUpdates(rows: readonly RowFingerprint[], reading: ContentReading): Promise<RowPlan[]> {
    const named = await this.existingDrafts(rows.flatMap((row) => (row.draft ? [row.draft] : [])))
    const byBarcode = await this.findByBarcodes(
      rows.flatMap((row) => (row.barcode && !(row.draft && named.has(row.draft)) ? [row.barcode] : [])),
    )
    const target = rows.map((row) =>
      row.draft && named.has(row.draft)
        ? row.draft
        : row.barcode
          ? byBarcode.get(row.barcode)?.id
          : undefined,
    )
    const found = new Map<string, Pick<SkuDraftRecord, 'sync'> & { fingerprint: string }>()
    const ids = [...new Set(target.filter((id) => id !== undefined))]
    for (const chunk of chunks(ids))
      for (const record of await this.db.skuDrafts.bulkGet(chunk))
        if (record)
          found.set(record.id, {
            sync: record.sync,
            fingerprint: payloadFingerprint(record.payload, reading),
          })
    return rows.map((row, i): RowPlan => {
      const id = target[i]
      const draft = id === undefined ? undefined : found.get(id)
      if (!draft) return { unchanged: false, inRun: false, changedAt: [] }
      const unchanged = draft.fingerprint === row.fingerprint
      const inRun = !unchanged && isLive(draft.sync)
      const exact = row.exact ?? (reading === 'exact' ? row.fingerprint : undefined)
      const changedAt =
        unchanged || inRun || exact === undefined ? [] : changedSinceAt(draft.sync, () => exact)
      return { unchanged, inRun, draft: id, changedAt }
    })
  }

  /**
   * Starts an import of `source` (the file's name, for the undo history) under a new undo batch.
   * Chunks are then written one transaction each, so the list stays usable and memory flat; the
   * first one adds the import to the undo history, as still writing until the last one.
   * `abortImport` rolls every chunk back and takes it out of the history again, `finishImport`
   * keeps it there for Undo.
   */
  async beginImport(source?: string): Promise<string> {
    const batch = this.undoLog.newBatch()
    this.imports.set(batch, {
      source,
      byBarcode: new Map(),
      created: new Set(),
      planned: Promise.resolve(),
    })
    return batch
  }

  /**
   * Writes one chunk of imported SKUs in one transaction, logging what it created and the drafts
   * it replaced (as they were before the import) under the import's batch. A barcode counts as a
   * duplicate when a draft held it before the import or an earlier row of the file brought it.
   * The next chunk may be handed over before this one resolves (see `ImportSession.planned`).
   */
  async importChunk(
    batch: string,
    skus: readonly Sku[],
    {
      duplicates,
      existingByBarcode,
      now = systemClock.now(),
      columns,
      reading = 'exact',
      named = [],
      existingDrafts = new Set(),
      last = false,
    }: ImportChunkOptions,
  ): Promise<ImportChunkResult> {
    const db = last ? this.strict : this.db
    const session = this.imports.get(batch)
    if (!session) throw new Error('This import has already ended.')
    const result: ImportChunkResult = { ...noRows(), fates: [] }
    // Barcodes this chunk claims, merged into the session once it has decided what it writes.
    const claimed = new Map<string, string>()
    const previous = session.planned
    let planned!: () => void
    session.planned = new Promise<void>((resolve) => (planned = resolve))
    await previous.catch(() => undefined)
    await db
      .transaction('rw', db.skuDrafts, db.skuUndo, db.skuActions, async () => {
        const created = new Map<string, SkuDraftRecord>()
        const replace = new Map<string, { payload: Sku; columns: DraftColumns; rows: number[] }>()
        const fates: (RowFate | undefined)[] = []
        const add = (index: number, payload: Sku, derived: DraftColumns) => {
          const record = newDraftRecord(payload, now, derived)
          created.set(record.id, record)
          if (record.barcode) claimed.set(record.barcode, record.id)
          fates[index] = { kind: 'created', draft: record.id }
        }
        for (const [index, payload] of skus.entries()) {
          const derived = columns?.[index] ?? draftColumns(payload)
          const barcode = textOf(payload.barcode)
          const draft = named[index]
          const ownDraft = draft !== undefined && existingDrafts.has(draft)
          // A row of the app's export updates the draft it names, whatever its barcode became.
          const holder =
            duplicates === 'keep-both'
              ? undefined
              : ownDraft
                ? draft
                : barcode
                  ? (claimed.get(barcode) ??
                    session.byBarcode.get(barcode) ??
                    existingByBarcode.get(barcode)?.id)
                  : undefined
          if (!holder) add(index, payload, derived)
          else if (duplicates === 'skip')
            fates[index] = { kind: ownDraft ? 'skippedDrafts' : 'skippedDuplicates', draft: holder }
          else {
            const mine = created.get(holder)
            // A later row of this very chunk: it takes the place of the earlier one before anything is written.
            if (mine) {
              created.set(holder, { ...mine, payload, ...derived })
              fates[index] = { kind: 'updated', draft: holder }
            } else {
              const rows = replace.get(holder)?.rows ?? []
              replace.set(holder, { payload, columns: derived, rows: [...rows, index] })
            }
          }
        }
        const ids = [...replace.keys()]
        // Only updates read: a chunk of new drafts goes to the database in one round trip.
        const [currents, logged] = ids.length
          ? await Promise.all([
              db.skuDrafts.bulkGet(ids),
              db.skuUndo.bulkGet(ids.map((id) => [batch, id] as [string, string])),
            ])
          : [[], []]
        const undo: SkuUndoRecord[] = []
        const next: SkuDraftRecord[] = []
        /** Drafts this chunk is the first of the import to keep as they were: the history's budget counts them. */
        let kept = 0
        ids.forEach((id, i) => {
          const current = currents[i]
          const { payload, columns: derived, rows } = replace.get(id)!
          // The chunk's earlier rows of this barcode were replaced by its last one, which decides.
          const last = rows.pop()!
          if (!current) {
            // Deleted since the import began: the row is new again.
            add(last, payload, derived)
          } else if (contentText(current.payload, reading) === contentText(payload, reading)) {
            // The same content (an export coming back): nothing to write, and its edit time stays.
            fates[last] = { kind: 'unchanged', draft: id }
          } else if (isLive(current.sync)) {
            // Queued or being sent: what the run reads must not change (the editor refuses it too).
            fates[last] = { kind: 'skippedInRun', draft: id }
          } else {
            // As the editor saves a draft (`saveDraftPayload`): a refusal is forgotten, and where it
            // was created it becomes changed since sent.
            const standings = withoutRefusals(current.sync, payload)
            next.push({ ...current, payload, updatedAt: now, ...derived, ...standings })
            const changedAt = changedSinceAt(standings.sync, () => payloadFingerprint(payload))
            fates[last] = { kind: 'updated', draft: id, ...(changedAt.length > 0 && { changedAt }) }
            if (session.created.has(id)) {
              // Created by an earlier chunk of this import: undo removes it as long as nobody edited
              // it after this write (this entry takes the place of its chunk's for that draft).
              undo.push({ batch, id, writtenAt: now })
            } else {
              // Touched earlier in this import: undo puts back what was there before the import.
              undo.push({ batch, id, before: logged[i] ? logged[i].before : current, writtenAt: now })
              if (!logged[i]) kept++
            }
          }
          for (const row of rows) fates[row] = { kind: 'updated', draft: fates[last]!.draft }
        })
        const createdIds = [...created.keys()]
        if (createdIds.length > 0) {
          undo.push({
            batch,
            id: `${CREATED_ENTRY}${crypto.randomUUID()}`,
            created: createdIds,
            writtenAt: now,
          })
        }
        // Decided: the next chunk may plan on what this one claims. Should this one fail, so does
        // the import, and it is rolled back whole.
        for (const [barcode, id] of claimed) session.byBarcode.set(barcode, id)
        for (const id of createdIds) session.created.add(id)
        planned()
        // `bulkAdd`: an id already taken fails the chunk instead of overwriting a draft.
        await Promise.all([
          db.skuDrafts.bulkAdd([...created.values()]),
          next.length ? db.skuDrafts.bulkPut(next) : undefined,
          db.skuUndo.bulkPut(undo),
        ])
        result.fates = fates.map((fate) => fate!)
        for (const fate of result.fates) result[fate.kind]++
        await this.noteChunk(db, batch, session, { rows: result.created + result.updated, kept, now, last })
      })
      .finally(planned)
    return result
  }

  /**
   * Adds a chunk to the import's entry in the undo history, inside the chunk's transaction: the
   * first chunk that writes anything adds it, each one counts its rows, the last one makes it
   * undoable (and trims the history to its budget, the import's size known). An import that
   * writes nothing has no entry: there is nothing to undo.
   */
  private async noteChunk(
    db: CatalogDatabase,
    batch: string,
    session: ImportSession,
    { rows, kept, now, last }: { rows: number; kept: number; now: number; last: boolean },
  ): Promise<void> {
    const noted = await db.skuActions.where('batch').equals(batch).first()
    if (!noted && rows === 0) return
    const count = (noted?.count ?? 0) + rows
    await db.skuActions.put({
      ...(noted?.seq !== undefined && { seq: noted.seq }),
      batch,
      kind: 'import',
      name: { key: 'import', file: session.source },
      count,
      at: noted?.at ?? now,
      kept: (noted?.kept ?? 0) + kept,
      ...(!last && { writing: true }),
    })
    if (last) await this.undoLog.trim(db)
  }

  /** Ends an import by rolling back every chunk it wrote: drafts are exactly as they were. */
  abortImport(batch: string, options: BulkOptions = {}): Promise<UndoResult> {
    this.imports.delete(batch)
    return this.undoLog.undo(batch, options)
  }

  /** Ends an import, keeping its batch so the whole import can still be undone. */
  finishImport(batch: string): void {
    this.imports.delete(batch)
  }
}
