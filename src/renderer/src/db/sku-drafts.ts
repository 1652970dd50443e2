import type { Sku } from '#shared/schema/sku.ts'
import { getAt, parsePath, setAt } from '#shared/json-path.ts'
import { draftColumns, type DraftColumns } from '#shared/draft-columns.ts'
import { searchTerms } from '#shared/search-terms.ts'
import { bulkValueProblem } from './bulk-fields.ts'
import type { CatalogDatabase } from './database.ts'
import type { SkuDraftRecord, SkuUndoRecord } from './records.ts'
import type { SyncState } from '#shared/sync-state.ts'

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/**
 * Drafts a bulk action read, wrote and logged for undo at a time, inside its one transaction:
 * keeps memory flat (~40 MB at 100,000 drafts) and gives progress something to count.
 */
const CHUNK = 500

/** What appended to a duplicate's product name tells it apart from its original in the list. */
export const COPY_SUFFIX = ' (copy)'

export interface BulkOptions {
  /** The time written as `updatedAt` (and `createdAt` of copies). */
  now?: number
  /** Called after each chunk with the drafts handled so far, out of all given. */
  onProgress?: (done: number, total: number) => void
}

/** Drafts a bulk action left alone, by reason. */
export interface Skipped {
  /** Sent or being sent (syncState other than 'draft'): no longer edited here. */
  notDraft: number
  /** Gone since they were selected. */
  missing: number
}

export interface BulkResult {
  /** The action's undo batch: pass to `undo`. */
  batch: string
  /** Drafts changed, deleted or (for duplicate) created. */
  count: number
  skipped: Skipped
}

export interface SetFieldResult extends BulkResult {
  /** Drafts that already held the value: not written, their last edit stays as it was. */
  unchanged: number
}

export interface DuplicateResult extends BulkResult {
  /** Ids of the copies, in the order of their originals. */
  ids: string[]
}

export interface UndoResult {
  /** Drafts put back as they were, deleted ones included. */
  restored: number
  /** Copies removed again. */
  removed: number
  /** Drafts edited after the action: left as they are now. */
  keptEdited: number
  /** Drafts queued or sent since the action: left as they are, so nothing sent is undone. */
  keptSent: number
}

/**
 * What an imported row whose barcode is already taken does: leave the draft holding it ('skip'),
 * replace that draft's payload ('update'; the last row of a file wins), or add a draft anyway.
 */
export type DuplicatePolicy = 'skip' | 'update' | 'keep-both'

/** A draft found by barcode: which one an import would update, and whether it still may. */
export interface DraftByBarcode {
  id: string
  syncState: SyncState
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
}

/** What one chunk of an import did, row by row. */
export interface ImportChunkResult {
  created: number
  /** Rows that replaced the payload of a draft (one that existed, or one an earlier row made). */
  updated: number
  /** Rows left out under 'skip' because their barcode was taken. */
  skippedDuplicates: number
  /** Rows whose barcode belongs to a sent draft: under 'update' it is not changed. */
  skippedNotDraft: number
}

/** A bulk action refused before it touched anything (a value of the wrong kind, say). */
export class BulkRefusal extends Error {
  override name = 'BulkRefusal'
}

/** What an import under way remembers between its chunks. */
interface ImportSession {
  /** The barcodes written so far, to the draft holding each. */
  byBarcode: Map<string, string>
  /** The drafts it created. */
  created: Set<string>
}

/** The id prefix of an import chunk's undo entry (draft ids are UUIDs: they never start so). */
const CREATED_ENTRY = '~created:'

