import type { Table } from 'dexie'
import type { DraftArrival, DraftShare, DraftShared, TeamArrivals } from '#shared/team/draft-exchange.ts'
import { EXCHANGE_BATCH } from '#shared/team/draft-exchange.ts'
import type { SharedKind } from '#shared/team/shared-documents.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { CatalogDatabase } from './database.ts'
import { unsentDraft } from './draft-repository.ts'
import type { DraftMeta, TeamExchangeRecord, TeamStanding } from './records.ts'
import { isUntouchedNew } from './untouched-new.ts'
import { storedKind, withoutRefusals } from './stored-kinds.ts'

// The page's side of the team workspace's exchange (issue #41): which drafts this desk edited
// since the workspace had them, what the replica made of them, and what arrived from it, applied
// to the drafts. Main's side and the checks of what arrives: src/node/team/draft-exchange.ts.

/** A stored draft of either kind, as the exchange reads and writes it. */
type Draft = DraftMeta & { payload: unknown }

export const EXCHANGED_KINDS: readonly SyncKind[] = ['skus', 'apps']
const SHARED_KIND: Readonly<Record<SyncKind, SharedKind>> = { skus: 'sku', apps: 'app' }
const KIND_OF: Readonly<Record<SharedKind, SyncKind>> = { sku: 'skus', app: 'apps' }

const table = (db: CatalogDatabase, kind: SyncKind) =>
  storedKind(kind).table(db) as unknown as Table<Draft, string>

/** Where the exchange stands: from the start of the workspace's changes, nothing shared yet. */
export async function exchangeState(db: CatalogDatabase): Promise<TeamExchangeRecord> {
  return (
    (await db.teamExchange.get('exchange')) ?? {
      key: 'exchange',
      since: '0',
      sharedFrom: { skus: 0, apps: 0 },
    }
  )
}

/**
 * The exchange's state belongs to one workspace (its sequences are its replica's, the drafts'
 * revisions its documents'): joined to another, the drafts' standings there, the deletions to share
 * and the sequences start over. The drafts stay, and are shared with the new workspace.
 */
export async function forWorkspace(db: CatalogDatabase, url: string): Promise<void> {
  if ((await exchangeState(db)).workspace === url) return
  const tables = EXCHANGED_KINDS.map((kind) => table(db, kind))
  await db.transaction('rw', [...tables, db.teamDeletions, db.teamExchange], async () => {
    for (const drafts of tables)
      await drafts
        .filter((draft) => draft.team !== undefined)
        .modify((draft) => {
          delete draft.team
        })
    await db.teamDeletions.clear()
    await db.teamExchange.put({
      key: 'exchange',
      workspace: url,
      since: '0',
      sharedFrom: { skus: 0, apps: 0 },
    })
  })
}

/** Edited here since the workspace had it (or never shared), and not a "New" draft left untouched. */
const waitingToShare = (draft: Draft) => !isUntouchedNew(draft) && draft.updatedAt !== draft.team?.sharedAt

/** A share as the page keeps it until the replica answers: with the `updatedAt` it was read at. */
export type WaitingShare = DraftShare & { updatedAt: number }

/**
 * What of `kind` waits to be shared, at most a batch: the deletions made here first, then the
 * drafts edited here, oldest edit first (read from `sharedFrom` up, the edits before it having
 * been shared), each on the revision it was based on.
 */
export async function waitingShares(db: CatalogDatabase, kind: SyncKind): Promise<WaitingShare[]> {
  const deletions = await db.teamDeletions
    .filter((deletion) => deletion.kind === kind && deletion.rev === undefined)
    .limit(EXCHANGE_BATCH)
    .toArray()
  const { sharedFrom } = await exchangeState(db)
  const drafts = await table(db, kind)
    .where('updatedAt')
    .aboveOrEqual(sharedFrom[kind])
    .filter(waitingToShare)
    .limit(EXCHANGE_BATCH - deletions.length)
    .toArray()
  return [
    ...deletions.map((deletion) => ({
      kind: SHARED_KIND[kind],
      id: deletion.id,
      base: deletion.base,
      payload: {},
      deleted: true,
      editedAt: deletion.deletedAt,
      updatedAt: deletion.deletedAt,
    })),
    ...drafts.map((draft) => ({
      kind: SHARED_KIND[kind],
      id: draft.id,
      ...(draft.team ? { base: draft.team.rev } : {}),
      payload: draft.payload as Record<string, unknown>,
      deleted: false,
      editedAt: draft.updatedAt,
      updatedAt: draft.updatedAt,
    })),
  ]
}

