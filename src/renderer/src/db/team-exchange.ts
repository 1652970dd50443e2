import type { Table } from 'dexie'
import type { DraftArrival, DraftShare, DraftShared, TeamArrivals } from '#shared/team/draft-exchange.ts'
import { EXCHANGE_BATCH } from '#shared/team/draft-exchange.ts'
import { DRAFT_KIND_OF, SHARED_KIND } from '#shared/team/shared-documents.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { CatalogDatabase } from './database.ts'
import { unsentDraft } from './draft-repository.ts'
import type { DraftMeta, TeamDeletionRecord, TeamExchangeRecord, TeamStanding } from './records.ts'
import { applySendRecords, sendRecordTables } from './team-send-records.ts'
import { isWaitingToShare } from './team-waiting.ts'
import { storedKind, withoutRefusals } from './stored-kinds.ts'

// The page's side of the team workspace's exchange (issue #41): which drafts this desk edited
// since the workspace had them, what the replica made of them, and what arrived from it, applied
// to the drafts. Main's side and the checks of what arrives: src/node/team/draft-exchange.ts.

/** A stored draft of either kind, as the exchange reads and writes it. */
type Draft = DraftMeta & { payload: unknown }

export const EXCHANGED_KINDS: readonly SyncKind[] = ['skus', 'apps']

const table = (db: CatalogDatabase, kind: SyncKind) =>
  storedKind(kind).table(db) as unknown as Table<Draft, string>

/** Where the exchange stands: from the start of the workspace's changes. */
export async function exchangeState(db: CatalogDatabase): Promise<TeamExchangeRecord> {
  return (await db.teamExchange.get('exchange')) ?? { key: 'exchange', since: '0' }
}

/**
 * The exchange's state belongs to one workspace (its sequences are its replica's, the drafts'
 * revisions its documents'): joined to another, the drafts' standings there, the deletions to share
 * and the sequences start over. The drafts stay, each marked waiting (db/team-waiting.ts), and are
 * shared with the new workspace. Answers whether it started over.
 */
export async function forWorkspace(db: CatalogDatabase, url: string): Promise<boolean> {
  if ((await exchangeState(db)).workspace === url) return false
  const tables = EXCHANGED_KINDS.map((kind) => table(db, kind))
  await db.transaction('rw', [...tables, db.teamDeletions, db.teamExchange], async () => {
    for (const drafts of tables)
      await drafts
        .filter((draft) => draft.team !== undefined || (isWaitingToShare(draft) && !draft.teamWaiting))
        .modify((draft) => {
          delete draft.team
        })
    await db.teamDeletions.clear()
    await db.teamExchange.put({ key: 'exchange', workspace: url, since: '0' })
  })
  return true
}

/** A share as the page keeps it until the replica answers: with the `updatedAt` it was read at. */
export type WaitingShare = DraftShare & { updatedAt: number }

/**
 * What of `kind` waits to be shared, at most a batch: the deletions made here first, then the
 * drafts edited here (marked waiting: db/team-waiting.ts), each on the revision it was based on.
 */