/** Which of two drafts sharing a barcode an import updates: an editable one, else the latest. */
function preferred(a: SkuDraftRecord, b: SkuDraftRecord): boolean {
  const editable = (record: SkuDraftRecord) => record.syncState === 'draft'
  return editable(a) !== editable(b) ? editable(a) : a.updatedAt > b.updatedAt
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

/** A draft that has never been sent, with a new id. */
function newDraftRecord(payload: Sku, now: number, columns = draftColumns(payload)): SkuDraftRecord {
  return { id: crypto.randomUUID(), payload, createdAt: now, updatedAt: now, syncState: 'draft', ...columns }
}

/**
 * Reads and writes SKU drafts: the only code that writes their content. Sync writes only their
 * `syncState` (db/sync-outbox.ts, db/sync-runs.ts), without touching `updatedAt`.
 */
export class SkuDraftRepository {
  private readonly db: CatalogDatabase
  /** Imports under way, by undo batch. */
  private readonly imports = new Map<string, ImportSession>()

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  async create(payload: Sku, now = Date.now()): Promise<SkuDraftRecord> {
    const record = newDraftRecord(payload, now)
    await this.db.skuDrafts.add(record)
    return record
  }

  /** Replaces a draft's payload as written; fails if the draft is gone or no longer editable. */
  async savePayload(id: string, payload: Sku, now = Date.now()): Promise<SkuDraftRecord> {
    return this.db.transaction('rw', this.db.skuDrafts, async () => {
      const current = await this.db.skuDrafts.get(id)
      if (!current) throw new Error('This draft no longer exists.')
      if (current.syncState !== 'draft')
        throw new Error('This draft has been sent and can no longer be edited.')
      const next: SkuDraftRecord = { ...current, payload, updatedAt: now, ...draftColumns(payload) }
      await this.db.skuDrafts.put(next)
      return next
    })
  }

  get(id: string): Promise<SkuDraftRecord | undefined> {
    return this.db.skuDrafts.get(id)
  }

  /** Most recently edited first. */
  recent(limit = 500): Promise<SkuDraftRecord[]> {
    return this.db.skuDrafts.orderBy('updatedAt').reverse().limit(limit).toArray()
  }

  count(): Promise<number> {
    return this.db.skuDrafts.count()
  }

  /** Drafts whose name, brand or barcode has a word starting with every word of `query`. */
  async search(query: string, limit = 500): Promise<SkuDraftRecord[]> {
    const words = searchTerms(query)
    if (words.length === 0) return this.recent(limit)
    const [first, ...rest] = words
    const matches = await this.db.skuDrafts.where('terms').startsWith(first!).distinct().toArray()
    return matches
      .filter((draft) => rest.every((word) => draft.terms.some((term) => term.startsWith(word))))
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, limit)
  }

  /**
   * Sets one field of the payload on every given draft (`undefined` removes it), recomputing each
   * draft's columns and validity. One transaction: all drafts change or none. Drafts no longer in
   * the draft state are skipped. A value the form would reject is refused before anything is read.
   */
  async setField(
    ids: readonly string[],
    path: string,
    value: unknown,
    { now = Date.now(), onProgress }: BulkOptions = {},
  ): Promise<SetFieldResult> {
    const problem = bulkValueProblem(path, value)
    if (problem) throw new BulkRefusal(problem)
    const segments = parsePath(path)
    return this.inBulkTransaction(async (batch) => {
      const skipped: Skipped = { notDraft: 0, missing: 0 }
      let count = 0
      let unchanged = 0
      let done = 0
      for (const chunk of chunks(ids)) {
        const next: SkuDraftRecord[] = []
        const undo: SkuUndoRecord[] = []
        for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
          if (!record) skipped.missing++
          else if (record.syncState !== 'draft') skipped.notDraft++
          else if (getAt(record.payload, segments) === value) unchanged++
          else {
            const payload = structuredClone(record.payload)
            setAt(payload, segments, value)
            next.push({ ...record, payload, updatedAt: now, ...draftColumns(payload) })
            undo.push({ batch, id: record.id, before: record, writtenAt: now })
          }
        }
        await this.db.skuDrafts.bulkPut(next)
        await this.db.skuUndo.bulkAdd(undo)
        count += next.length
        done += chunk.length
        onProgress?.(done, ids.length)
      }
      return { batch, count, skipped, unchanged }
    })
  }

  /**
   * Copies every given draft (any sync state: a copy is a new draft). Each copy gets a new id,
   * new timestamps, syncState 'draft' and " (copy)" after its product name; everything else,
   * the barcode included, is kept, so a copy shares its original's barcode until it is edited.
   */
  async duplicate(
    ids: readonly string[],
    { now = Date.now(), onProgress }: BulkOptions = {},
  ): Promise<DuplicateResult> {
    return this.inBulkTransaction(async (batch) => {
      const skipped: Skipped = { notDraft: 0, missing: 0 }
      const created: string[] = []
      let done = 0
      for (const chunk of chunks(ids)) {
        const copies: SkuDraftRecord[] = []
        for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
          if (!record) {
            skipped.missing++
            continue
          }
          const payload = structuredClone(record.payload)
          if (typeof payload.productName === 'string') payload.productName += COPY_SUFFIX
          copies.push(newDraftRecord(payload, now))
        }
        // `bulkAdd`, not `bulkPut`: an id already taken fails the whole action instead of
        // overwriting a draft.
        await this.db.skuDrafts.bulkAdd(copies)
        await this.db.skuUndo.bulkAdd(copies.map((copy) => ({ batch, id: copy.id, writtenAt: now })))
        for (const copy of copies) created.push(copy.id)
        done += chunk.length
        onProgress?.(done, ids.length)
      }
      return { batch, count: created.length, skipped, ids: created }
    })
  }

  /**
   * Deletes the given drafts in one transaction, keeping them in the undo table so `undo` can put
   * them back exactly. Drafts no longer in the draft state are skipped: the sync records them.
   */
  async delete(ids: string | readonly string[], { onProgress }: BulkOptions = {}): Promise<BulkResult> {
    const list = typeof ids === 'string' ? [ids] : ids
    return this.inBulkTransaction(async (batch) => {
      const skipped: Skipped = { notDraft: 0, missing: 0 }
      let count = 0
      let done = 0
      for (const chunk of chunks(list)) {
        const gone: SkuDraftRecord[] = []
        for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
          if (!record) skipped.missing++
          else if (record.syncState !== 'draft') skipped.notDraft++
          else gone.push(record)
        }
        await this.db.skuUndo.bulkAdd(gone.map((record) => ({ batch, id: record.id, before: record })))
        await this.db.skuDrafts.bulkDelete(gone.map((record) => record.id))
        count += gone.length
        done += chunk.length
        onProgress?.(done, list.length)
      }
      return { batch, count, skipped }
    })
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
    return new Map(
      [...found].map(([barcode, record]) => [barcode, { id: record.id, syncState: record.syncState }]),
    )
  }

  /**
   * Starts an import: a fresh undo batch (the previous bulk action's is dropped, as every bulk
   * action does). Chunks are then written one transaction each, so the list stays usable and
   * memory flat; `abortImport` rolls every chunk back, `finishImport` keeps the batch for Undo.
   */
  async beginImport(): Promise<string> {
    await this.db.skuUndo.clear()
    const batch = crypto.randomUUID()
    this.imports.set(batch, { byBarcode: new Map(), created: new Set() })
    return batch
  }

  /**
   * Writes one chunk of imported SKUs in one transaction, logging what it created and the drafts
   * it replaced (as they were before the import) under the import's batch. A barcode counts as a
   * duplicate when a draft held it before the import or an earlier row of the file brought it.
   */
  async importChunk(
    batch: string,
    skus: readonly Sku[],
    { duplicates, existingByBarcode, now = Date.now(), columns }: ImportChunkOptions,
  ): Promise<ImportChunkResult> {
    const session = this.imports.get(batch)
    if (!session) throw new Error('This import has already ended.')
    const result: ImportChunkResult = { created: 0, updated: 0, skippedDuplicates: 0, skippedNotDraft: 0 }
    // Barcodes this chunk claims and drafts it creates; merged into the session only once its
    // transaction committed.
    const claimed = new Map<string, string>()
    let createdIds: string[] = []
    await this.db.transaction('rw', this.db.skuDrafts, this.db.skuUndo, async () => {
      const created = new Map<string, SkuDraftRecord>()
      const replace = new Map<string, { payload: Sku; columns: DraftColumns }>()
      const add = (payload: Sku, derived: DraftColumns) => {
        const record = newDraftRecord(payload, now, derived)
        created.set(record.id, record)
        if (record.barcode) claimed.set(record.barcode, record.id)
      }
      for (const [index, payload] of skus.entries()) {
        const derived = columns?.[index] ?? draftColumns(payload)
        const barcode = text(payload.barcode)
        const holder =
          barcode && duplicates !== 'keep-both'
            ? (claimed.get(barcode) ?? session.byBarcode.get(barcode) ?? existingByBarcode.get(barcode)?.id)
            : undefined
        if (!holder) add(payload, derived)
        else if (duplicates === 'skip') result.skippedDuplicates++
        else {
          const mine = created.get(holder)
          // A later row of this very chunk: it takes the place of the earlier one before anything is written.
          if (mine) created.set(holder, { ...mine, payload, ...derived })
          else replace.set(holder, { payload, columns: derived })
          result.updated++
        }
      }
      const ids = [...replace.keys()]
      const currents = await this.db.skuDrafts.bulkGet(ids)
      const logged = await this.db.skuUndo.bulkGet(ids.map((id) => [batch, id] as [string, string]))
      const undo: SkuUndoRecord[] = []
      const next: SkuDraftRecord[] = []
      ids.forEach((id, i) => {
        const current = currents[i]
        const { payload, columns: derived } = replace.get(id)!
        if (!current) {
          // Deleted since the import began: the row is new again.
          result.updated--
          add(payload, derived)
        } else if (current.syncState !== 'draft') {
          result.updated--
          result.skippedNotDraft++
        } else {
          next.push({ ...current, payload, updatedAt: now, ...derived })
          if (session.created.has(id)) {
            // Created by an earlier chunk of this import: undo removes it as long as nobody edited
            // it after this write (this entry takes the place of its chunk's for that draft).
            undo.push({ batch, id, writtenAt: now })
          } else {
            // Touched earlier in this import: undo puts back what was there before the import.
            undo.push({ batch, id, before: logged[i] ? logged[i].before : current, writtenAt: now })
          }
        }
      })
      // `bulkAdd`: an id already taken fails the chunk instead of overwriting a draft.
      await this.db.skuDrafts.bulkAdd([...created.values()])
      await this.db.skuDrafts.bulkPut(next)
      createdIds = [...created.keys()]
      if (createdIds.length > 0) {
        undo.push({
          batch,
          id: `${CREATED_ENTRY}${crypto.randomUUID()}`,
          created: createdIds,
          writtenAt: now,
        })
      }
      await this.db.skuUndo.bulkPut(undo)
      result.created = created.size
    })
    for (const [barcode, id] of claimed) session.byBarcode.set(barcode, id)
    for (const id of createdIds) session.created.add(id)
    return result
  }

  /** Ends an import by rolling back every chunk it wrote: drafts are exactly as they were. */
  abortImport(batch: string, options: BulkOptions = {}): Promise<UndoResult> {
    this.imports.delete(batch)
    return this.undo(batch, options)
  }

  /** Ends an import, keeping its batch so the whole import can still be undone. */
  finishImport(batch: string): void {
    this.imports.delete(batch)
  }

  /**
   * Undoes a bulk action in one transaction: deleted and changed drafts come back exactly as they
   * were (ids, payloads, timestamps), copies go. A draft edited after the action is left as it is.
   */
  async undo(batch: string, { onProgress }: BulkOptions = {}): Promise<UndoResult> {
    return this.db.transaction('rw', this.db.skuDrafts, this.db.skuUndo, async () => {
      const keys = await this.db.skuUndo.where('batch').equals(batch).primaryKeys()
      const isList = ([, id]: [string, string]) => id.startsWith(CREATED_ENTRY)
      const result: UndoResult = { restored: 0, removed: 0, keptEdited: 0, keptSent: 0 }
      // Drafts' own entries first, then the import chunks' lists of created drafts: a draft an
      // import created and a later chunk updated has an entry of its own, and that one decides.
      const ownEntry = new Set<string>()
      let done = 0
      for (const chunk of [...chunks(keys.filter((key) => !isList(key))), ...chunks(keys.filter(isList))]) {
        for (const entry of await this.db.skuUndo.bulkGet(chunk)) {
          if (!entry) continue
          if (entry.created) {
            const ids = entry.created.filter((id) => !ownEntry.has(id))
            await this.putBack(
              ids.map((id) => ({ id, writtenAt: entry.writtenAt })),
              result,
            )
          } else {
            ownEntry.add(entry.id)
            await this.putBack([entry], result)
          }
        }
        await this.db.skuUndo.bulkDelete(chunk)
        done += chunk.length
        onProgress?.(done, keys.length)
      }
      return result
    })
  }

  /**
   * Undoes undo entries inside the caller's transaction: a draft changed or deleted by the action
   * comes back as it was, one it created goes, one edited since the action is left alone.
   */
  private async putBack(
    entries: readonly Pick<SkuUndoRecord, 'id' | 'before' | 'writtenAt'>[],
    result: UndoResult,
  ): Promise<void> {
    for (const chunk of chunks(entries)) {
      const currents = await this.db.skuDrafts.bulkGet(chunk.map((entry) => entry.id))
      const restore: SkuDraftRecord[] = []
      const remove: string[] = []
      chunk.forEach((entry, i) => {
        const current = currents[i]
        const untouched = current === undefined || current.updatedAt === entry.writtenAt
        // Sync changes a draft's state without an edit: what was queued or sent stays as it is.
        if (current && current.syncState !== 'draft') result.keptSent++
        else if (!untouched) result.keptEdited++
        else if (entry.before) restore.push(entry.before)
        else if (current) remove.push(entry.id)
      })
      await this.db.skuDrafts.bulkPut(restore)
      await this.db.skuDrafts.bulkDelete(remove)
      result.restored += restore.length
      result.removed += remove.length
    }
  }

  /** Runs a bulk action in one transaction with a fresh undo batch; the previous one is dropped. */
  private inBulkTransaction<T>(action: (batch: string) => Promise<T>): Promise<T> {
    return this.db.transaction('rw', this.db.skuDrafts, this.db.skuUndo, async () => {
      await this.db.skuUndo.clear()
      return action(crypto.randomUUID())
    })
  }
}
