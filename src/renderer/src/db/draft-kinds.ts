import type { Table } from 'dexie'
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
}

const STORED_KINDS: Readonly<Record<SyncKind, StoredKind>> = {
  skus: {
    definition: SKU_KIND,
    table: (db) => db.skuDrafts as unknown as Table<DraftRow, string>,
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
