import type { ChangeSignal } from './change-signal.ts'
import type { WaitUntilOnline } from './ports.ts'
import type { PauseReason, RunStatus } from './run.ts'

/**
 * A run's lifecycle: running, paused (by the person or by an outcome), resumed, cancelled, or
 * ended (stopped, or ended paused when offline with no way back). It owns the status, the signal
 * that ends resend waits on a pause, cancel or stop (never a request in flight), and the wait for
 * the network after an offline pause. The scheduler (scheduler.ts) asks it whether a slot may take
 * work; one request's attempt (request-attempt.ts) pauses or ends the run as its outcome says.
 */
export interface RunLifecycle {
  readonly status: RunStatus
  /** Cancelled: no slot takes more work; what was not sent stays queued. */
  readonly cancelled: boolean
  /** Set by a stop, an outbox failure or offline without a way back: the run's final status. */
  readonly ending: RunStatus | undefined
  /** Fires on pause, cancel and stop (a new one after each resume). */
  readonly haltSignal: AbortSignal
  /** Outcomes that pause or stop the run, being written: until they are, no slot starts a request. */
  haltsBeingWritten: number
  /** Requests in a row that ended failed or unknown; a success, a refusal or a resume resets it. */
  doubtfulInARow: number
  /** Updates in a row whose SKU the service said is not there; any other outcome resets it. */
  notFoundInARow: number
  /** Cancelled or ending: no slot takes more work. */
  isOver(): boolean
  isPaused(): boolean
  /** Whether a slot may start a request now: not paused, and no halting outcome being written. */
  holdsRequests(): boolean
  setStatus(next: RunStatus): void
  pause(reason: PauseReason, message: string): void
  resume(): void
  /** Returns false when there was nothing to cancel (already cancelled, finished or stopped). */
  cancel(): boolean
  endWith(final: RunStatus): void
}

export interface LifecycleDeps {
  changed: ChangeSignal
  log(line: string): void
  onStatus(status: RunStatus): void
  waitUntilOnline?: WaitUntilOnline
}

export function createRunLifecycle({ changed, log, onStatus, waitUntilOnline }: LifecycleDeps): RunLifecycle {
  let status: RunStatus = { state: 'running' }
  let cancelled = false
  let ending: RunStatus | undefined
  let halt = new AbortController()
  /** Ends the wait for the network when the run is resumed or cancelled first. */
  let onlineWait: AbortController | undefined

  function setStatus(next: RunStatus): void {
    status = next
    onStatus(next)
    changed.notify()
  }

  function waitForNetwork(wait: WaitUntilOnline): void {
    if (onlineWait) return
    const controller = new AbortController()
    onlineWait = controller
    wait(controller.signal).then(
      () => {
        if (onlineWait === controller) onlineWait = undefined
        if (!controller.signal.aborted && status.state === 'paused' && status.reason === 'offline') {
          log('The network is back: sending again.')
          lifecycle.resume()
        }
      },
      () => {
        // The wait gave up: the run stays paused until the person resumes it.
        if (onlineWait === controller) onlineWait = undefined
      },
    )
  }

  const lifecycle: RunLifecycle = {
    get status() {
      return status
    },
    get cancelled() {
      return cancelled
    },
    get ending() {
      return ending
    },
    get haltSignal() {
      return halt.signal
    },
    haltsBeingWritten: 0,
    doubtfulInARow: 0,
    notFoundInARow: 0,
    isOver: () => cancelled || ending !== undefined,
    isPaused: () => status.state === 'paused',
    holdsRequests: () => status.state === 'paused' || lifecycle.haltsBeingWritten > 0,
    setStatus,
    pause(reason, message) {
      if (cancelled || ending) return
      const already = status.state === 'paused'
      halt.abort()
      setStatus({ state: 'paused', reason, message })
      if (!already || reason !== 'requested') log(`Paused: ${message}`)
      if (reason === 'offline' && waitUntilOnline) waitForNetwork(waitUntilOnline)
    },
    resume() {
      if (status.state !== 'paused' || cancelled || ending) return
      onlineWait?.abort()
      onlineWait = undefined
      halt = new AbortController()
      lifecycle.doubtfulInARow = 0
      setStatus({ state: 'running' })
    },
    cancel() {
      if (cancelled || status.state === 'finished' || status.state === 'stopped') return false
      cancelled = true
      halt.abort()
      onlineWait?.abort()
      changed.notify()
      return true
    },
    endWith(final) {
      if (ending) return
      ending = final
      halt.abort()
      onlineWait?.abort()
      setStatus(final)
    },
  }
  return lifecycle
}
