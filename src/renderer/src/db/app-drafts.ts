import { isLive, keptFromDeleting } from '#shared/sync/standing.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import { appDraftColumns } from '#shared/apps/validate-app-draft.ts'
import { newAppPayload } from '#shared/apps/defaults.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import type { CatalogDatabase } from './database.ts'
import { db } from './index.ts'
import type { AppDraftRecord } from './records.ts'
import { DraftRepository, unsentDraft } from './draft-repository.ts'
import { noteDeleted, putBack } from './team-exchange.ts'

/** What is appended to a duplicate's name, to tell it apart from its original in the list. */
export const APP_COPY_SUFFIX = ' (copy)'

/**
 * Reads and writes app drafts: the only code that writes the `appDrafts` table. App drafts are
 * few (a brand has a handful of apps), so the list reads them all and undo of a delete keeps the
 * deleted record in memory (see the store) rather than in an undo table.
 */
export class AppDraftRepository extends DraftRepository<AppDraftRecord> {
  constructor(database: CatalogDatabase) {
    super(database, database.appDrafts)
  }

  /**
   * A new, never-sent draft; from the console's defaults unless a payload is given. One made by
   * "New app" (`untouchedNew`, the default) is marked so (`isUntouchedNew`): left untouched, it is
   * discarded.
   */
  create(
    payload: AppCreateRequest = newAppPayload(),
    now = systemClock.now(),
    untouchedNew = true,
  ): Promise<AppDraftRecord> {
    return this.add({
      ...unsentDraft(payload, now, appDraftColumns(payload)),
      ...(untouchedNew ? { untouchedNew } : {}),
    })
  }

  /** App drafts are few: all are read. */
  protected mayBeUntouchedNew(): Promise<AppDraftRecord[]> {
    return this.db.appDrafts.toArray()
  }

  /** Every app draft, most recently edited first. */
  all(): Promise<AppDraftRecord[]> {
    return this.db.appDrafts.orderBy('updatedAt').reverse().toArray()
  }

  /**
   * A copy of a draft in any sync state: a new id, new timestamps, sent nowhere, and " (copy)"
   * after the name. Only the payload is copied: what sync wrote about the original is not.
   */
  async duplicate(id: string, now = systemClock.now()): Promise<AppDraftRecord> {
    const original = await this.db.appDrafts.get(id)
    if (!original) throw new Error('This app draft no longer exists.')
    // Copied, the original is kept as it is too: the person chose it.
    if (original.untouchedNew) await this.db.appDrafts.update(id, { untouchedNew: false })
    const payload = structuredClone(original.payload)
    if (typeof payload.name === 'string' && payload.name) payload.name += APP_COPY_SUFFIX
    // A copy is kept as it is, touched or not: the person chose it.
    return this.create(payload, now, false)
  }

  /**
   * Deletes a draft and returns it as it was, for undo. Drafts being sent, or sent beyond the
   * built-in Sandbox, are refused: what sync recorded about them stays.
   */
  delete(id: string, now = systemClock.now()): Promise<AppDraftRecord> {
    return this.db.transaction('rw', [this.db.appDrafts, this.db.teamDeletions], async () => {
      const current = await this.db.appDrafts.get(id)
      if (!current) throw new Error('This app draft no longer exists.')
      if (isLive(current.sync)) throw new Error('This app is being sent; it can go once its run has ended.')
      if (keptFromDeleting(current.sync))
        throw new Error('This app has been sent; its record is kept, so it is never created twice.')
      await noteDeleted(this.db, 'apps', [current], now)
      await this.db.appDrafts.delete(id)
      return current
    })
  }

  /** Puts a deleted draft back exactly as it was (id and timestamps included). */
  restore(record: AppDraftRecord): Promise<void> {
    const { appDrafts, teamDeletions } = this.db
    return this.db.transaction('rw', [appDrafts, teamDeletions], async () => {
      const [back] = await putBack(this.db, 'apps', [record], new Map())
      // `add`, not `put`: a draft that somehow took the id since is never overwritten.
      await appDrafts.add(back!)
    })
  }
}

export const appDrafts = new AppDraftRepository(db)
