import type { Outcome } from '../service/outcome.ts'
import type { OperationCall } from '../service/operations.ts'

/** What an item interrupted mid-send says, recovered as `unknown` (`SyncOutbox.recoverInterrupted`). */
export const RECOVERED_MESSAGE =
  'The app or the command stopped while this was being sent: the service may or may not have received it.'

/**
 * What the sync engine needs from the world, and nothing more: an outbox it reads items from and
 * writes states to, a transport that sends one request and says what came of it, and a clock. The
 * app plugs in a Dexie outbox and the bridge to main; the CLI a journal file and the got client.
 */

/** What a run sends: SKUs in batches to the bulk endpoint, or app creation requests one by one. */
export type SyncKind = 'skus' | 'apps'

/**
 * What a run does with its drafts: `create` them (a kind's `create` operation, in batches), or
 * `update` what was created (its `update` operation, one a request: each item's payload is that
 * operation's argument, built by the outbox from what changed).
 */
export type RunAction = 'create' | 'update'

/** Where an item of a run stands. `queued` is also where an item goes back when it provably was not processed. */
export const ITEM_STATES = ['queued', 'sending', 'synced', 'rejected', 'failed', 'unknown'] as const
export type ItemState = (typeof ITEM_STATES)[number]

/** Items counted by state, all at zero: where every count of a run starts. */
export function noItems(): Record<ItemState, number> {
  return { queued: 0, sending: 0, synced: 0, rejected: 0, failed: 0, unknown: 0 }
}

export const TERMINAL_STATES = ['synced', 'rejected', 'failed', 'unknown'] as const
export type TerminalState = (typeof TERMINAL_STATES)[number]

/** One thing to send: a SKU (a batch holds many) or an app creation request (alone in its request). */
export interface OutboxItem {
  /** The outbox's key: a draft id in the app, the row's index in the CLI. */
  key: string
  /** The item's place in the run: items go out in this order. Unique within a run. */
  position: number
  /** Exactly what is sent. */
  payload: unknown
  /** How a person recognises the item: a SKU's barcode, an app's name. */
  label: string
}

/** A request as the outbox records it, before it leaves and again with its outcome. */
export interface RequestRecord {
  id: string
  runId: string
  kind: SyncKind
  /** The items' keys, in order. */
  keys: string[]
  /** Bytes of the JSON body. */
  bytes: number
  startedAt: number
  /** Set once the request ended. */
  endedAt?: number
  /** Which attempt at sending these items this is: an automatic resend of what provably was not processed counts up. */
  attempts?: number
  outcome?: RequestOutcome
}

/** What is kept of an outcome: the classification and what the service said, never the raw response. */
export type RequestOutcome = Pick<
  Outcome,
  'kind' | 'processed' | 'status' | 'message' | 'serviceMessage' | 'problems' | 'durationMs'
> & {
  /** What the engine did about it, in a person's words ("split into 25 + 25", "paused: token needed"). */
  action: string
}

/** An item's new state after a request, with what a person needs to know about it. */
export interface ItemUpdate {
  key: string
  state: Exclude<ItemState, 'sending'>
  /** Why an item is rejected, failed or unknown (the service's message when it gave one). */
  message?: string
  /** The id the service gave what it created: an app's `_id`, a SKU's when the bulk answer carried ids. */
  remoteId?: string
  /** For an app: the service's answer (untrusted, size-limited), to compare with what was sent. */
  response?: unknown
  /** An update's SKU is not on the service (a 404 with its message): rejected, and said so. */
  gone?: true
}

/** One item a person's decision moved: from the state its request left it in to the one they chose. */
export interface DecidedMove {
  key: string
  from: ItemState
  to: ItemState
}

/**
 * What a person's decision about a batch changed (unknown or failed items marked created, or queued
 * to be sent again), as the store that wrote it says: a running engine adjusts its counts by
 * `moved` and sends `requeued` (see `SyncRun.decide`).
 */
export interface Decided {
  /** Every item the decision changed; items it left as they were are not here. */
  moved: readonly DecidedMove[]
  /** The items of `moved` that are `queued` again, as the outbox would read them, in position order. */
  requeued: readonly OutboxItem[]
}

/**
 * What an outbox throws when asked for a change that contradicts what it holds (an item that is
 * not there or not sending, a request recorded twice): a bug in the caller, never a network fault.
 */
export class OutboxConflictError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OutboxConflictError'
  }
}

export interface SyncOutbox {
  /**
   * Up to `limit` items of the run in state `queued` with a position above `after`, in position
   * order, read from the store (never all at once: the engine streams).
   */
  queuedAfter(after: number, limit: number): Promise<OutboxItem[]>
  /**
   * Before a request leaves: its items become `sending` and the request is recorded, in one
   * transaction that has committed when the promise resolves.
   */
  beginRequest(request: RequestRecord): Promise<void>
  /** After the outcome: the request's record and its items' states, in one transaction. */
  endRequest(request: RequestRecord, updates: readonly ItemUpdate[]): Promise<void>
  /**
   * After a crash or restart: every `sending` item becomes `unknown` (its request may have been
   * processed) and every open request is closed as such, with `message` (RECOVERED_MESSAGE).
   * Returns how many items it changed.
   */
  recoverInterrupted(message: string): Promise<number>
  /** The run's items by state, counted in the store (where a run starts or resumes from). */
  counts(): Promise<Record<ItemState, number>>
}

/**
 * One request, one outcome; never resends by itself (the engine decides, see service/resend.ts).
 * A request once started is never aborted: a cancel or pause lets it finish, so its outcome is known.
 * Every operation goes the same way: its key in the operation table and its argument
 * (src/shared/service/operations.ts); the kind of draft says which operation (kinds.ts).
 */
export interface SyncTransport {
  /** `requestId` is the outbox's record of the request (the app's main keeps its answer by it). */
  send(request: OperationCall, requestId: string): Promise<Outcome>
}

export interface SyncClock {
  now(): number
  /** Resolves after `ms`, or early when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** In [0, 1), for backoff jitter. */
  random(): number
}

/**
 * Optional: resolves when the network is likely back (the app listens for `online` and probes);
 * without it, a run that finds the service unreachable stops instead of pausing.
 */
export type WaitUntilOnline = (signal: AbortSignal) => Promise<void>
