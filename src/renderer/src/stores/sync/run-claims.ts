import { messageOf } from '#shared/error-message.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import type { ItemState } from '#shared/sync/ports.ts'
import { CLAIM_TTL_MS, type ClaimHeld } from '#shared/team/claims.ts'
import { EXCHANGE_BATCH } from '#shared/team/draft-exchange.ts'
import type { RunOutcome, SendRecord } from '#shared/team/send-records.ts'
import { SENT_STATES, SHARED_KIND, type SentState, type SharedKind } from '#shared/team/shared-documents.ts'
import { teamWorkspaceInMain } from '../../adapters/team-workspace.ts'
import { chunks } from '../../db/chunks.ts'
import { db, syncRuns } from '../../db/index.ts'
import { itemsOfKeys } from '../../db/sync-outbox.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import { storedKind } from '../../db/stored-kinds.ts'
import { applySendRecordsNow, keepingOut } from '../../db/team-send-records.ts'
import { heldByOthersLines, logCount, sentElsewhereLines } from '../../words/sync-log.ts'

/** How often a run renews its claims: well within their expiry, so one renewal missed loses none. */
const RENEW_MS = CLAIM_TTL_MS / 4

/**
 * A run's claims while it sends, renewed on their own until released, and the outcomes of its
 * requests written as the drafts' send records in the workspace as they come (`recorded`): every
 * one of them is written before the claims are released, or the claims are kept until they run out.
 */
export interface RunClaimsHeld {
  /** Items of the run that ended (`keys`), at `at`: their outcomes are written next. */
  recorded(keys: readonly string[], at: number): void
  release(): Promise<void>
}

const NO_CLAIMS: RunClaimsHeld = { recorded: () => {}, release: async () => {} }

/**
 * Claims a run's queued drafts on its destination before it sends them (issue #42), when this desk
 * is in a team workspace and the destination is shared: every one but the built-in Sandbox, which
 * is each desk's own. The drafts another desk's run holds leave the run, said in the log desk by
 * desk. Answers the claims, renewed until released, or why the run may not send: the workspace's
 * server out of reach (nothing is sent then, and the run stays open, to resume).
 */
export async function claimRun(
  run: SyncRunRecord,
  addLog: (text: string) => void,
): Promise<{ ok: true; claims: RunClaimsHeld } | { ok: false; message: string }> {
  if (run.destination === EMBEDDED_SANDBOX_DESTINATION) return { ok: true, claims: NO_CLAIMS }
  const status = await teamWorkspaceInMain.status()
  if (status.state !== 'joined') return { ok: true, claims: NO_CLAIMS }
  await syncRuns.sentBy(run.id, status.name)
  const queued = await syncRuns.queued(run.id)
  const labels = new Map(queued.map((item) => [item.key, item.label]))
  const labelOf = (id: string) => labels.get(id)
  const claimed = await claimQueued(run, queued)
  if ('message' in claimed) return { ok: false, message: claimed.message }
  const { held, stopped, recorded } = claimed
  if (held.length) {
    await syncRuns.leaveOut(
      run.id,
      held.map((claim) => claim.id),
    )
    for (const line of heldByOthersLines(run, held, labelOf)) addLog(line)
    // What those desks recorded of them already, which the exchange could not apply while this run
    // held them: the rest arrives as it comes.
    for (const batch of chunks(held, EXCHANGE_BATCH)) {
      const drafts = batch.map(({ kind, id }) => ({ kind, id }))
      await applySendRecordsNow(db, await teamWorkspaceInMain.sendRecords(run.destination, drafts))
    }
  }
  // Sent there by another desk (and this desk's replica had not brought the record yet), or held
  // by a run that stopped: its outcome is not known, and a person decides first. An update run's
  // drafts were created there, whichever desk created them: their records are why they are in it
  // (a tryout's corrections were left out as "sent there already", and offered for ever).
  const creates = (run.action ?? 'create') === 'create'
  const sentElsewhere = creates ? await keepingOut(db, run.kind, recorded) : []
  if (sentElsewhere.length) {
    await syncRuns.leaveOut(
      run.id,
      sentElsewhere.map((record) => record.draft),
    )
    await applySendRecordsNow(db, sentElsewhere)
    const ofStopped = new Set(stopped.map((claim) => claim.id))
    const lines = [
      ...heldByOthersLines(run, stopped, labelOf),
      ...sentElsewhereLines(
        run,
        sentElsewhere.filter((record) => !ofStopped.has(record.draft)),
      ),
    ]
    for (const line of lines) addLog(line)
  }
  const outcomes = outcomesWriter(run, addLog)
  const timer = setInterval(() => void renew(run, addLog), RENEW_MS)
  return {
    ok: true,
    claims: {
      recorded: outcomes.add,
      async release() {
        clearInterval(timer)
        const unwritten = await outcomes.flush()
        if (unwritten > 0)
          throw new Error(
            `the outcomes of ${logCount(run.kind, unwritten)} could not be written to the team workspace, so its claims are kept until they run out (two minutes): ${outcomes.failure()}`,
          )
        await teamWorkspaceInMain.releaseClaims(run.id)
      },
    },
  }
}

