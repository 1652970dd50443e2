import type { Table } from 'dexie'
import { appDraftColumns } from '#shared/apps/validate-app-draft.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { APP_KIND, SKU_KIND, type DraftKind } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { SyncState } from '#shared/sync-state.ts'
import type { Validity } from '#shared/validation/problem.ts'
import type { CatalogDatabase } from './database.ts'

/** A stored draft of either kind, as the sync code reads and writes it. */
export interface DraftRow {
  id: string
  syncState: SyncState
  validity: Validity
  updatedAt: number
  payload: unknown
}

/**
 * What the app's database adds to a kind's definition (src/shared/sync/kinds.ts): the table its
 * drafts live in, whose `syncState` mirrors its run items', and how its unsent drafts with errors
 * are counted.
 */
export interface StoredKind {
  readonly definition: DraftKind
  table(db: CatalogDatabase): Table<DraftRow, string>
  /** Drafts in the draft state with errors, counted without reading every draft where an index allows. */
  countInvalidUnsent(db: CatalogDatabase): Promise<number>
  /** The columns a stored draft derives from its payload (validity, the lists' columns, search words). */
  columns(payload: unknown): object
}

const STORED_KINDS: Readonly<Record<SyncKind, StoredKind>> = {
  skus: {
    definition: SKU_KIND,
    table: (db) => db.skuDrafts as unknown as Table<DraftRow, string>,
    columns: (payload) => draftColumns(payload as Sku),
    // Invalid drafts are few: read those on the validity index, not the thousands that are fine.
    countInvalidUnsent: (db) =>
      db.skuDrafts
        .where('validity')
        .equals('invalid')
        .filter((draft) => draft.syncState === 'draft')
        .count(),
  },
  apps: {
    definition: APP_KIND,
    table: (db) => db.appDrafts as unknown as Table<DraftRow, string>,
    columns: (payload) => appDraftColumns(payload as AppCreateRequest),
    // App drafts are few, and their table has no validity index: the unsent ones are read.
    countInvalidUnsent: (db) =>
      db.appDrafts
        .where('syncState')
        .equals('draft')
        .filter((draft) => draft.validity === 'invalid')
        .count(),
  },
}

export function storedKind(kind: SyncKind): StoredKind {
  return STORED_KINDS[kind]
}

/**
 * Replaces a draft's payload as written, with the columns derived from it; fails, in the kind's
 * words, if the draft is gone or no longer editable (sent or being sent).
 */
export function saveDraftPayload<R extends DraftRow>(
  db: CatalogDatabase,
  kind: SyncKind,
  id: string,
  payload: R['payload'],
  now = Date.now(),
): Promise<R> {
  const { definition, table, columns } = storedKind(kind)
  const drafts = table(db) as unknown as Table<R, string>
  return db.transaction('rw', drafts, async () => {
    const current = await drafts.get(id)
    if (!current) throw new Error(`This ${definition.draftNoun} no longer exists.`)
    if (current.syncState !== 'draft')
      throw new Error(`This ${definition.listNoun} has been sent and can no longer be edited.`)
    const next = { ...current, payload, updatedAt: now, ...columns(payload) }
    await drafts.put(next)
    return next
  })
}
