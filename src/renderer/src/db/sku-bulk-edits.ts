import { getAt, parsePath } from '#shared/json-path.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { setWithSectionDefaults } from '#shared/schema/sku-template.ts'
import { isLive, keptFromDeleting, standingTag, type DraftSync } from '#shared/sync/standing.ts'
import { diffJson } from '#shared/json-diff.ts'
import { replacedText, type Replacement } from '#shared/values/replace-text.ts'
import { bulkField, bulkValueProblem, holdsText, type BulkField } from '#shared/validation/bulk-fields.ts'
import { chunks } from './chunks.ts'
import type { CatalogDatabase } from './database.ts'
import { withoutRefusals } from './stored-kinds.ts'
import type { SkuActionName, SkuDraftRecord, SkuUndoRecord } from './records.ts'
import { newDraftRecord } from './sku-drafts.ts'
import { noteDeleted } from './team-exchange.ts'
import type { BulkOptions, SkuUndoLog } from './sku-undo-log.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

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
  /** Drafts changed that are now "changed since sent" where they were created: updates to offer. */
  changedSinceSent: number
}

export interface DuplicateResult extends BulkResult {
  /** Ids of the copies, in the order of their originals. */
  ids: string[]
}

/** A bulk action refused before it touched anything (a value of the wrong kind, say). */
export class BulkRefusal extends Error {
  override name = 'BulkRefusal'
}

/** One draft's change in a find-and-replace's preview. */
export interface ReplaceChange {
  id: string
  /** The draft as the list names it: its product name, or its barcode, or "A draft without a name". */
  name: string
  before: string
  after: string
}

/** What a find-and-replace would do (`previewReplace`). */
export interface ReplacePreview {
  /** Drafts it would change. */
  count: number
  /** The first few of them, in the order given. */
  changes: ReplaceChange[]
  /** Drafts holding the text that a run holds: left as they are. */
  inRun: number
  /** The first new value the form would reject, naming its draft: the replacement is refused. */
  problem?: string
}

/**
 * What becomes of one draft's field: a value to write (refused, all of the action with it, when it
 * has a problem), a value it already holds, or nothing to do with it (it does not hold what a
 * replacement looks for).
 */
type FieldChange = { value: unknown; problem?: string } | 'unchanged' | 'absent'

/** Two values of a field alike: by value for a 2D slot's object, as the form compares them. */
function sameValue(current: unknown, value: unknown): boolean {
  if (typeof value === 'object' && value !== null) return diffJson(current, value).length === 0
  return current === value
}

/** Whether a draft's standings say it changed since it was created at some destination. */
function changedSomewhere({ sync, standing }: { sync: DraftSync; standing: string[] }): boolean {
  return Object.keys(sync).some((destination) => standing.includes(standingTag(destination, 'changed')))
}

/** A text field to find and replace in, or a refusal naming what is not one. */
function textField(path: string): BulkField {
  const field = bulkField(path)
  if (!field || !holdsText(field))
    throw new BulkRefusal(`"${field?.title ?? path}" holds no text to find and replace in.`)
  return field
}

/** How a draft is named in a message: its product name, else its barcode. */
function draftName(record: SkuDraftRecord): string {
  return record.productName || record.barcode || 'A draft without a name'
}

