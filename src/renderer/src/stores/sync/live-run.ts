import { computed, ref, shallowRef } from 'vue'
import type { RunCounts, RunStatus, SyncRun } from '#shared/sync/run.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import { useThroughput } from '../throughput.ts'

/** The run this page is sending (or sent last), as the progress panel shows it. */
export interface LiveRun {
  run: SyncRunRecord
  status: RunStatus
  counts: RunCounts
  /** Paused by the page because the computer went offline; resumes when it is back. */
  offline: boolean
  /**
   * Whether its destination needs the network (`needsNetwork` in src/shared/sync/destination.ts):
   * only such a run is paused while the computer is offline; one on this computer goes on.
   */
  needsNetwork: boolean
  /** When sending (re)started, and how many items were done then: the throughput's base. */
  startedAt: number
  endedAt?: number
  /** Requests the engine may have in flight now (`limit`) and at most (`max`); absent until it says. */
  concurrency?: { limit: number; max: number }
}

/**
 * The one engine this page sends with, and the run being prepared: what every part of the store
 * asks before it starts, resumes or decides anything, so no run is ever sent twice at once.
 */
export interface RunSlot {
  engine?: SyncRun
  /** The run `engine` sends, and a promise that resolves once that engine is gone and its end recorded. */
  engineOf?: { runId: string; gone: Promise<void> }
  /** The run `start` is preparing: stored from its first chunk on, but not one to resume. */
  preparing?: string
}

/**
 * The run this page sends, as the progress panel follows it: its status and counts, its pace, and
 * the person's Pause, Resume and Cancel, which go to its engine.
 */
export function useLiveRun() {
  const slot: RunSlot = {}
  const live = shallowRef<LiveRun>()
  /** Bumped when a request of the live run ended, so its batch list reads again. */
  const requestsRevision = ref(0)
  const cancelRequested = ref(false)
  const sending = computed(() => live.value !== undefined && live.value.endedAt === undefined)
  const throughput = useThroughput(() => {
    const current = live.value
    if (!current || current.status.state !== 'running') return undefined
    return current.counts.queued + current.counts.sending
  })
  const { rate, secondsLeft } = throughput

  function patch(change: Partial<LiveRun>) {
    if (live.value) live.value = { ...live.value, ...change }
  }

  /** Whether this page's engine is sending `runId` now. */
  function isSending(runId: string): boolean {
    return !!slot.engine && live.value?.run.id === runId
  }

  function pause() {
    slot.engine?.pause()
  }

  function resume() {
    if (!slot.engine) return
    patch({ offline: false })
    throughput.restart()
    slot.engine.resume()
  }

  function cancel() {
    if (!slot.engine) return
    cancelRequested.value = true
    slot.engine.cancel()
  }

  return {
    slot,
    live,
    requestsRevision,
    cancelRequested,
    sending,
    rate,
    secondsLeft,
    throughput,
    patch,
    isSending,
    pause,
    resume,
    cancel,
  }
}
