import { chunks } from './chunks.ts'
import { sameStandings } from '#shared/sync/standing.ts'
import type { CatalogDatabase } from './database.ts'
import { withoutRefusals } from './stored-kinds.ts'
import type { SkuActionRecord, SkuDraftRecord, SkuUndoRecord } from './records.ts'
import { noteDeleted, putBack as putBackForTeam } from './team-exchange.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * What a bulk action and its undo write: the drafts, the undo history, the asset checks that go
 * with deleted drafts, and the team workspace's note of deletions and put-back drafts.
 */
const undoTables = (db: CatalogDatabase) => [
  db.skuDrafts,
  db.skuUndo,
  db.assetChecks,
  db.skuActions,
  db.teamDeletions,
]

/** What every long write over many drafts takes. */
export interface BulkOptions {
  /** The time written as `updatedAt` (and `createdAt` of copies), and the history's time of the action. */
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
 * The undo history's budget, so it never fills a disk. At most this many actions: a person walks
 * back a few steps, rarely twenty, and a longer list would be read by nobody.
 */
export const MAX_ACTIONS = 20

/**
 * And at most this many whole drafts kept by the actions' entries (a field set or a delete keeps
 * each draft as it was; copies and an import's new rows keep only ids). A stored draft weighs
 * about 2 KB, so this is ~100 MB at most beside the drafts: a few edits of a whole 10,000-draft
 * catalogue stay undoable, and a 100,000-draft delete does not keep twenty more behind it.
 */
export const MAX_KEPT_DRAFTS = 50_000

/** How much the undo history keeps: `MAX_ACTIONS` and `MAX_KEPT_DRAFTS` unless a test says less. */
export interface UndoBudget {
  actions: number
  keptDrafts: number
}

/** An action the history refuses to undo now, with the reason a person reads. */
export class UndoRefusal extends Error {
  override name = 'UndoRefusal'
}

/** What an action adds to the history; the database gives it its place (`seq`). */
export type ActionNote = Omit<SkuActionRecord, 'seq'>

/** What undoing one action or several newest first did, and how many actions that was. */
export interface UndoneActions {
  actions: number
  result: UndoResult
  /** The drafts it removed (copies, imported rows): gone from the list, and from any selection. */
  removedIds: string[]
}

/**
 * What became of each draft an undo went through, by id. Undoing several actions can go through
 * one draft more than once (a field set, then the import that made the draft): the draft counts
 * once, for what became of it in the end, so the words count drafts, not steps.
 */
type Outcomes = Map<string, keyof UndoResult>

/**
 * Notes what an older action's undo did to a draft, over what a newer one's did: removed is
 * final; a draft a newer undo changed back and an older one then kept stays restored (it did
 * change).
 */
function note(outcomes: Outcomes, id: string, outcome: keyof UndoResult): void {
  const before = outcomes.get(id)
  if (before === 'restored' && (outcome === 'keptEdited' || outcome === 'keptSent')) return
  outcomes.set(id, outcome)
}

function tally(outcomes: Outcomes): UndoResult {
  const result: UndoResult = { restored: 0, removed: 0, keptEdited: 0, keptSent: 0 }
  for (const outcome of outcomes.values()) result[outcome]++
  return result
}

function removedIn(outcomes: Outcomes): string[] {
  return [...outcomes].flatMap(([id, outcome]) => (outcome === 'removed' ? [id] : []))
}

/**
 * The undo of bulk actions and imports: what each draft was before each (the `skuUndo` table),
 * under one batch id an action, and the actions themselves (`skuActions`), newest last. Undone as
 * a stack, newest first, so an older action never undoes under a newer one: a draft a newer action
 * deleted is put back by that action's undo before the older one's runs. Several actions are kept,
 * across restarts, within a budget (`MAX_ACTIONS`, `MAX_KEPT_DRAFTS`).
 */
export class SkuUndoLog {
  private readonly db: CatalogDatabase
  private readonly budget: UndoBudget

  constructor(
    db: CatalogDatabase,
    budget: UndoBudget = { actions: MAX_ACTIONS, keptDrafts: MAX_KEPT_DRAFTS },
  ) {
    this.db = db
    this.budget = budget
  }

  /** A batch id for a new action; the history keeps the older ones (trimmed once it is noted). */
  newBatch(): string {
    return crypto.randomUUID()
  }

  /** The actions that can be undone, newest first (an import still writing is not one yet). */
  async history(): Promise<SkuActionRecord[]> {
    return (await this.db.skuActions.orderBy('seq').reverse().toArray()).filter((action) => !action.writing)
  }

  /**
   * The batch Ctrl+Z would undo now, if any. Read from the database rather than from the snackbar,
   * so Ctrl+Z still undoes after the snackbar went, and after a restart.
   */
  async latestBatch(): Promise<string | undefined> {
    return (await this.db.skuActions.orderBy('seq').last())?.batch
  }

