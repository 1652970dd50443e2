import { draftKind } from '#shared/sync/kinds.ts'
import type { ItemState, RunAction, SyncKind } from '#shared/sync/ports.ts'
import type { PauseReason, RunStatus } from '#shared/sync/run.ts'
import type { SyncRunState } from '#renderer/db/sync-records.ts'
import { counted } from '#renderer/words/counting.ts'

/** The states in the order the progress bar and its legend show them. */
export const BAR_STATES: readonly ItemState[] = [
  'synced',
  'rejected',
  'failed',
  'unknown',
  'sending',
  'queued',
]

export const RUN_STATE_LABELS: Record<SyncRunState, string> = {
  open: 'Not finished',
  finished: 'Finished',
  cancelled: 'Cancelled',
  stopped: 'Stopped',
}

export const PAUSE_TITLES: Record<PauseReason, string> = {
  requested: 'Paused',
  'needs-token': 'Paused: the service needs a valid token',
  // The engine's "offline": the service could not be reached, whether or not this computer is online.
  offline: 'Paused: the service cannot be reached',
  busy: 'Paused: the service is busy',
  failing: 'Paused: the service keeps failing',
}

/** The live run's title; an update run says it sends updates ("Sending updates to Production"). */
export function statusTitle(
  status: RunStatus,
  offline: boolean,
  target: string,
  action: RunAction = 'create',
): string {
  if (offline) return 'Paused: this computer is offline'
  switch (status.state) {
    case 'running':
      return action === 'update' ? `Sending updates to ${target}` : `Sending to ${target}`
    case 'paused':
      return PAUSE_TITLES[status.reason]
    case 'finished':
      return status.cancelled ? 'Cancelled' : 'Finished'
    case 'stopped':
      return 'Stopped'
  }
}

/** "12 s", "4 min", "1 h 5 min". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

export function milliseconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

/** "1 app", "3 apps". */
export function apps(n: number): string {
  return counted(n, 'app')
}

/** What a run of this kind sends, counted: "50 SKUs", "1 app". */
export function itemsOfKind(kind: SyncKind, n: number): string {
  return counted(n, draftKind(kind).noun)
}

/** The plural noun alone, for headings and labels: "SKUs", "Apps". */
export function itemNoun(kind: SyncKind, capital = false): string {
  const definition = draftKind(kind)
  return `${capital ? definition.nounAtStart : definition.noun}s`
}

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })
export function timeOfDay(at: number): string {
  return clock.format(at)
}

/** The page's id of a batch (a request), from which its card's ids derive (`${id}-title`). */
export function batchDomId(requestId: string): string {
  return `batch-${requestId.replace(/[^a-zA-Z0-9-]/g, '-')}`
}
