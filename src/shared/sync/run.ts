import type { ResendPolicy } from '../service/resend.ts'
import type { ConcurrencyOptions } from './concurrency.ts'
import type {
  Decided,
  ItemState,
  RequestRecord,
  RunAction,
  SyncClock,
  SyncKind,
  SyncOutbox,
  SyncTransport,
  WaitUntilOnline,
} from './ports.ts'

/** How one run sends; the profile gives batch size and concurrency. */
export interface RunSettings {
  runId: string
  kind: SyncKind
  /** Creations (the default) or updates of what was created (one a request). */
  action?: RunAction
  /** SKUs a request (forced to 1 for apps). */
  batchSize: number
  /**
   * Requests in flight at once; with `adaptive`, the most at once (the profile's "most requests
   * at a time").
   */
  concurrency: number
  /**
   * Find how many requests at once the service keeps up with while sending (concurrency.ts):
   * start at 1, one more after each window of requests whose latency holds, half as many on a 429,
   * 503, 504 or timeout, never more than `concurrency`. Off by default: exactly `concurrency`.
   */
  adaptive?: boolean | Omit<ConcurrencyOptions, 'max'>
  resend?: Partial<ResendPolicy>
  /**
   * Requests in a row whose outcome leaves items failed or unknown before the run pauses
   * ('failing'); default 3.
   */
  pauseAfterDoubtful?: number
}

/** See `RunSettings.pauseAfterDoubtful`. */
export const DEFAULT_PAUSE_AFTER_DOUBTFUL = 3

export interface RunPorts {
  outbox: SyncOutbox
  transport: SyncTransport
  clock: SyncClock
  waitUntilOnline?: WaitUntilOnline
}

/** Why a run stopped sending without being finished; it resumes with `resume()`. */
export type PauseReason =
  /** The person pressed Pause. */
  | 'requested'
  /** 401 / 403: a valid token is needed; set one, then resume. */
  | 'needs-token'
  /** The service could not be reached after the bounded resends; resumes by itself when online. */
  | 'offline'
  /** 429 / 503 for longer than the bounded waits; the person resumes when ready. */
  | 'busy'
  /**
   * Several requests in a row may or may not have been processed (500, 502, 504, a dropped
   * answer): a service in that state would turn every batch into a decision for the person, so the
   * run stops sending until they have looked and resume.
   */
  | 'failing'

export type RunStatus =
  | { state: 'running' }
  | { state: 'paused'; reason: PauseReason; message: string }
  /** Every item reached a terminal state, or the run was cancelled (what was not sent stays queued). */
  | { state: 'finished'; cancelled: boolean }
  /** 404 / 405 / other 4xx: the address or the API version is wrong; nothing more is sent. */
  | { state: 'stopped'; message: string }

/** Items of the run by state, as the engine saw them change (queued counts what is still to send). */
export type RunCounts = Record<ItemState, number>

export interface RunEvents {
  onStatus?(status: RunStatus): void
  /** After every recorded state change. */
  onProgress?(counts: RunCounts): void
  /** A request ended and was recorded (the history's per-batch details). */
  onRequest?(request: RequestRecord): void
  /** One line for the live log, in a person's words. */
  onLog?(line: string, at: number): void
  /** How many requests may be in flight now (`limit`) and the most (`max`): at the start and on every change. */
  onConcurrency?(limit: number, max: number): void
}

export interface RunSummary {
  counts: RunCounts
  status: RunStatus
}

/** Made by `createSyncRun(ports, settings, events)` in engine.ts. */
export interface SyncRun {
  /**
   * Recovers what a crash left `sending` (as `unknown`), then sends until every queued item reached
   * a terminal state, the run stopped, or it was cancelled. Pauses do not end it.
   */
  start(): Promise<RunSummary>
  pause(): void
  resume(): void
  /** Sends nothing more; the requests in flight finish and their outcomes are recorded. */
  cancel(): void
  /**
   * A person's decision about a batch of this run (mark as created, or send again), made while the
   * run is going or paused. `apply` writes it to the store and says what it moved; it runs between
   * two outbox reads, never during one: the engine reads queued items after a cursor, so an item
   * queued again below the cursor would otherwise never be read, or (read and held both) be sent
   * twice. The engine counts the moves and sends the items queued again once it sends at all (a
   * paused run stays paused); the run does not end while a decision is being applied. Resolves with
   * what `apply` returned, or undefined without calling it once the run has ended (finished,
   * cancelled or stopped): the decision is then the caller's to apply, with no engine.
   */
  decide(apply: () => Promise<Decided>): Promise<Decided | undefined>
  readonly status: RunStatus
}
