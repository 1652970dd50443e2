import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { SendRecord } from '#shared/team/send-records.ts'
import type { SharedKind } from '#shared/team/shared-documents.ts'
import { isLiveStanding, withStanding, type DestinationStanding } from '#shared/sync/standing.ts'
import type { CatalogDatabase } from './database.ts'
import { createdStanding } from './draft-standings.ts'
import { storedKind, type DraftRow } from './stored-kinds.ts'
import type { SyncItemRecord, SyncRunRecord } from './sync-records.ts'

// Other desks' send records (issue #42): what a desk of the team workspace sent to a shared
// destination, arrived through the replica (checked in main, `checkSent`) or read from the server
// as a run claims its drafts. Each becomes this desk's record of the draft there: an item of the
// other desk's run, kept here as a run `fromWorkspace` (so the history names who sent it), and the
// draft's standing at the destination, so every desk shows the same "synced on Production" and
// never offers the draft for creation there again.

const KIND_OF: Readonly<Record<SharedKind, SyncKind>> = { sku: 'skus', app: 'apps' }

/** The tables `applySendRecords` writes, for a caller's transaction. */
export function sendRecordTables(db: CatalogDatabase) {
  return [db.syncRuns, db.syncItems, db.skuDrafts, db.appDrafts]
}

/**
 * Applies send records of other desks' runs, in the caller's transaction (`sendRecordTables`):
 * each run's record and items here, and each draft's standing at the destination, unless a run of
 * this desk holds the draft there now (queued or sending: its own outcome comes next) or its
 * standing there is later than the record's. Records of this desk's own runs change nothing: its
 * items are already the record. Answers how many drafts of each kind changed.
 */
export async function applySendRecords(
  db: CatalogDatabase,
  records: readonly SendRecord[],
): Promise<Record<SyncKind, number>> {
  const changed: Record<SyncKind, number> = { skus: 0, apps: 0 }
  const byRun = new Map<string, SendRecord[]>()
  for (const record of records) {
    const ofRun = byRun.get(record.run)
    if (ofRun) ofRun.push(record)
    else byRun.set(record.run, [record])
  }
  for (const [runId, ofRun] of byRun) {
    const run = await db.syncRuns.get(runId)
    if (run && !run.fromWorkspace) continue
    const first = ofRun[0]!
    const kind = KIND_OF[first.kind]
    const items: SyncItemRecord[] = ofRun.map((record) => ({
      run: runId,
      position: record.position,
      key: record.draft,
      label: record.label,
      state: record.state,
      ...(record.message !== undefined ? { message: record.message } : {}),
      ...(record.remoteId !== undefined ? { remoteId: record.remoteId } : {}),
      ...(record.sent !== undefined ? { sent: record.sent } : {}),
    }))
    const known = await db.syncItems.bulkGet(items.map((item) => [runId, item.position]))
    await db.syncItems.bulkPut(items)
    const times = ofRun.map((record) => record.at)
    await db.syncRuns.put(
      recordedRun(run, first, kind, {
        added: known.filter((item) => item === undefined).length,
        first: Math.min(...times),
        last: Math.max(...times),
      }),
    )
    changed[kind] += await applyStandings(db, kind, ofRun)
  }
  return changed
}

/** `applySendRecords` in a transaction of its own. */
export function applySendRecordsNow(db: CatalogDatabase, records: readonly SendRecord[]) {
  return db.transaction('rw', sendRecordTables(db), () => applySendRecords(db, records))
}

/**
 * Of the records another desk's runs left on the drafts a run of `kind` claimed, those that keep
 * their draft out of the run: created there, or an outcome not known (a person decides first:
 * sending it again could create it twice), or refused for the very content the draft has now (an
 * edit offers it again, as after a refusal here).
 */
export async function keepingOut(
  db: CatalogDatabase,
  kind: SyncKind,
  records: readonly SendRecord[],
): Promise<SendRecord[]> {
  const drafts = await storedKind(kind)
    .table(db)
    .bulkGet(records.map((record) => record.draft))
  return records.filter(
    (record, at) =>
      record.state !== 'rejected' ||
      (record.sent !== undefined &&
        payloadFingerprint(record.sent) === payloadFingerprint(drafts[at]?.payload)),
  )
}

/** Another desk's run as its records tell it: where it sent, who sent it, how many items are known. */
function recordedRun(
  run: SyncRunRecord | undefined,
  record: SendRecord,
  kind: SyncKind,
  { added, first, last }: { added: number; first: number; last: number },
): SyncRunRecord {
  if (run)
    return {
      ...run,
      total: run.total + added,
      createdAt: Math.min(run.createdAt, first),
      updatedAt: Math.max(run.updatedAt, last),
    }
  return {
    id: record.run,
    kind,
    // Its profile is the other desk's: what this desk knows is the destination and the desk.
    profileId: '',
    profileName: `${record.desk}'s desk`,
    url: record.destination,
    destination: record.destination,
    batchSize: 0,
    concurrency: 0,
    createdAt: first,
    updatedAt: last,
    state: 'finished',
    total: added,
    sentBy: record.desk,
    fromWorkspace: true,
  }
}

/** Moves each draft's standing at the record's destination to the record's item; answers how many moved. */
async function applyStandings(db: CatalogDatabase, kind: SyncKind, records: readonly SendRecord[]) {
  const drafts = storedKind(kind).table(db)
  const current = await drafts.bulkGet(records.map((record) => record.draft))
  const puts: DraftRow[] = []
  records.forEach((record, at) => {
    const draft = current[at]
    // A draft deleted here keeps no standing; its record stays in the run's history.
    if (!draft) return
    const standing = draft.sync[record.destination]
    if (standing && isLiveStanding(standing)) return
    const same = standing?.run === record.run && standing.position === record.position
    if (standing && !same && standing.at > record.at) return
    if (same && standing.state === record.state) return
    puts.push({ ...draft, ...withStanding(draft, record.destination, standingOf(kind, record)) })
  })
  await drafts.bulkPut(puts)
  return puts.length
}

/** The standing a record gives its draft: its item's state, and for a creation what stands there. */
function standingOf(kind: SyncKind, record: SendRecord): DestinationStanding {
  const standing: DestinationStanding = {
    state: record.state,
    run: record.run,
    position: record.position,
    at: record.at,
  }
  if (record.state !== 'synced') return standing
  const stands = createdStanding(kind, record.sent, record.remoteId)
  if (stands) return { ...standing, ...stands }
  // A kind without updates (an app) keeps the service's id of it and when it was created.
  return record.remoteId === undefined
    ? standing
    : { ...standing, remoteId: record.remoteId, remoteCreatedAt: record.at }
}
