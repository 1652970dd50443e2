import type { Transaction } from 'dexie'
import { changedFieldLabel, deleteLabel, duplicateLabel, importLabel } from '#renderer/words/undo.ts'
import type { SkuActionRecord, SkuUndoRecord } from './records.ts'

/** What one batch's entries say about the action that wrote them. */
interface Tally {
  created: number
  /** Entries keeping a draft as it was, with the time the action wrote (a field set, an import's update). */
  updated: number
  /** Entries keeping a deleted draft (no time written: the draft is gone). */
  deleted: number
  /** Entries of copies (no draft kept). */
  copies: number
  at: number
}

/**
 * Version 8's upgrade: the undo table kept only the last action's entries, with nothing naming it.
 * That action becomes the history's one entry, its kind read from its entries (an import's list
 * of created drafts, a delete's drafts without a written time, a duplicate's copies), so the undo
 * a person had before updating is still there after.
 */
export async function upgradeToUndoHistory(tx: Transaction): Promise<void> {
  const tallies = new Map<string, Tally>()
  await tx
    .table<SkuUndoRecord>('skuUndo')
    .toCollection()
    .each((entry) => {
      const tally = tallies.get(entry.batch) ?? { created: 0, updated: 0, deleted: 0, copies: 0, at: 0 }
      if (entry.created) tally.created += entry.created.length
      else if (entry.before && entry.writtenAt !== undefined) tally.updated++
      else if (entry.before) tally.deleted++
      else tally.copies++
      tally.at = Math.max(tally.at, entry.writtenAt ?? 0)
      tallies.set(entry.batch, tally)
    })
  const actions = [...tallies].map(([batch, tally]): SkuActionRecord => {
    const kept = tally.updated + tally.deleted
    const at = tally.at || Date.now()
    if (tally.created) {
      const rows = tally.created + tally.updated
      return { batch, kind: 'import', label: importLabel(rows), count: rows, at, kept }
    }
    if (tally.deleted)
      return { batch, kind: 'delete', label: deleteLabel(tally.deleted), count: tally.deleted, at, kept }
    if (tally.updated)
      return {
        batch,
        kind: 'set-field',
        label: changedFieldLabel(tally.updated),
        count: tally.updated,
        at,
        kept,
      }
    return { batch, kind: 'duplicate', label: duplicateLabel(tally.copies), count: tally.copies, at, kept }
  })
  await tx.table<SkuActionRecord>('skuActions').bulkAdd(actions)
}