/**
 * Records what the replica made of `shares` (as `editedBy`, the desk's name there): each draft not
 * edited again meanwhile takes its new revision, each deletion its own; one written beside a later
 * version counts one more conflict. The drafts before the last one shared need not be read again.
 */
export function recordShared(
  db: CatalogDatabase,
  kind: SyncKind,
  shares: readonly WaitingShare[],
  answers: readonly DraftShared[],
  editedBy: string,
): Promise<void> {
  const drafts = table(db, kind)
  return db.transaction('rw', [drafts, db.teamDeletions, db.teamExchange], async () => {
    const shared = new Map(shares.map((share) => [share.id, share]))
    for (const answer of answers) {
      const share = shared.get(answer.id)
      if (!share) continue
      if (share.deleted) {
        const deletion = await db.teamDeletions.get(deletionKey(kind, answer.id))
        if (deletion) await db.teamDeletions.put({ ...deletion, rev: answer.rev })
        continue
      }
      const draft = await drafts.get(answer.id)
      if (!draft) continue
      // Edited again while it was being shared: that edit is shared next, on this revision.
      const edited = draft.updatedAt !== share.updatedAt
      const team: TeamStanding = {
        rev: answer.rev,
        sharedAt: edited ? (draft.team?.sharedAt ?? -1) : draft.updatedAt,
        editedBy,
        editedAt: share.updatedAt,
        conflicts: (draft.team?.conflicts ?? 0) + (answer.conflict ? 1 : 0),
      }
      await drafts.put({ ...draft, team })
    }
    const state = await exchangeState(db)
    const edits = shares.filter((share) => !share.deleted).map((share) => share.updatedAt)
    const last = Math.max(state.sharedFrom[kind], ...edits)
    await db.teamExchange.put({ ...state, sharedFrom: { ...state.sharedFrom, [kind]: last } })
  })
}

const deletionKey = (kind: SyncKind, id: string) => `${kind}:${id}`

/**
 * Notes drafts deleted here that the workspace has (a `team`), so their deletion is shared: call
 * in the transaction that deletes them, with `teamDeletions` in it. A draft never shared leaves
 * nothing to tell.
 */
export async function noteDeleted(
  db: CatalogDatabase,
  kind: SyncKind,
  deleted: ReadonlyArray<Pick<DraftMeta, 'id' | 'team'>>,
  now: number,
): Promise<void> {
  await db.teamDeletions.bulkPut(
    deleted.flatMap(({ id, team }) =>
      team ? [{ key: deletionKey(kind, id), kind, id, base: team.rev, deletedAt: now }] : [],
    ),
  )
}

/**
 * Drafts an undo puts back as they were (`records`, the drafts as they are now in `current`, absent
 * when deleted): to the workspace, putting back is an edit like any other. A deletion not shared yet
 * is forgotten (the workspace never heard of it); otherwise a draft the workspace has is shared
 * again, on the latest revision this desk knows of it (the deletion's, or the edit's undone), and
 * the scan for drafts waiting to be shared starts low enough to find it. Call in the transaction
 * that puts them back, with `teamDeletions` and `teamExchange` in it; answers the records to write.
 */
export async function putBack<R extends DraftMeta>(
  db: CatalogDatabase,
  kind: SyncKind,
  records: readonly R[],
  current: ReadonlyMap<string, Pick<DraftMeta, 'team'>>,
): Promise<R[]> {
  const written: R[] = []
  let lowest = Infinity
  for (const record of records) {
    const key = deletionKey(kind, record.id)
    const deletion = await db.teamDeletions.get(key)
    if (deletion) await db.teamDeletions.delete(key)
    const unshared = deletion !== undefined && deletion.rev === undefined
    if (!record.team || unshared) {
      written.push(record)
      continue
    }
    const rev = current.get(record.id)?.team?.rev ?? deletion?.rev ?? record.team.rev
    written.push({ ...record, team: { ...record.team, rev, sharedAt: -1 } })
    lowest = Math.min(lowest, record.updatedAt)
  }
  if (lowest !== Infinity) {
    const state = await exchangeState(db)
    if (lowest < state.sharedFrom[kind])
      await db.teamExchange.put({ ...state, sharedFrom: { ...state.sharedFrom, [kind]: lowest } })
  }
  return written
}

/** How many drafts of each kind the arrivals changed here (the lists read theirs again). */
export type ArrivalsApplied = Record<SyncKind, number>

