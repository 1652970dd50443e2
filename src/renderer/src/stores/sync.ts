import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { useProfilesStore } from './profiles.ts'
import { useRunLog } from './run-log.ts'
import { useRunViews } from './run-views.ts'
import { useDecisions } from './sync/decisions.ts'
import { useDraftStanding } from './sync/draft-standing.ts'
import { useLiveRun } from './sync/live-run.ts'
import { useOfflinePause } from './sync/offline-pause.ts'
import { useOpenRuns } from './sync/open-runs.ts'
import { usePreflight } from './sync/preflight.ts'
import { useRunLaunch } from './sync/run-launch.ts'
import { useRunPreparation } from './sync/run-preparation.ts'
import { useRunStarts } from './sync/run-starts.ts'

export type { RunBatches } from './sync/decisions.ts'
export type { LiveRun } from './sync/live-run.ts'
export type { Promotion } from './sync/promotions.ts'
export type { SyncScope } from './sync/scope.ts'
export type { GoneSku } from './sync/updates-offer.ts'

/**
 * Sync from the page: the pre-flight summary, the run being sent (the engine in `src/shared/sync`
 * over the Dexie outbox and the bridge), its log, the history, and the person's decisions about
 * batches whose outcome is not known. Kept in a store so a run goes on while the person looks at
 * other pages.
 *
 * Each concern is a part of its own under `stores/sync/`, given what it needs of the others: the
 * live run and its engine (`live-run.ts`), the pre-flight (`preflight.ts`, itself the scope, the
 * gates, the promotions and the updates on offer), the connection (`offline-pause.ts`), a run
 * queued (`run-preparation.ts`, `run-starts.ts`), sent (`run-launch.ts`) and ended (`run-end.ts`),
 * the open runs (`open-runs.ts`), the decisions (`decisions.ts`) and one draft's standing
 * (`draft-standing.ts`). What each returns but keeps to the store is left out of the store's own.
 */
export const useSyncStore = defineStore('sync', () => {
  const profiles = useProfilesStore()
  const error = ref('')
  const { log, addLog } = useRunLog()
  const running = useLiveRun()
  const { slot, isSending } = running
  const { live, requestsRevision, cancelRequested, sending, rate, secondsLeft, pause, resume, cancel } =
    running
  const views = useRunViews(
    (runId) => runId === slot.preparing || isSending(runId),
    () => profiles.active?.destination,
  )
  const { preflights, history, resumable, elsewhere } = views
  const { readHeldBack, spend, ...preflight } = usePreflight(profiles, views, error)
  const { refresh, scope, includeFailed, target, choose } = preflight
  const { offline, targetNeedsNetwork, goneOffline } = useOfflinePause(profiles, running, addLog)
  const { launch } = useRunLaunch({ profiles, running, runs: views, error, addLog, refresh, goneOffline })
  const { preparing, busy, prepareAndLaunch } = useRunPreparation({
    running,
    target,
    error,
    addLog,
    refresh,
    launch,
  })
  const starts = useRunStarts({ scope, includeFailed, readHeldBack, spend, addLog, prepareAndLaunch })
  const openRuns = useOpenRuns({ profiles, running, busy, elsewhere, error, addLog, refresh, launch })
  const decisions = useDecisions({ running, error, addLog, refresh, resumeRun: openRuns.resumeRun })
  const standing = useDraftStanding({ profiles, addLog, refresh, choose })
  /**
   * Whether a new run may start, whatever it would send: to an active profile with its token, none
   * being prepared, no run left open (resumed or cancelled first). Each start button adds its count.
   */
  const mayStart = computed(
    () => !!target.value && !preflight.targetLacksToken.value && !busy.value && resumable.value.length === 0,
  )
  return {
    mayStart,
    preflights,
    history,
    resumable,
    elsewhere,
    log,
    error,
    offline,
    targetNeedsNetwork,
    live,
    requestsRevision,
    cancelRequested,
    sending,
    rate,
    secondsLeft,
    pause,
    resume,
    cancel,
    preparing,
    busy,
    ...preflight,
    ...starts,
    ...openRuns,
    ...decisions,
    ...standing,
  }
})