/**
 * Set a field on, duplicate or delete many drafts at once: each action one transaction, all or
 * nothing, logged in the undo history under the key its words are made from (sku-undo-log.ts).
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
   * transaction: all drafts change or none. A draft sent before is edited as the editor edits it:
   * it becomes "changed since sent" where it was created, and is offered there as an update.
   * Drafts a run holds are skipped. A value the form would reject is refused before anything is read.
   */
  async setField(
    ids: readonly string[],
    path: string,
    value: unknown,
    { now = systemClock.now(), onProgress }: BulkOptions = {},
  ): Promise<SetFieldResult> {
    const problem = bulkValueProblem(path, value)
    if (problem) throw new BulkRefusal(problem)
    return this.changeField(
      ids,
      path,
      (current) => (sameValue(current, value) ? 'unchanged' : { value }),
      { key: 'set-field', path, removed: value === undefined },
      { now, onProgress },
    )
  }

  /**
   * Finds `replacement.find` in one text field of every given draft and replaces it (anywhere, or
   * at the start: replace-text.ts), as one action undone in one step. Drafts whose field does not
   * hold it are left alone and not counted. Every new value is checked as the form checks it: one
   * the form would reject (an address that no longer reads as one) refuses the whole replacement,
   * naming the draft, before anything is written. Sent drafts as in `setField`.
   */
  async replaceInField(
    ids: readonly string[],
    path: string,
    replacement: Replacement,
    { now = systemClock.now(), onProgress }: BulkOptions = {},
  ): Promise<SetFieldResult> {
    textField(path) // refuses a field that holds no text, before anything is read
    return this.changeField(
      ids,
      path,
      (current, record) => {
        const value = replacedText(current, replacement)
        if (value === undefined) return 'absent'
        const problem = bulkValueProblem(path, value)
        return problem ? { value, problem: `${draftName(record)}: ${problem}` } : { value }
      },
      { key: 'replace', path, ...replacement },
      { now, onProgress },
    )
  }

  /**
   * What `replaceInField` would do, without writing: how many drafts it would change, the first
   * `limit` changes (before and after), and the first new value the form would reject, if any.
   */
  async previewReplace(
    ids: readonly string[],
    path: string,
    replacement: Replacement,
    { limit = 5, onProgress }: { limit?: number; onProgress?: BulkOptions['onProgress'] } = {},
  ): Promise<ReplacePreview> {
    textField(path)
    const segments = parsePath(path)
    const preview: ReplacePreview = { count: 0, changes: [], inRun: 0 }
    let done = 0
    for (const chunk of chunks(ids)) {
      for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
        if (!record) continue
        const before = getAt(record.payload, segments)
        const after = replacedText(before, replacement)
        if (after === undefined) continue
        if (isLive(record.sync)) {
          preview.inRun++
          continue
        }
        preview.count++
        if (preview.changes.length < limit)
          preview.changes.push({ id: record.id, name: draftName(record), before: before as string, after })
        const problem = preview.problem === undefined && bulkValueProblem(path, after)
        if (problem) preview.problem = `${draftName(record)}: ${problem}`
      }
      done += chunk.length
      onProgress?.(done, ids.length)
    }
    return preview
  }

  /**
   * Writes what `change` says of one field to every given draft, in one transaction with one undo
   * entry: `{ value }` writes it (the sections around it made from the new-SKU defaults when the
   * draft lacks them; with a `problem`, the whole action is refused and nothing is written),
   * `unchanged` counts a draft that already holds it, `absent` leaves a draft alone uncounted. A draft sent before is edited as the editor edits it (its refusals cleared,
   * its standings read again: "changed since sent" where it was created); one a run holds is skipped.
   */
  private changeField(
    ids: readonly string[],
    path: string,
    change: (current: unknown, record: SkuDraftRecord) => FieldChange,
    name: SkuActionName,
    { now = systemClock.now(), onProgress }: BulkOptions,
  ): Promise<SetFieldResult> {
    const segments = parsePath(path)
    const describe = (result: SetFieldResult) => ({
      kind: 'set-field' as const,
      name,
      count: result.count,
      kept: result.count,
    })
    return this.undoLog.inBulkTransaction(
      describe,
      async (batch) => {
        const skipped: Skipped = { inRun: 0, sent: 0, missing: 0 }
        let count = 0
        let unchanged = 0
        let changedSinceSent = 0
        let done = 0
        for (const chunk of chunks(ids)) {
          const next: SkuDraftRecord[] = []
          const undo: SkuUndoRecord[] = []
          for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
            if (!record) {
              skipped.missing++
              continue
            }
            const outcome = change(getAt(record.payload, segments), record)
            if (outcome === 'absent') continue
            if (isLive(record.sync)) skipped.inRun++
            else if (outcome === 'unchanged') unchanged++
            else if (outcome.problem !== undefined) throw new BulkRefusal(outcome.problem)
            else {
              const payload = structuredClone(record.payload)
              // A section the draft lacks comes from the new-SKU template: `{ intensity }` alone
              // would add a missing-field warning for each of the environment's other fields.
              setWithSectionDefaults(payload, segments, outcome.value)
              // As an edit in the form: a refusal is about what was refused (stored-kinds.ts).
              const standings = withoutRefusals(record.sync, payload)
              next.push({ ...record, payload, updatedAt: now, ...draftColumns(payload), ...standings })
              undo.push({ batch, id: record.id, before: record, writtenAt: now })
              if (changedSomewhere(standings)) changedSinceSent++
            }
          }
          await this.db.skuDrafts.bulkPut(next)
          await this.db.skuUndo.bulkAdd(undo)
          count += next.length
          done += chunk.length
          onProgress?.(done, ids.length)
        }
        return { batch, count, skipped, unchanged, changedSinceSent }
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
    { now = systemClock.now(), onProgress }: BulkOptions = {},
  ): Promise<DuplicateResult> {
    // A copy's entry keeps only its id: nothing of the budget's whole drafts.
    const describe = ({ count }: DuplicateResult) => ({
      kind: 'duplicate' as const,
      name: { key: 'duplicate' } as const,
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

  /** What deleting `ids` would do now: how many go, and how many stay and why (asked before it). */
  async previewDelete(ids: readonly string[]): Promise<{ count: number; skipped: Skipped }> {
    const skipped: Skipped = { inRun: 0, sent: 0, missing: 0 }
    let count = 0
    for (const chunk of chunks(ids)) {
      for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
        const kept = keptFromDelete(record)
        if (kept) skipped[kept]++
        else count++
      }
    }
    return { count, skipped }
  }

  /**
   * Deletes the given drafts in one transaction, keeping them in the undo table so `undo` can put
   * them back exactly. Drafts held by a run, or sent anywhere but the built-in Sandbox, are
   * skipped: a sent draft is what keeps it from being created there twice.
   */
  async delete(
    ids: string | readonly string[],
    { now = systemClock.now(), onProgress }: BulkOptions = {},
  ): Promise<BulkResult> {
    const list = typeof ids === 'string' ? [ids] : ids
    const describe = ({ count }: BulkResult) => ({
      kind: 'delete' as const,
      name: { key: 'delete' } as const,
      count,
      kept: count,
    })
    return this.undoLog.inBulkTransaction(
      describe,
      async (batch) => {
        const skipped: Skipped = { inRun: 0, sent: 0, missing: 0 }
        let count = 0
        let done = 0
        for (const chunk of chunks(list)) {
          const gone: SkuDraftRecord[] = []
          for (const record of await this.db.skuDrafts.bulkGet(chunk)) {
            const kept = keptFromDelete(record)
            if (kept) skipped[kept]++
            else if (record) gone.push(record)
          }
          await this.db.skuUndo.bulkAdd(gone.map((record) => ({ batch, id: record.id, before: record })))
          await noteDeleted(this.db, 'skus', gone, now)
          await this.db.skuDrafts.bulkDelete(gone.map((record) => record.id))
          // A deleted draft's asset check goes with it (an undo brings the draft back unchecked).
          await this.db.assetChecks.bulkDelete(gone.map((record) => record.id))
          count += gone.length
          done += chunk.length
          onProgress?.(done, list.length)
        }
        return { batch, count, skipped }
      },
      now,
    )
  }
}

/**
 * Why a delete leaves a draft, or undefined when it goes: one being sent is read for sending, one
 * sent (beyond the built-in Sandbox) is kept so it is never created twice, one gone is gone already.
 */
function keptFromDelete(record: SkuDraftRecord | undefined): keyof Skipped | undefined {
  if (!record) return 'missing'
  if (isLive(record.sync)) return 'inRun'
  if (keptFromDeleting(record.sync)) return 'sent'
  return undefined
}