/**
 * Applies what arrived from the workspace and keeps the sequence after it, in one transaction, so
 * a crash replays the arrivals from where the drafts are. A draft edited (or deleted) here and not
 * shared yet is left as it is: its edit (or deletion) is shared next on
 * the revision it was based on, and the workspace keeps both versions as a conflict. Otherwise the
 * arrived version replaces the draft (its send standings here kept; an editor open on it follows,
 * or saves its pending edit on the version it was made on: `EditBase`), a new one is added, and a
 * version that says "deleted" deletes it.
 */
export function applyArrivals(
  db: CatalogDatabase,
  { arrivals, last }: Pick<TeamArrivals, 'arrivals' | 'last'>,
  now: number,
): Promise<ArrivalsApplied> {
  const tables = EXCHANGED_KINDS.map((kind) => table(db, kind))
  const beside = EXCHANGED_KINDS.flatMap((kind) => storedKind(kind).beside(db))
  return db.transaction('rw', [...tables, ...beside, db.teamDeletions, db.teamExchange], async () => {
    const applied: ArrivalsApplied = { skus: 0, apps: 0 }
    for (const arrival of arrivals) {
      const kind = KIND_OF[arrival.kind]
      if (await applyArrival(db, kind, arrival, now)) applied[kind]++
    }
    await db.teamExchange.put({ ...(await exchangeState(db)), since: last })
    return applied
  })
}

/** One arrival; whether it changed the draft as the list shows it. */
async function applyArrival(db: CatalogDatabase, kind: SyncKind, arrival: DraftArrival, now: number) {
  const drafts = table(db, kind)
  const draft = await drafts.get(arrival.id)
  const team: TeamStanding = {
    rev: arrival.rev,
    sharedAt: now,
    editedBy: arrival.editedBy ?? '',
    editedAt: arrival.editedAt ?? now,
    conflicts: arrival.conflicts,
  }
  if (draft?.team?.rev === arrival.rev) {
    // This desk's own version, back from the workspace: only its conflicts may have changed.
    if (draft.team.conflicts === arrival.conflicts) return false
    await drafts.put({ ...draft, team: { ...draft.team, conflicts: arrival.conflicts } })
    return true
  }
  if (draft && waitingToShare(draft)) return false
  const deletion = await db.teamDeletions.get(deletionKey(kind, arrival.id))
  // Deleted here, and the deletion not shared yet: it goes on the revision the draft had, and the
  // workspace keeps it beside this version. Its own deletion coming back is nothing new either.
  if (deletion && (deletion.rev === undefined || deletion.rev === arrival.rev)) return false
  if (deletion) await db.teamDeletions.delete(deletion.key)
  if (arrival.deleted || !arrival.payload) {
    if (!draft) return false
    await drafts.delete(arrival.id)
    for (const other of storedKind(kind).beside(db)) await other.delete(arrival.id)
    return true
  }
  const { payload } = arrival
  // The kind's columns carry what a stored draft derives from its payload (validity, counts).
  const columns = storedKind(kind).columns(payload) as Partial<Draft>
  await drafts.put(
    draft
      ? { ...draft, payload, updatedAt: now, ...columns, ...withoutRefusals(draft.sync, payload), team }
      : ({ ...unsentDraft(payload, now, columns), id: arrival.id, team } as Draft),
  )
  return true
}

/**
 * Writes here what settling a conflict kept (`settleConflict` in main answered `rev`): the draft
 * takes the kept fields, or goes when the deletion was kept, and has one version again.
 */
export function applySettled(
  db: CatalogDatabase,
  kind: SyncKind,
  id: string,
  {
    kept,
    rev,
    editedBy,
  }: { kept: { payload: Record<string, unknown>; deleted: boolean }; rev: string; editedBy: string },
  now: number,
): Promise<void> {
  const drafts = table(db, kind)
  const beside = storedKind(kind).beside(db)
  return db.transaction('rw', [drafts, ...beside, db.teamDeletions], async () => {
    const draft = await drafts.get(id)
    await db.teamDeletions.delete(deletionKey(kind, id))
    if (kept.deleted) {
      await drafts.delete(id)
      for (const other of beside) await other.delete(id)
      return
    }
    const team: TeamStanding = { rev, sharedAt: now, editedBy, editedAt: now, conflicts: 0 }
    const columns = storedKind(kind).columns(kept.payload) as Partial<Draft>
    await drafts.put(
      draft
        ? {
            ...draft,
            payload: kept.payload,
            updatedAt: now,
            ...columns,
            ...withoutRefusals(draft.sync, kept.payload),
            team,
          }
        : ({ ...unsentDraft(kept.payload, now, columns), id, team } as Draft),
    )
  })
}