  /**
   * Runs a bulk action in one transaction with a new undo batch, and adds it to the history
   * (`describe` names it from its result) when it changed anything, trimming the oldest beyond the
   * budget. The asset checks are in it too: a draft that goes takes its last check with it. `at`
   * is the action's time, the caller's as every time the database writes is (`BulkOptions.now`).
   */
  inBulkTransaction<T extends { count: number }>(
    describe: (result: T) => Omit<ActionNote, 'batch' | 'at'>,
    action: (batch: string) => Promise<T>,
    at: number,
  ): Promise<T> {
    const { db } = this
    return db.transaction('rw', undoTables(db), async () => {
      const batch = this.newBatch()
      const result = await action(batch)
      if (result.count > 0) {
        await db.skuActions.add({ batch, at, ...describe(result) })
        await this.trim()
      }
      return result
    })
  }

  /**
   * Undoes every action newer than `batch`, newest first, then `batch` itself, in one
   * transaction: all of them or none. Refused when the action is no longer in the history,
   * or an import newer than it is still writing.
   */
  undoThrough(batch: string, options: BulkOptions = {}): Promise<UndoneActions> {
    const { db } = this
    return db.transaction('rw', undoTables(db), async () => {
      const target = await db.skuActions.where('batch').equals(batch).first()
      if (!target) throw new UndoRefusal('That action is no longer in the undo history.')
      const newer = await db.skuActions.where('seq').aboveOrEqual(target.seq!).reverse().toArray()
      if (newer.some((action) => action.writing))
        throw new UndoRefusal('An import is still being written: it can be undone once it ends.')
      const outcomes: Outcomes = new Map()
      for (const action of newer) await this.undoBatch(action.batch, options, outcomes)
      return { actions: newer.length, result: tally(outcomes), removedIds: removedIn(outcomes) }
    })
  }

  /**
   * Drops the oldest actions beyond the budget, with their entries, inside the caller's
   * transaction (on `db`: an import's chunk writes through a connection of its own). The newest is
   * kept whole whatever its size; once one is dropped every older one goes too (a history with a
   * hole could not be walked back through). An import still writing is never dropped: its own
   * rollback needs its entries.
   */
  async trim(db: CatalogDatabase = this.db): Promise<void> {
    const actions = await db.skuActions.orderBy('seq').reverse().toArray()
    let kept = 0
    let dropping = false
    for (const [i, action] of actions.entries()) {
      kept += action.kept
      dropping ||= i > 0 && (i >= this.budget.actions || kept > this.budget.keptDrafts)
      if (!dropping || action.writing) continue
      await db.skuUndo.where('batch').equals(action.batch).delete()
      await db.skuActions.delete(action.seq!)
    }
  }

  /** Undoes the newest action (Ctrl+Z): undefined when the history is empty. */
  async undoLatest(options: BulkOptions = {}): Promise<UndoneActions | undefined> {
    const batch = await this.latestBatch()
    return batch === undefined ? undefined : this.undoThrough(batch, options)
  }

  /**
   * Undoes one batch in one transaction, and takes its action out of the history: deleted and
   * changed drafts come back exactly as they were (ids, payloads, timestamps), copies go. A draft
   * edited after the action is left as it is. Whatever newer actions there are: for an import's
   * rollback of itself, and for `undoThrough`, which goes newest first.
   */
  async undo(batch: string, options: BulkOptions = {}): Promise<UndoResult> {
    const outcomes: Outcomes = new Map()
    await this.undoBatch(batch, options, outcomes)
    return tally(outcomes)
  }

  /** `undo`, noting what became of each draft in `outcomes`. */
  private undoBatch(batch: string, { onProgress }: BulkOptions, outcomes: Outcomes): Promise<void> {
    const { db } = this
    return db.transaction('rw', undoTables(db), async () => {
      const keys = await this.db.skuUndo.where('batch').equals(batch).primaryKeys()
      const isList = ([, id]: [string, string]) => id.startsWith(CREATED_ENTRY)
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
              outcomes,
            )
          } else {
            ownEntry.add(entry.id)
            await this.putBack([entry], outcomes)
          }
        }
        await this.db.skuUndo.bulkDelete(chunk)
        done += chunk.length
        onProgress?.(done, keys.length)
      }
      await this.db.skuActions.where('batch').equals(batch).delete()
    })
  }

  /**
   * Undoes undo entries inside the caller's transaction: a draft changed or deleted by the action
   * comes back as it was, one it created goes, one edited since the action is left alone.
   */
  private async putBack(
    entries: readonly Pick<SkuUndoRecord, 'id' | 'before' | 'writtenAt'>[],
    outcomes: Outcomes,
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
        const written = entry.before && withoutRefusals(entry.before.sync, entry.before.payload).sync
        if (current && !sameStandings(current.sync, written)) note(outcomes, entry.id, 'keptSent')
        else if (!untouched) note(outcomes, entry.id, 'keptEdited')
        else if (entry.before) {
          restore.push(entry.before)
          note(outcomes, entry.id, 'restored')
        } else if (current) {
          remove.push(entry.id)
          note(outcomes, entry.id, 'removed')
        }
      })
      const current = new Map(currents.flatMap((draft) => (draft ? [[draft.id, draft] as const] : [])))
      await this.db.skuDrafts.bulkPut(await putBackForTeam(this.db, 'skus', restore, current))
      await noteDeleted(
        this.db,
        'skus',
        remove.map((id) => current.get(id)!),
        systemClock.now(),
      )
      await this.db.skuDrafts.bulkDelete(remove)
      await this.db.assetChecks.bulkDelete(remove)
    }
  }
}
