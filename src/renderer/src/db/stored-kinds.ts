import type { Table } from 'dexie'
import { appDraftColumns } from '#shared/apps/validate-app-draft.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { APP_KIND, SKU_KIND, type DraftKind } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { isLive, standingTags, type DraftSync } from '#shared/sync/standing.ts'
import type { Validity } from '#shared/validation/problem.ts'
import type { CatalogDatabase } from './database.ts'
import type { TeamStanding } from './records.ts'
import type { EditBase } from '#shared/team/draft-exchange.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/** A stored draft of either kind, as the sync code reads and writes it. */
export interface DraftRow {
  id: string
  sync: DraftSync
  standing: string[]
  validity: Validity
  updatedAt: number
  payload: unknown
  team?: TeamStanding
}

/**
 * What the app's database adds to a kind's definition (src/shared/sync/kinds.ts): the table its
 * drafts live in, whose standings follow its run items', and how its unsent drafts with errors
 * are counted.
 */
export interface StoredKind {
  readonly definition: DraftKind
  table(db: CatalogDatabase): Table<DraftRow, string>
  /** Drafts with errors that are neither sent to `destination` nor in a run: left out of a run there. */
  countInvalidUnsent(db: CatalogDatabase, destination: string): Promise<number>
  /** The columns a stored draft derives from its payload (validity, the lists' columns, search words). */
  columns(payload: unknown): object
  /** Tables keyed by draft id whose row goes with a deleted draft (a SKU's asset check). */
  beside(db: CatalogDatabase): Table[]
}

const STORED_KINDS: Readonly<Record<SyncKind, StoredKind>> = {
  skus: {
    definition: SKU_KIND,
    table: (db) => db.skuDrafts as unknown as Table<DraftRow, string>,
    columns: (payload) => draftColumns(payload as Sku),
    beside: (db) => [db.assetChecks],
    // Invalid drafts are few: read those on the validity index, not the thousands that are fine.
    countInvalidUnsent: (db, destination) =>
      db.skuDrafts
        .where('validity')
        .equals('invalid')
        .filter((draft) => unsent(draft, destination))
        .count(),
  },
  apps: {
    definition: APP_KIND,
    table: (db) => db.appDrafts as unknown as Table<DraftRow, string>,
    columns: (payload) => appDraftColumns(payload as AppCreateRequest),
    beside: () => [],
    // App drafts are few, and their table has no validity index: they are read.
    countInvalidUnsent: (db, destination) =>
      db.appDrafts.filter((draft) => draft.validity === 'invalid' && unsent(draft, destination)).count(),
  },
}

/** Neither sent to `destination` nor held by a run. */
function unsent(draft: Pick<DraftRow, 'sync'>, destination: string): boolean {
  return draft.sync[destination] === undefined && !isLive(draft.sync)
}

export function storedKind(kind: SyncKind): StoredKind {
  return STORED_KINDS[kind]
}

/**
 * Replaces a draft's payload as written, with the columns derived from it; fails, in the kind's
 * words, if the draft is gone or held by a run (queued or being sent: what is read for sending
 * must not change). A draft sent before stays editable: what was sent where is kept with its runs,
 * to compare with. A refusal is about what was refused, so an edit offers the draft again where
 * it was refused.
 */
export function saveDraftPayload<R extends DraftRow>(
  db: CatalogDatabase,
  kind: SyncKind,
  id: string,
  payload: R['payload'],
  now = systemClock.now(),
  based?: EditBase,
): Promise<R> {
  const { definition, table, columns } = storedKind(kind)
  const drafts = table(db) as unknown as Table<R, string>
  return db.transaction('rw', drafts, async () => {
    const current = await drafts.get(id)
    if (!current) throw new Error(`This ${definition.draftNoun} no longer exists.`)
    if (isLive(current.sync))
      throw new Error(`This ${definition.listNoun} is being sent; edit it once its run has ended.`)
    const next = {
      ...current,
      payload,
      updatedAt: now,
      ...columns(payload),
      ...withoutRefusals(current.sync, payload),
      ...editedOn(current, based),
    }
    await drafts.put(next)
    return next
  })
}

/**
 * The team standing an edit leaves: the draft's own, unless another desk's version replaced the
 * one the editor showed meanwhile (other fields than it saved). Then the edit is shared on the
 * revision it was made on, and the team workspace keeps both versions: never one silently over
 * the other.
 */
function editedOn(current: DraftRow, based: EditBase | undefined): Pick<DraftRow, 'team'> {
  const replaced =
    based !== undefined &&
    current.team !== undefined &&
    based.rev !== undefined &&
    current.team.rev !== based.rev &&
    JSON.stringify(current.payload) !== JSON.stringify(based.payload)
  return replaced ? { team: { ...current.team!, rev: based.rev!, sharedAt: -1 } } : {}
}

/**
 * A draft's sync columns with its refusals cleared, for its new `payload`: edited, it may be sent
 * again where it was refused (a refused creation is forgotten; a refused update holds back only
 * the content it refused, see `isChangedSince`), and it may be "changed since sent" where it was created.
 */
export function withoutRefusals(sync: DraftSync, payload: unknown): { sync: DraftSync; standing: string[] } {
  const kept = Object.fromEntries(
    Object.entries(sync).filter(([, standing]) => standing.state !== 'rejected'),
  )
  return { sync: kept, standing: standingTags(kept, payload) }
}
