import { getAt, parsePath } from '#shared/json-path.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { setWithSectionDefaults } from '#shared/schema/sku-template.ts'
import { isLive, wasSent } from '#shared/sync-state.ts'
import { bulkField, bulkValueProblem } from '#shared/validation/bulk-fields.ts'
import { deleteLabel, duplicateLabel, setFieldLabel } from '#renderer/words/undo.ts'
import { chunks } from './chunks.ts'
import type { CatalogDatabase } from './database.ts'
import { withoutRefusals } from './draft-kinds.ts'
import type { SkuDraftRecord, SkuUndoRecord } from './records.ts'
import { newDraftRecord } from './sku-drafts.ts'
import type { BulkOptions, SkuUndoLog } from './sku-undo-log.ts'

/** What appended to a duplicate's product name tells it apart from its original in the list. */
export const COPY_SUFFIX = ' (copy)'

/** Drafts a bulk action left alone, by reason. */
export interface Skipped {
  /** Queued or being sent: what is read for sending does not change. */
  inRun: number
  /** Sent to a destination (deleting only): the draft is the record of what was created there. */
  sent: number
  /** Gone since they were selected. */
  missing: number
}

export interface BulkResult {
  /** The action's undo batch, in the undo history when `count` is more than 0. */
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

/** A bulk action refused before it touched anything (a value of the wrong kind, say). */
export class BulkRefusal extends Error {
  override name = 'BulkRefusal'
}

/**
 * Set a field on, duplicate or delete many drafts at once: each action one transaction, all or
 * nothing, logged in the undo history under a label a person reads (sku-undo-log.ts).
 */
export class SkuBulkEdits {
  private readonly db: CatalogDatabase
  private readonly undoLog: SkuUndoLog

  constructor(db: CatalogDatabase, undoLog: SkuUndoLog) {
    this.db = db
    this.undoLog = undoLog
  }

  /**
   * Sets one field of the payload on every given draft (`undefined` removes it), recomputing each
   * draft's columns and validity. Sections around the field that a draft lacks are made from the
   * new-SKU defaults, so a value set brings no missing-field warnings for its neighbours. One
   * transaction: all drafts change or none. Drafts no longer in the draft state are skipped. A
   * value the form would reject is refused before anything is read.
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
    const title = bulkField(path)?.title ?? path
    const describe = ({ count }: SetFieldResult) => ({
      kind: 'set-field' as const,
      label: setFieldLabel(title, count, value === undefined),
      count,
      kept: count,
    })
    return this.undoLog.inBulkTransaction(
      describe,
      async (batch) => {
        const skipped: Skipped = { inRun: 0, sent: 0, missing: 0 }
        let count = 0
        let unchanged = 0
        let done = 0
        for (const chunk of chunks(ids)) {
          const next: SkuDraftRecord[] = []
          const undo: SkuUndoRecord[] = []
          for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
            if (!record) skipped.missing++
            else if (isLive(record.sync)) skipped.inRun++
            else if (getAt(record.payload, segments) === value) unchanged++
            else {
              const payload = structuredClone(record.payload)
              // A section the draft lacks comes from the new-SKU template: `{ intensity }` alone
              // would add a missing-field warning for each of the environment's other fields.
              setWithSectionDefaults(payload, segments, value)
              // As an edit in the form: a refusal is about what was refused (draft-kinds.ts).
              next.push({
                ...record,
                payload,
                updatedAt: now,
                ...draftColumns(payload),
                ...withoutRefusals(record.sync, payload),
              })
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
      },
      now,
    )
  }

  /**
   * Copies every given draft (any sync state: a copy is a new draft). Each copy gets a new id,
   * new timestamps, sent nowhere, and " (copy)" after its product name; everything else,
   * the barcode included, is kept, so a copy shares its original's barcode until it is edited.
   */
  async duplicate(
    ids: readonly string[],
    { now = Date.now(), onProgress }: BulkOptions = {},
  ): Promise<DuplicateResult> {
    // A copy's entry keeps only its id: nothing of the budget's whole drafts.
    const describe = ({ count }: DuplicateResult) => ({
      kind: 'duplicate' as const,
      label: duplicateLabel(count),
      count,
      kept: 0,
    })
    return this.undoLog.inBulkTransaction(
      describe,
      async (batch) => {
        const skipped: Skipped = { inRun: 0, sent: 0, missing: 0 }
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
      },
      now,
    )
  }

  /**
   * Deletes the given drafts in one transaction, keeping them in the undo table so `undo` can put
   * them back exactly. Drafts sent anywhere or held by a run are skipped: a sent draft is what
   * keeps it from being created there twice.
   */
  async delete(ids: string | readonly string[], { onProgress }: BulkOptions = {}): Promise<BulkResult> {
    const list = typeof ids === 'string' ? [ids] : ids
    const describe = ({ count }: BulkResult) => ({
      kind: 'delete' as const,
      label: deleteLabel(count),
      count,
      kept: count,
    })
    return this.undoLog.inBulkTransaction(describe, async (batch) => {
      const skipped: Skipped = { inRun: 0, sent: 0, missing: 0 }
      let count = 0
      let done = 0
      for (const chunk of chunks(list)) {
        const gone: SkuDraftRecord[] = []
        for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
          if (!record) skipped.missing++
          else if (isLive(record.sync)) skipped.inRun++
          else if (wasSent(record.sync)) skipped.sent++
          else gone.push(record)
        }
        await this.db.skuUndo.bulkAdd(gone.map((record) => ({ batch, id: record.id, before: record })))
        await this.db.skuDrafts.bulkDelete(gone.map((record) => record.id))
        // A deleted draft's asset check goes with it (an undo brings the draft back unchecked).
        await this.db.assetChecks.bulkDelete(gone.map((record) => record.id))
        count += gone.length
        done += chunk.length
        onProgress?.(done, list.length)
      }
      return { batch, count, skipped }
    })
  }
}