/** Items of a team run a page that is gone left sending, ended since (stores/interrupted-sync.ts). */
export interface EndedWhileAway {
  run: SyncRunRecord
  keys: readonly string[]
  at: number
}

/**
 * Writes what became of items a page that is gone left sending (main's answers, or unknown) as
 * the run's send records, as its requests' outcomes would have been: the team learns what this
 * desk created there. Main holds a run's claims while it runs, past the page that made them (till
 * they run out); a main that restarted holds none, and then nothing is written, as before main
 * kept answers. A run of this desk alone (not a team's) has nothing to write.
 */
export async function recordEndedWhileAway(ended: readonly EndedWhileAway[]): Promise<void> {
  for (const { run, keys, at } of ended) {
    if (run.sentBy === undefined || run.destination === EMBEDDED_SANDBOX_DESTINATION) continue
    const outcomes = await outcomesOf(run, SHARED_KIND[run.kind], keys, at)
    const records = run.action === 'update' ? await appliedUpdates(run, outcomes) : outcomes
    try {
      for (const batch of chunks(records, EXCHANGE_BATCH))
        await teamWorkspaceInMain.recordSends(run.id, batch)
    } catch {
      // No claims held any more (main restarted): as before, the records are not written.
    }
  }
}

/** Claims a run's queued drafts, a batch at a time; on a failure, lets go of those claimed and says why. */
async function claimQueued(
  run: SyncRunRecord,
  queued: ReadonlyArray<{ key: string; position: number; label: string }>,
): Promise<{ held: ClaimHeld[]; stopped: ClaimHeld[]; recorded: SendRecord[] } | { message: string }> {
  const held: ClaimHeld[] = []
  const stopped: ClaimHeld[] = []
  const recorded: SendRecord[] = []
  for (const batch of chunks(queued, EXCHANGE_BATCH)) {
    const drafts = batch.map(({ key, position, label }) => ({
      kind: SHARED_KIND[run.kind],
      id: key,
      position,
      label,
    }))
    const answer = await teamWorkspaceInMain.claim({
      destination: run.destination,
      run: run.id,
      drafts,
      ...(run.action === 'update' && { action: 'update' as const }),
    })
    if (!answer.ok) {
      await teamWorkspaceInMain.releaseClaims(run.id).catch(() => {})
      return {
        message: `Nothing was sent to ${run.profileName}: from a team workspace, the drafts are claimed on its server first, so that no two desks send them. ${answer.message}`,
      }
    }
    held.push(...answer.held)
    stopped.push(...answer.stopped)
    recorded.push(...answer.recorded)
  }
  return { held, stopped, recorded }
}