export async function waitingShares(db: CatalogDatabase, kind: SyncKind): Promise<WaitingShare[]> {
  const deletions = await db.teamDeletions
    .filter((deletion) => deletion.kind === kind && deletion.rev === undefined)
    .limit(EXCHANGE_BATCH)
    .toArray()
  const drafts = await table(db, kind)
    .where('teamWaiting')
    .equals(1)
    .filter(isWaitingToShare)
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
 * version counts one more conflict.
 */
export function recordShared(
  db: CatalogDatabase,
  kind: SyncKind,
  shares: readonly WaitingShare[],
  answers: readonly DraftShared[],
  editedBy: string,
): Promise<void> {
  const drafts = table(db, kind)
  return db.transaction('rw', [drafts, db.teamDeletions], async () => {
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
 * again, on the latest revision this desk knows of it (the deletion's, or the edit's undone): written,
 * it is marked waiting. Call in the transaction that puts them back, with `teamDeletions` in it;
 * answers the records to write.
 */
export async function putBack<R extends DraftMeta>(
  db: CatalogDatabase,
  kind: SyncKind,
  records: readonly R[],
  current: ReadonlyMap<string, Pick<DraftMeta, 'team'>>,
): Promise<R[]> {
  const written: R[] = []
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
  }
  return written
}

/** How many drafts of each kind the arrivals changed here (the lists read theirs again). */
export type ArrivalsApplied = Record<SyncKind, number>

/**
 * Applies what arrived from the workspace and keeps the sequence after it, in one transaction, so
 * a crash replays the arrivals from where the drafts are. A draft edited (or deleted) here and not
 * shared yet is left as it is: its edit (or deletion) is shared next on the revision it was based
 * on, and the workspace keeps both versions as a conflict. Otherwise the arrived version replaces
 * the draft (its send standings here kept; an editor open on it follows, or saves its pending edit
 * on the version it was made on: `EditBase`), a new one is added, and a version that says
 * "deleted" deletes it. Each kind's drafts are read and written in bulk: a first pull brings
 * thousands. Other desks' send records (issue #42) come after the drafts they are about.
 */
export function applyArrivals(
  db: CatalogDatabase,
  {
    arrivals,
    records = [],
    last,
  }: Pick<TeamArrivals, 'arrivals' | 'last'> & Partial<Pick<TeamArrivals, 'records'>>,
  now: number,
): Promise<ArrivalsApplied> {
  const tables = EXCHANGED_KINDS.map((kind) => table(db, kind))
  const beside = EXCHANGED_KINDS.flatMap((kind) => storedKind(kind).beside(db))
  const written = [...tables, ...beside, ...sendRecordTables(db), db.teamDeletions, db.teamExchange]
  return db.transaction('rw', written, async () => {
    const applied: ArrivalsApplied = { skus: 0, apps: 0 }
    for (const kind of EXCHANGED_KINDS) {
      const ofKind = arrivals.filter((arrival) => DRAFT_KIND_OF[arrival.kind] === kind)
      if (ofKind.length) applied[kind] = await applyKind(db, kind, ofKind, now)
    }
    if (records.length) {
      const recorded = await applySendRecords(db, records)
      for (const kind of EXCHANGED_KINDS) applied[kind] += recorded[kind]
    }
    await db.teamExchange.put({ ...(await exchangeState(db)), since: last })
    return applied
  })
}

/**
 * What one arrival does to the draft here: written, removed, or neither; undefined when the draft
 * is left as it is (then a deletion made here is kept too).
 */
type Outcome = { put?: Draft; remove?: true } | undefined

/** One kind's arrivals (a draft at most once: a batch of changes names each document once). */
async function applyKind(
  db: CatalogDatabase,
  kind: SyncKind,
  arrivals: readonly DraftArrival[],
  now: number,
) {
  const drafts = table(db, kind)
  const ids = arrivals.map((arrival) => arrival.id)
  const [current, deletions] = await Promise.all([
    drafts.bulkGet(ids),
    db.teamDeletions.bulkGet(ids.map((id) => deletionKey(kind, id))),
  ])
  const puts: Draft[] = []
  const removed: string[] = []
  const forgotten: string[] = []
  arrivals.forEach((arrival, at) => {
    const deletion = deletions[at]
    const outcome = outcomeOf(kind, arrival, current[at], deletion, now)
    if (!outcome) return
    if (deletion) forgotten.push(deletion.key)
    if (outcome.put) puts.push(outcome.put)
    if (outcome.remove) removed.push(arrival.id)
  })
  await drafts.bulkPut(puts)
  await drafts.bulkDelete(removed)
  for (const other of storedKind(kind).beside(db)) await other.bulkDelete(removed)
  await db.teamDeletions.bulkDelete(forgotten)
  return puts.length + removed.length
}

/** What an arrival does to `draft` (absent: none here, or `deletion` says it was deleted here). */
function outcomeOf(
  kind: SyncKind,
  arrival: DraftArrival,
  draft: Draft | undefined,
  deletion: TeamDeletionRecord | undefined,
  now: number,
): Outcome {
  if (draft?.team?.rev === arrival.rev) {
    // This desk's own version, back from the workspace: only its conflicts may have changed.
    if (draft.team.conflicts === arrival.conflicts) return undefined
    return { put: { ...draft, team: { ...draft.team, conflicts: arrival.conflicts } } }
  }
  if (draft && isWaitingToShare(draft)) return undefined
  // Deleted here, and the deletion not shared yet: it goes on the revision the draft had, and the
  // workspace keeps it beside this version. Its own deletion coming back is nothing new either.
  // (Kept beside another desk's edit, the deletion comes back as that edit, under the edit's own
  // revision: the draft is back, in conflict.)
  if (deletion && (deletion.rev === undefined || deletion.rev === arrival.rev)) return undefined
  if (arrival.deleted || !arrival.payload) return draft ? { remove: true } : {}
  const team: TeamStanding = {
    rev: arrival.rev,
    sharedAt: now,
    editedBy: arrival.editedBy ?? '',
    editedAt: arrival.editedAt ?? now,
    conflicts: arrival.conflicts,
  }
  const { payload } = arrival
  // The kind's columns carry what a stored draft derives from its payload (validity, counts).
  const columns = storedKind(kind).columns(payload) as Partial<Draft>
  return {
    put: draft
      ? { ...draft, payload, updatedAt: now, ...columns, ...withoutRefusals(draft.sync, payload), team }
      : ({ ...unsentDraft(payload, now, columns), id: arrival.id, team } as Draft),
  }
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
