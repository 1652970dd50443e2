import type { Transaction } from 'dexie'
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
  /** The newest time an entry says the action wrote. */
  at: number
  /** The newest time a draft it kept was edited: all a delete's entries say of its time. */
  keptAt: number
}

/**
 * Version 8's upgrade: the undo table kept only the last action's entries, with nothing naming it.
 * That action becomes the history's one entry, its kind read from its entries (an import's list
 * of created drafts, a delete's drafts without a written time, a duplicate's copies), so the undo
 * a person had before updating is still there after. A delete wrote no time: it is dated by the
 * newest draft it deleted, the latest time known before it.
 */
export async function upgradeToUndoHistory(tx: Transaction): Promise<void> {
  const tallies = new Map<string, Tally>()
  await tx
    .table<SkuUndoRecord>('skuUndo')
    .toCollection()
    .each((entry) => {
      const tally = tallies.get(entry.batch) ?? {
        created: 0,
        updated: 0,
        deleted: 0,
        copies: 0,
        at: 0,
        keptAt: 0,
      }
      if (entry.created) tally.created += entry.created.length
      else if (entry.before && entry.writtenAt !== undefined) tally.updated++
      else if (entry.before) tally.deleted++
      else tally.copies++
      tally.at = Math.max(tally.at, entry.writtenAt ?? 0)
      tally.keptAt = Math.max(tally.keptAt, entry.before?.updatedAt ?? 0)
      tallies.set(entry.batch, tally)
    })
  const actions = [...tallies].map(([batch, tally]): SkuActionRecord => {
    const kept = tally.updated + tally.deleted
    const at = tally.at || tally.keptAt
    if (tally.created) {
      const rows = tally.created + tally.updated
      return { batch, kind: 'import', name: { key: 'import' }, count: rows, at, kept }
    }
    if (tally.deleted)
      return { batch, kind: 'delete', name: { key: 'delete' }, count: tally.deleted, at, kept }
    if (tally.updated)
      return { batch, kind: 'set-field', name: { key: 'changed-field' }, count: tally.updated, at, kept }
    return { batch, kind: 'duplicate', name: { key: 'duplicate' }, count: tally.copies, at, kept }
  })
  await tx.table<SkuActionRecord>('skuActions').bulkAdd(actions)
}
