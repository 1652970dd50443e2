import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { DecidedRecord, SendRecord } from '#shared/team/send-records.ts'
import { DRAFT_KIND_OF, SHARED_KIND, type SentDecision } from '#shared/team/shared-documents.ts'
import { isLiveStanding, isLiveState, withStanding, type DestinationStanding } from '#shared/sync/standing.ts'
import type { CatalogDatabase } from './database.ts'
import { createdStanding, standingBarcode } from './draft-standings.ts'
import { storedKind, type DraftRow } from './stored-kinds.ts'
import { itemsInState, itemsOfKeys } from './sync-outbox.ts'
import type { SyncItemRecord, SyncRunRecord } from './sync-records.ts'

// Other desks' send records (issue #42): what a desk of the team workspace sent to a shared
// destination, arrived through the replica (checked in main, `checkSent`) or read from the server
// as a run claims its drafts. Each becomes this desk's record of the draft there: an item of the
// other desk's run, kept here as a run `fromWorkspace` (so the history names who sent it), and the
// draft's standing at the destination, so every desk shows the same "synced on Production" and
// never offers the draft for creation there again.

/** The tables `applySendRecords` writes, for a caller's transaction. */
export function sendRecordTables(db: CatalogDatabase) {
  return [db.syncRuns, db.syncItems, db.skuDrafts, db.appDrafts]
}

/**
 * Applies send records of other desks' runs, in the caller's transaction (`sendRecordTables`):
 * each run's record and items here, and each draft's standing at the destination, unless a run of
 * this desk holds the draft there now (queued or sending: its own outcome comes next) or its
 * standing there is later than the record's. A record of this desk's own run changes something
 * only when another desk wrote it (`recordedBy`: the run's claim ran out there, or a person decided
 * about it): its items are otherwise the record already. A decision to send again takes the item
 * out of its run and frees the draft there, for the next run. Answers how many drafts of each kind
 * changed.
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
    const own = run !== undefined && !run.fromWorkspace
    const known = await db.syncItems.bulkGet(ofRun.map((record) => [runId, record.position]))
    // Of this desk's own run, only what another desk wrote, and never over an item the run still
    // holds (queued or sending): the run's claims read the server's records when it is resumed.
    const pairs = ofRun
      .map((record, at) => ({ record, known: known[at] }))
      .filter(
        ({ record, known }) =>
          !own || (record.recordedBy !== undefined && !(known && isLiveState(known.state))),
      )
    if (pairs.length === 0) continue
    const applied = pairs.map(({ record }) => record)
    const first = applied[0]!
    const kind = DRAFT_KIND_OF[first.kind]
    const freed = pairs.filter(({ record }) => record.decision === 'resend')
    const kept = pairs.filter(({ record }) => record.decision !== 'resend')
    await db.syncItems.bulkDelete(freed.map(({ record }) => [runId, record.position]))
    await db.syncItems.bulkPut(kept.map(({ record, known }) => itemOf(runId, record, known)))
    const returned = freed.filter(({ known }) => known !== undefined).length
    const times = applied.map((record) => record.at)
    const counts = {
      added: kept.filter(({ known }) => known === undefined).length,
      returned,
      first: Math.min(...times),
      last: Math.max(...times),
    }
    if (!own) await db.syncRuns.put(recordedRun(run, first, kind, counts))
    else if (returned) await db.syncRuns.update(runId, { returned: (run.returned ?? 0) + returned })
    changed[kind] += await applyStandings(db, kind, applied)
  }
  return changed
}

/** A run's item as a record says it stands: over what this desk knew of it (its request, say). */
function itemOf(run: string, record: SendRecord, known: SyncItemRecord | undefined): SyncItemRecord {
  const { message: _message, ...before } = known ?? {}
  return {
    ...before,
    run,
    position: record.position,
    key: record.draft,
    label: record.label,
    state: record.state,
    ...(record.message !== undefined ? { message: record.message } : {}),
    ...(record.remoteId !== undefined ? { remoteId: record.remoteId } : {}),
    ...(record.sent !== undefined ? { sent: record.sent } : {}),
  }
}

/** `applySendRecords` in a transaction of its own. */
export function applySendRecordsNow(db: CatalogDatabase, records: readonly SendRecord[]) {
  return db.transaction('rw', sendRecordTables(db), () => applySendRecords(db, records))
}

