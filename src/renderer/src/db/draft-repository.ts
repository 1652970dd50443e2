import type { EntityTable, Table } from 'dexie'
import type { CatalogDatabase } from './database.ts'
import type { DraftMeta } from './records.ts'
import { isUntouchedNew, sweepEach } from './untouched-new.ts'

/** A draft that has never been sent, with a new id, made at `now`: what either kind starts as. */
export function unsentDraft<P, C extends object>(
  payload: P,
  now: number,
  columns: C,
): Pick<DraftMeta, 'id' | 'createdAt' | 'updatedAt' | 'sync' | 'standing'> & { payload: P } & C {
  return {
    id: crypto.randomUUID(),
    payload,
    createdAt: now,
    updatedAt: now,
    sync: {},
    standing: [],
    ...columns,
  }
}

/**
 * What the SKU and app draft repositories do alike (sku-drafts.ts, app-drafts.ts): read a draft,
 * add a new one, and discard the "New SKU" / "New app" drafts left untouched (`isUntouchedNew`),
 * one as its editor is left or all at the next start. Saving is one function for both kinds
 * (`saveDraftPayload`, stored-kinds.ts).
 */
export abstract class DraftRepository<R extends DraftMeta> {
  protected readonly db: CatalogDatabase
  private readonly drafts: Table<R, string>
  /** Tables keyed by draft id whose row goes with a discarded draft (a SKU's asset check). */
  private readonly beside: Table[]

  protected constructor(db: CatalogDatabase, drafts: EntityTable<R, 'id'>, beside: Table[] = []) {
    this.db = db
    // Keyed by `id`, a string: what Dexie's EntityTable says only of a record type it knows.
    this.drafts = drafts as unknown as Table<R, string>
    this.beside = beside
  }

  get(id: string): Promise<R | undefined> {
    return this.drafts.get(id)
  }

  protected async add(record: R): Promise<R> {
    await this.drafts.add(record)
    return record
  }

  /**
   * Deletes a draft made by "New SKU" or "New app" and left untouched (`isUntouchedNew`), with
   * what is kept beside it; whether it was deleted. Nothing to undo: it held nothing anyone typed.
   */
  discardUntouchedNew(id: string): Promise<boolean> {
    return this.db.transaction('rw', [this.drafts, ...this.beside], async () => {
      const record = await this.drafts.get(id)
      if (!record || !isUntouchedNew(record)) return false
      await this.drafts.delete(id)
      for (const table of this.beside) await table.delete(id)
      return true
    })
  }

  /** The drafts among which the untouched new ones are: found the cheapest way each kind allows. */
  protected abstract mayBeUntouchedNew(): Promise<R[]>

  /**
   * Deletes every untouched new draft that `free` lets go (it keeps those an editor holds open),
   * but `keep`; how many.
   */
  async sweepUntouchedNew(
    free: (id: string, work: () => Promise<boolean>) => Promise<boolean>,
    keep?: string,
  ): Promise<number> {
    const candidates = await this.mayBeUntouchedNew()
    const ids = candidates
      .filter((draft) => draft.id !== keep && isUntouchedNew(draft))
      .map((draft) => draft.id)
    return sweepEach(ids, (id) => this.discardUntouchedNew(id), free)
  }
}
