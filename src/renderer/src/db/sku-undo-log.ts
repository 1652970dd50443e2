import { chunks } from './chunks.ts'
import { sameStandings } from '#shared/sync-state.ts'
import type { CatalogDatabase } from './database.ts'
import { withoutRefusals } from './draft-kinds.ts'
import type { SkuDraftRecord, SkuUndoRecord } from './records.ts'

/** What every long write over many drafts takes. */
export interface BulkOptions {
  /** The time written as `updatedAt` (and `createdAt` of copies). */
  now?: number
  /** Called after each chunk with the drafts handled so far, out of all given. */
  onProgress?: (done: number, total: number) => void
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

/** The id prefix of an import chunk's undo entry (draft ids are UUIDs: they never start so). */
export const CREATED_ENTRY = '~created:'

/**
 * The undo of the last bulk action or import: what each draft was before it (the `skuUndo`
 * table), under one batch id, and the way back. Starting a new batch drops the previous one: only
 * the last action can be undone.
 */
export class SkuUndoLog {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  /** A fresh batch for an action written over several transactions (an import); the previous one is dropped. */
  async freshBatch(): Promise<string> {
    await this.db.skuUndo.clear()
    return crypto.randomUUID()
  }

  /**
   * The batch that can be undone now, if any: the table holds only the last action's entries, so
   * whichever batch it holds is that one. Read from the database rather than from the snackbar, so
   * Ctrl+Z still undoes after the snackbar went, and after a restart.
   */
  async latestBatch(): Promise<string | undefined> {
    return (await this.db.skuUndo.orderBy('batch').first())?.batch
  }

  /**
   * Runs a bulk action in one transaction with a fresh undo batch; the previous one is dropped.
   * The asset checks are in it too: a draft that goes takes its last check with it.
   */
  inBulkTransaction<T>(action: (batch: string) => Promise<T>): Promise<T> {
    return this.db.transaction('rw', this.db.skuDrafts, this.db.skuUndo, this.db.assetChecks, async () =>
      action(await this.freshBatch()),
    )
  }

  /**
   * Undoes a bulk action in one transaction: deleted and changed drafts come back exactly as they
   * were (ids, payloads, timestamps), copies go. A draft edited after the action is left as it is.
   */
  async undo(batch: string, { onProgress }: BulkOptions = {}): Promise<UndoResult> {
    return this.db.transaction('rw', this.db.skuDrafts, this.db.skuUndo, this.db.assetChecks, async () => {
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
        // Sync changes a draft's standings without an edit: what was queued or sent since stays as
        // it is. Compared with the standings the action wrote: an edit by the action itself cleared
        // the draft's refusals (`withoutRefusals`), which is no sending since.
        const written = entry.before && withoutRefusals(entry.before.sync).sync
        if (current && !sameStandings(current.sync, written)) result.keptSent++
        else if (!untouched) result.keptEdited++
        else if (entry.before) restore.push(entry.before)
        else if (current) remove.push(entry.id)
      })
      await this.db.skuDrafts.bulkPut(restore)
      await this.db.skuDrafts.bulkDelete(remove)
      await this.db.assetChecks.bulkDelete(remove)
      result.restored += restore.length
      result.removed += remove.length
    }
  }
}