/**
 * Of the records another desk's runs left on the drafts a run of `kind` claimed, those that keep
 * their draft out of the run: created there, or an outcome not known (a person decides first:
 * sending it again could create it twice) unless a person decided to send it again, or refused
 * for the very content the draft has now (an edit offers it again, as after a refusal here).
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
      (record.state !== 'rejected' && record.decision !== 'resend') ||
      (record.sent !== undefined &&
        payloadFingerprint(record.sent) === payloadFingerprint(drafts[at]?.payload)),
  )
}

/** Another desk's run as its records tell it: where it sent, who sent it, how many items are known. */
function recordedRun(
  run: SyncRunRecord | undefined,
  record: SendRecord,
  kind: SyncKind,
  { added, returned, first, last }: { added: number; returned: number; first: number; last: number },
): SyncRunRecord {
  if (run)
    return {
      ...run,
      total: run.total + added,
      ...(returned ? { returned: (run.returned ?? 0) + returned } : {}),
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
    ...(record.action === 'update' && { action: 'update' as const }),
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
    if (record.action === 'update') {
      const next = appliedUpdate(kind, standing, record)
      if (next) puts.push({ ...draft, ...withStanding(draft, record.destination, next) })
      return
    }
    const same = standing?.run === record.run && standing.position === record.position
    if (standing && !same && standing.at > record.at) return
    if (record.decision === 'resend') {
      // Free to be sent again: back to draft there, unless a later run took it meanwhile.
      if (same) puts.push({ ...draft, ...withStanding(draft, record.destination, undefined) })
      return
    }
    if (same && standing.state === record.state) return
    puts.push({ ...draft, ...withStanding(draft, record.destination, standingOf(kind, record)) })
  })
  await drafts.bulkPut(puts)
  return puts.length
}

/**
 * The standing an applied update's record gives its draft (another desk corrected it there): over
 * its creation's standing here, what the update sent stands there now and is the base of the next
 * update's changes, as after an update of this desk (draft-standings.ts); a draft not known here as
 * created takes it as created, with what stands there. Undefined when this desk knows as much or
 * later: the same update, a later one, or a later creation.
 */
function appliedUpdate(
  kind: SyncKind,
  standing: DestinationStanding | undefined,
  record: SendRecord,
): DestinationStanding | undefined {
  if (record.sent === undefined) return undefined
  if (standing?.state !== 'synced') {
    return standing && standing.at > record.at ? undefined : standingOf(kind, record)
  }
  const known = standing.update
  if (standing.at > record.at) return undefined
  if (known && (known.at > record.at || (known.run === record.run && known.position === record.position)))
    return undefined
  const item = { run: record.run, position: record.position }
  const sent = payloadFingerprint(record.sent)
  const { barcode: _before, ...kept } = standing
  return {
    ...kept,
    ...(standing.remoteId === undefined && record.remoteId !== undefined && { remoteId: record.remoteId }),
    ...standingBarcode(record.sent),
    sent,
    base: item,
    update: { ...item, state: 'synced', at: record.at, sent },
  }
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

/**
 * A person's decision about drafts whose outcome at a run's destination was not known: the records
 * that say it, as `by` decided now, for every desk of the team. Of another desk's run (kept here
 * from the workspace's records), every undecided item; else the items of `keys` just decided
 * here (a batch, a platform's list), as they now stand: marked created, or still undecided and
 * sent again. Created: synced, what was sent standing there. Send again: the drafts are free for
 * the next run to that destination.
 */
export async function decidedRecords(
  db: CatalogDatabase,
  runId: string,
  decision: SentDecision,
  by: string,
  now: number,
  keys?: readonly string[],
): Promise<DecidedRecord[]> {
  const run = await db.syncRuns.get(runId)
  if (!run) throw new Error('This run is no longer in the history.')
  const decided = (item: SyncItemRecord | undefined): item is SyncItemRecord =>
    item !== undefined &&
    (decision === 'created' ? item.state === 'synced' : item.state === 'unknown' || item.state === 'failed')
  const items = keys
    ? (await itemsOfKeys(db, runId, keys)).filter(decided)
    : [
        ...(await itemsInState(db, runId, 'failed').toArray()),
        ...(await itemsInState(db, runId, 'unknown').toArray()),
      ]
  return items.map((item) => ({
    destination: run.destination,
    kind: SHARED_KIND[run.kind],
    draft: item.key,
    desk: run.sentBy ?? '',
    run: runId,
    position: item.position,
    label: item.label,
    state: decision === 'created' ? 'synced' : item.state === 'failed' ? 'failed' : 'unknown',
    at: now,
    message: decision === 'created' ? `Marked as created by ${by}` : `To be sent again, as ${by} decided`,
    ...(item.remoteId !== undefined ? { remoteId: item.remoteId } : {}),
    ...(item.sent !== undefined ? { sent: item.sent } : {}),
    recordedBy: by,
    decision,
  }))
}
