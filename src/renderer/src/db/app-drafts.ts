import { wasSent } from '#shared/sync-state.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import { appDraftColumns } from '#shared/apps/validate-app-draft.ts'
import { newAppPayload } from '#shared/apps/defaults.ts'
import type { CatalogDatabase } from './database.ts'
import { db } from './index.ts'
import type { AppDraftRecord } from './records.ts'

/** What is appended to a duplicate's name, to tell it apart from its original in the list. */
export const APP_COPY_SUFFIX = ' (copy)'

/**
 * Reads and writes app drafts: the only code that writes the `appDrafts` table. App drafts are
 * few (a brand has a handful of apps), so the list reads them all and undo of a delete keeps the
 * deleted record in memory (see the store) rather than in an undo table.
 */
export class AppDraftRepository {
  private readonly db: CatalogDatabase

  constructor(database: CatalogDatabase) {
    this.db = database
  }

  /** A new, never-sent draft; from the console's defaults unless a payload is given. */
  async create(payload: AppCreateRequest = newAppPayload(), now = Date.now()): Promise<AppDraftRecord> {
    const record: AppDraftRecord = {
      id: crypto.randomUUID(),
      payload,
      createdAt: now,
      updatedAt: now,
      sync: {},
      standing: [],
      ...appDraftColumns(payload),
    }
    await this.db.appDrafts.add(record)
    return record
  }

  get(id: string): Promise<AppDraftRecord | undefined> {
    return this.db.appDrafts.get(id)
  }

  /**
   * Deletes a draft never changed since it was made (no save since, sent nowhere): a new app left
   * as it came. Whether it was deleted. Nothing to undo: it held nothing anyone typed.
   */
  discardUntouched(id: string): Promise<boolean> {
    return this.db.transaction('rw', this.db.appDrafts, async () => {
      const record = await this.db.appDrafts.get(id)
      if (!record || record.updatedAt !== record.createdAt || Object.keys(record.sync).length > 0)
        return false
      await this.db.appDrafts.delete(id)
      return true
    })
  }

  /** Every app draft, most recently edited first. */
  all(): Promise<AppDraftRecord[]> {
    return this.db.appDrafts.orderBy('updatedAt').reverse().toArray()
  }

  /**
   * A copy of a draft in any sync state: a new id, new timestamps, sent nowhere, and " (copy)"
   * after the name. Only the payload is copied: what sync wrote about the original is not.
   */
  async duplicate(id: string, now = Date.now()): Promise<AppDraftRecord> {
    const original = await this.db.appDrafts.get(id)
    if (!original) throw new Error('This app draft no longer exists.')
    const payload = structuredClone(original.payload)
    if (typeof payload.name === 'string' && payload.name) payload.name += APP_COPY_SUFFIX
    return this.create(payload, now)
  }

  /**
   * Deletes a draft and returns it as it was, for undo. Drafts sent or being sent are refused:
   * what sync recorded about them stays.
   */
  delete(id: string): Promise<AppDraftRecord> {
    return this.db.transaction('rw', this.db.appDrafts, async () => {
      const current = await this.db.appDrafts.get(id)
      if (!current) throw new Error('This app draft no longer exists.')
      if (wasSent(current.sync))
        throw new Error('This app has been sent; its record is kept, so it is never created twice.')
      await this.db.appDrafts.delete(id)
      return current
    })
  }

  /** Puts a deleted draft back exactly as it was (id and timestamps included). */
  async restore(record: AppDraftRecord): Promise<void> {
    // `add`, not `put`: a draft that somehow took the id since is never overwritten.
    await this.db.appDrafts.add(record)
  }
}

export const appDrafts = new AppDraftRepository(db)
