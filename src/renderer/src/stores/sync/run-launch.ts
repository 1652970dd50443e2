import type { Ref } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import { needsNetwork } from '#shared/sync/destination.ts'
import { noItems } from '#shared/sync/ports.ts'
import type { SyncRun } from '#shared/sync/run.ts'
import { runTargetProblem } from '#shared/sync/run-target.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { isOffline } from '../../adapters/network.ts'
import { holdingRun } from '../../adapters/run-lock.ts'
import { awaitAnswersLeftOut, createAppSyncRun } from '../../adapters/sync-run.ts'
import { answersInMain } from '../../adapters/sync-transport.ts'
import { db, syncRuns } from '../../db/index.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { useRunViews } from '../run-views.ts'
import type { useLiveRun } from './live-run.ts'
import { recoverRun } from '../interrupted-sync.ts'
import { recordRunEnd } from './run-end.ts'
import { claimRun, type RunClaimsHeld } from './run-claims.ts'
import { logCount } from '../../words/sync-log.ts'

/** What sending a run touches of the rest of the store. */
export interface LaunchDeps {
  profiles: ReturnType<typeof useProfilesStore>
  running: ReturnType<typeof useLiveRun>
  runs: Pick<ReturnType<typeof useRunViews>, 'refresh' | 'refreshSoon' | 'taken'>
  error: Ref<string>
  addLog(text: string, at?: number): void
  /** Reads the whole pre-flight again. */
  refresh(): Promise<void>
  /** Pauses the run just started if the computer is offline and its destination needs the network. */
  goneOffline(): void
}

/**
 * Sending a queued run with the engine in `src/shared/sync`, in the background, its events shown
 * as they come; one run at a time (the run slot), whether it was just queued or is resumed.
 */
export function useRunLaunch(deps: LaunchDeps) {
  const { profiles, running, runs, error, addLog } = deps
  const { slot, live, patch, throughput } = running

  /** Makes `run` the live run, from its stored counts, and takes it out of the runs offered for resuming. */
  async function show(run: SyncRunRecord, networked: boolean) {
    const counts = await syncRuns.counts(run.id)
    live.value = {
      run,
      status: { state: 'running' },
      counts: { ...noItems(), ...counts },
      offline: false,
      needsNetwork: networked,
      startedAt: systemClock.now(),
    }
    throughput.restart()
    running.cancelRequested.value = false
    throughput.sample(live.value.counts)
    runs.taken(run.id)
  }

  /**
   * Sends a run's queued items with the engine until it ends; the run keeps its own profile, and
   * sends only while that profile still points where the run was started for (a profile edited
   * to another address, or removed, keeps the run open and unsent: the person cancels it).
   */
  async function launch(run: SyncRunRecord) {
    if (slot.engine) return
    // Until its profile is read, a run is taken to need the network.
    let networked = true
    // Claimed before the first await, so a second launch (a double click) finds it taken.
    let claims: RunClaimsHeld | undefined
    const current = engineFor(
      run,
      () => networked,
      deps,
      (keys, at) => claims?.recorded(keys, at),
    )
    slot.engine = current
    let gone!: () => void
    slot.engineOf = { runId: run.id, gone: new Promise<void>((done) => (gone = done)) }
    let started = false
    try {
      await profiles.load()
      const problem = runTargetProblem(run, profiles.profiles)
      if (problem) {
        error.value = problem
        addLog(problem)
        return
      }
      // The run's profile leads where the run was started for (checked just above).
      networked = profiles.profiles.some((profile) => profile.id === run.profileId && needsNetwork(profile))
      const ended = await settleLeftOut(run, addLog)
      const claimed = await claimRun(run, addLog)
      if (!claimed.ok) {
        error.value = claimed.message
        addLog(claimed.message)
        return
      }
      claims = claimed.claims
      if (ended) claims.recorded(ended.keys, ended.at)
      await show(run, networked)
      started = true
      void deps.refresh().catch(() => {})
      if (isOffline()) deps.goneOffline()
      const summary = await holdingRun(run.id, () => current.start())
      await recordRunEnd(run, summary, { addLog, patch })
    } catch (failure) {
      error.value = messageOf(failure)
    } finally {
      await claims
        ?.release()
        .catch((failure) => addLog(`The run's claims were not released: ${messageOf(failure)}`))
      slot.engine = undefined
      slot.engineOf = undefined
      gone()
      if (started) {
        // The pre-flight shows again once the run has ended: read first, so it never counts the
        // run's drafts as still in it (what was read as the run started).
        await runs.refresh().catch(() => {})
        patch({ endedAt: systemClock.now(), offline: false })
      }
      await deps.refresh().catch((failure) => (error.value = messageOf(failure)))
    }
  }

  return { launch }
}

/**
 * Main's answers to requests a page that is gone sent for `run` (reloaded mid-send), written before
 * the run's claims: what they put back in the queue (a batch not taken, one to split) is then
 * claimed with the rest, never sent unclaimed. Answers the items that ended, for the claims to record.
 */
async function settleLeftOut(run: SyncRunRecord, addLog: (text: string) => void) {
  if (!(await awaitAnswersLeftOut(run, addLog))) return undefined
  const { recovered, ended } = await holdingRun(run.id, () =>
    recoverRun(db, run, answersInMain({ wait: false })),
  )
  if (recovered)
    addLog(`${logCount(run.kind, recovered)} left sending marked unknown: check them on the platform.`)
  return ended
}

/** The engine for `run`: its status, counts and log shown in the progress panel as they change. */
function engineFor(
  run: SyncRunRecord,
  networked: () => boolean,
  { running, runs, addLog }: Pick<LaunchDeps, 'running' | 'runs' | 'addLog'>,
  recorded: (keys: readonly string[], at: number) => void,
): SyncRun {
  const { patch, throughput } = running
  return createAppSyncRun(
    run,
    {
      onStatus: (status) => {
        patch({ status })
        if (status.state === 'paused') {
          void syncRuns.setState(run.id, 'open', { lastPause: status.reason, lastMessage: status.message })
        }
      },
      onProgress: (next) => {
        patch({ counts: next })
        throughput.sample(next)
      },
      onRequest: () => {
        running.requestsRevision.value++
        runs.refreshSoon()
      },
      onLog: (line, at) => addLog(line, at),
      onConcurrency: (limit, max) => patch({ concurrency: { limit, max } }),
    },
    { needsNetwork: networked, recorded },
  )
}