/**
 * Writes a run's outcomes to the workspace as its requests end, one write after another; what
 * could not be written waits for the next (and for `flush`, as the run ends). A creation's
 * outcomes are the drafts' send records; of an update's, only one applied replaces its draft's
 * record (what stands there now, for every desk to count its changes from): a refused or unknown
 * update leaves the creation's record, so no desk ever takes the SKU for uncreated there.
 */
function outcomesWriter(run: SyncRunRecord, addLog: (text: string) => void) {
  const updates = run.action === 'update'
  const kind = SHARED_KIND[run.kind]
  let waiting: RunOutcome[] = []
  let writing = Promise.resolve()
  let lastFailure = ''

  async function write() {
    while (waiting.length) {
      const batch = waiting.slice(0, EXCHANGE_BATCH)
      try {
        await teamWorkspaceInMain.recordSends(run.id, batch)
      } catch (failure) {
        if (!lastFailure)
          addLog(
            `What this run sent could not be written to the team workspace yet; it is tried again after the next request and as the run ends: ${messageOf(failure)}`,
          )
        lastFailure = messageOf(failure)
        return
      }
      waiting = waiting.slice(batch.length)
    }
  }

  return {
    add(keys: readonly string[], at: number) {
      if (keys.length === 0) return
      writing = writing.then(async () => {
        try {
          const outcomes = await outcomesOf(run, kind, keys, at)
          waiting.push(...(updates ? await appliedUpdates(run, outcomes) : outcomes))
        } catch (failure) {
          addLog(
            `What this run sent could not be read to write it to the team workspace: ${messageOf(failure)}`,
          )
          return
        }
        await write()
      })
    },
    /** Writes what waits; answers how many outcomes are still unwritten. */
    async flush(): Promise<number> {
      await writing
      await write()
      return waiting.length
    },
    failure: () => lastFailure,
  }
}

/** The outcomes of items that ended, as send records: what each item now says, with what it sent. */
async function outcomesOf(
  run: SyncRunRecord,
  kind: SharedKind,
  keys: readonly string[],
  at: number,
): Promise<RunOutcome[]> {
  const items = await itemsOfKeys(db, run.id, keys)
  return items.flatMap((item) => {
    if (!item || !isSentState(item.state)) return []
    return [
      {
        kind,
        draft: item.key,
        position: item.position,
        label: item.label,
        state: item.state,
        at,
        ...(item.remoteId !== undefined ? { remoteId: item.remoteId } : {}),
        ...(item.message !== undefined ? { message: item.message } : {}),
        ...(item.sent !== undefined ? { sent: item.sent } : {}),
      },
    ]
  })
}

/**
 * Of an update run's outcomes, the applied ones as records of what stands there: with the
 * platform's id the draft has there (an update's answer names none), for a desk that never saw the
 * creation's record.
 */
async function appliedUpdates(run: SyncRunRecord, outcomes: readonly RunOutcome[]): Promise<RunOutcome[]> {
  const applied = outcomes.filter((outcome) => outcome.state === 'synced')
  const drafts = await storedKind(run.kind)
    .table(db)
    .bulkGet(applied.map((outcome) => outcome.draft))
  return applied.map((outcome, at) => {
    const remoteId = outcome.remoteId ?? drafts[at]?.sync[run.destination]?.remoteId
    return { ...outcome, action: 'update', ...(remoteId !== undefined && { remoteId }) }
  })
}

const isSentState = (state: ItemState): state is SentState =>
  (SENT_STATES as readonly string[]).includes(state)

/** Renews a run's claims; what was lost or could not be renewed is said in the log. */
async function renew(run: SyncRunRecord, addLog: (text: string) => void) {
  try {
    const lost = await teamWorkspaceInMain.renewClaims(run.id)
    if (lost.length)
      addLog(
        `${logCount(run.kind, lost.length)} of this run were claimed by another desk meanwhile (this run's claim had run out).`,
      )
  } catch (error) {
    addLog(
      `The run's claims could not be renewed; they run out in two minutes unless renewed: ${messageOf(error)}`,
    )
  }
}
