import { shallowRef, type Ref } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import { draftKind } from '#shared/sync/kinds.ts'
import type { RunAction, SyncKind } from '#shared/sync/ports.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { teamWorkspaceInMain } from '../../adapters/team-workspace.ts'
import { db, syncRuns } from '../../db/index.ts'
import { applySendRecordsNow, decidedRecords } from '../../db/team-send-records.ts'
import type { SyncItemRecord, SyncRequestRecord } from '../../db/sync-records.ts'
import type { Resolution } from '../../db/sync-runs.ts'
import { decisionLine, recordedDecisionLine } from '../../words/sync-log.ts'
import { shareDecisions, writeDecisions } from '../team-decisions.ts'
import type { useLiveRun } from './live-run.ts'

/** A run's batches as its page lists them, a page of requests at a time. */
export interface RunBatches {
  /** Those still waiting for a person's decision. */
  undecided: SyncRequestRecord[]
  requests: SyncRequestRecord[]
  /** How many requests the run sent in all. */
  total: number
  /** For a run of apps: each listed request's item (one app), for its app id. */
  items?: Map<string, SyncItemRecord | undefined>
}

/** What a decision touches of the rest of the store. */
export interface DecisionDeps {
  running: Pick<ReturnType<typeof useLiveRun>, 'slot' | 'live' | 'cancelRequested' | 'requestsRevision'>
  error: Ref<string>
  addLog(text: string): void
  refresh(): Promise<void>
  resumeRun(runId: string): Promise<void>
}

/**
 * The person's decisions about batches whose outcome is not known (created after all, or send
 * again), and the batches a run's page lists for them.
 */
export function useDecisions({ running, error, addLog, refresh, resumeRun }: DecisionDeps) {
  const { slot, live } = running
  /**
   * Batches whose decision the person confirmed, from that moment on: they leave the batches
   * waiting at once (and a second press does nothing) while the decision is recorded.
   */
  const deciding = shallowRef<ReadonlySet<string>>(new Set())

  /**
   * The person's decision about a batch that may have been processed. While its run is being sent
   * or is paused, the decision goes through the run's engine (`SyncRun.decide`), which counts it
   * and sends what is queued again when it sends at all: a paused run stays paused until the
   * person resumes it. A run nobody is sending is resumed when a batch of it is sent again.
   */
  async function resolve(requestId: string, choice: Resolution, runId: string, kind: SyncKind = 'skus') {
    // One decision a batch: a second press while the first is recorded does nothing.
    if (deciding.value.has(requestId)) return
    error.value = ''
    const apply = () => syncRuns.resolve(requestId, choice)
    // Its card leaves the batches waiting at once, not when the list is next read.
    deciding.value = new Set([...deciding.value, requestId])
    let decided = false
    try {
      for (;;) {
        const current = slot.engine
        const sending = slot.engineOf
        if (current && sending?.runId !== runId) {
          // One engine at a time: a batch queued again in another run could not go out now.
          error.value = 'Another run is being sent: decide about this batch once it has ended.'
          return
        }
        const outcome = current ? await current.decide(apply) : await apply()
        if (!outcome) {
          // The run ended meanwhile, the decision unapplied: once its end is recorded, it is
          // decided as for any run nobody is sending.
          await sending?.gone
          continue
        }
        decided = true
        const changed = outcome.moved.length
        const engineStood = current && {
          status: current.status,
          offline: live.value?.offline === true,
          cancelling: running.cancelRequested.value,
        }
        // Nothing moved (decided already, elsewhere or by a list): no line says "0 drafts".
        if (changed > 0) addLog(decisionLine(kind, choice, changed, engineStood))
        // Marked created on a desk of a team: every desk hears it (sent again, the run's own
        // outcome goes there as it comes).
        if (changed > 0 && choice === 'created') {
          const keys = outcome.moved.map((item) => item.key)
          const unshared = await shareDecisions([{ runId, decision: 'created', keys }])
          if (unshared) addLog(unshared)
        }
        running.requestsRevision.value++
        // The run goes on in the background; the page follows it through the store.
        if (!current && choice === 'resend' && changed > 0) void resumeRun(runId)
        else await refresh()
        return
      }
    } catch (failure) {
      error.value = messageOf(failure)
    } finally {
      // Not decided after all: its card comes back, to be decided again.
      if (!decided) deciding.value = new Set([...deciding.value].filter((id) => id !== requestId))
    }
  }

  /**
   * A run's undecided batches and its first `shown` requests; for a kind that keeps the service's
   * answer (apps) and for an update run (one SKU a request, the body its item's `update`), with each
   * request's item.
   */
  function batchesOf(
    runId: string,
    kind: SyncKind,
    shown: number,
    action: RunAction = 'create',
  ): Promise<RunBatches> {
    return readBatches(runId, kind, shown, action, deciding)
  }

  /**
   * The person's decision about another desk's drafts whose outcome is not known (a run that
   * stopped mid-send, issue #42): written on the workspace's server first, for every desk, then
   * here. Created: synced. Send again: free for the next run to that destination.
   */
  async function decideRecorded(runId: string, choice: Resolution) {
    if (deciding.value.has(runId)) return
    error.value = ''
    deciding.value = new Set([...deciding.value, runId])
    try {
      const status = await teamWorkspaceInMain.status()
      if (status.state !== 'joined')
        throw new Error(
          'Join the team workspace again to decide about another desk’s drafts: every desk sees the decision.',
        )
      const records = await decidedRecords(db, runId, choice, status.name, systemClock.now())
      if (records.length === 0) return
      await writeDecisions(records)
      await applySendRecordsNow(db, records)
      const run = await syncRuns.get(runId)
      if (run) addLog(recordedDecisionLine(run, choice, records.length))
      await refresh()
    } catch (failure) {
      error.value = messageOf(failure)
    } finally {
      deciding.value = new Set([...deciding.value].filter((id) => id !== runId))
    }
  }

  return { deciding, resolve, batchesOf, decideRecorded }
}

/** See `batchesOf`: the batches being decided (`deciding`) are no longer waiting. */
async function readBatches(
  runId: string,
  kind: SyncKind,
  shown: number,
  action: RunAction,
  deciding: Readonly<Ref<ReadonlySet<string>>>,
): Promise<RunBatches> {
  const [waiting, requests, total] = await Promise.all([
    syncRuns.undecided(runId),
    syncRuns.requests(runId, 0, shown),
    syncRuns.requestCount(runId),
  ])
  const undecided = waiting.filter((request) => !request.resolution && !deciding.value.has(request.id))
  // A kind that keeps the service's answer shows each request's created id, and an update run
  // each request's body: read their items.
  if (!draftKind(kind).keepsAnswer && action !== 'update') return { undecided, requests, total }
  const found = await Promise.all(requests.map((request) => syncRuns.itemsOf(request)))
  return {
    undecided,
    requests,
    total,
    items: new Map(requests.map((request, i) => [request.id, found[i]![0]])),
  }
}
