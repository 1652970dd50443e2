import type { SkuUpdateArgument } from '#shared/service/operations.ts'
import type { ItemState, RequestRecord, RunAction, SyncKind } from '#shared/sync/ports.ts'
import type { PauseReason } from '#shared/sync/run.ts'

/**
 * Where a run stands as the outbox keeps it. `open`: it has items still queued or sending, or it
 * was never told it ended (a crash, a closed window): it can be resumed. `finished`: every item
 * reached a terminal state. `cancelled`: the person stopped it; what was still queued went back
 * to draft. `stopped`: the service said the address or the API version is wrong.
 */
export type SyncRunState = 'open' | 'finished' | 'cancelled' | 'stopped'

/** One sync run: what was sent where, and how it ended. */
export interface SyncRunRecord {
  id: string
  /** `skus` or `apps` (one app a request). */
  kind: SyncKind
  /**
   * What it does with its drafts: creates them (absent: every run before updates was one), or
   * updates SKUs created there, one a request. An update run's items move the drafts' `update`
   * standing there, never their creation's (src/shared/sync/standing.ts).
   */
  action?: RunAction
  /**
   * The profile the run sends with: fixed when it starts. A resume goes to the same place or not
   * at all: the store compares `url` with the profile's address first (features/sync/run-target.ts).
   */
  profileId: string
  profileName: string
  /** The address it sends to, as the profile named it when the run started (for the history). */
  url: string
  /**
   * Where its drafts go (src/shared/sync/destination.ts): the drafts' standings it writes are
   * theirs at this destination, and it sends only while its profile still leads there.
   */
  destination: string
  batchSize: number
  concurrency: number
  createdAt: number
  updatedAt: number
  state: SyncRunState
  /** Items queued when the run was prepared. */
  total: number
  /** Items that went back to draft when the run was cancelled. */
  returned?: number
  /** The last pause or stop, in a person's words (what the history shows). */
  lastMessage?: string
  lastPause?: PauseReason
  /** The team workspace's name of the desk that sent it: this desk's while joined (issue #42). */
  sentBy?: string
  /**
   * Another desk's run, known here from the workspace's send records (db/team-send-records.ts):
   * never sent, resumed or decided from this desk; its items are those records.
   */
  fromWorkspace?: true
}

/** One item of a run: a SKU draft (its id is the key) at its place in the run. */
export interface SyncItemRecord {
  run: string
  position: number
  /** The draft's id. */
  key: string
  /** The SKU's barcode (or product name when it has none): how a person finds it. */
  label: string
  state: ItemState
  /** Why it is rejected, failed or unknown. */
  message?: string
  /** The request that last carried it. */
  requestId?: string
  /** For an app: the `_id` the service returned. */
  remoteId?: string
  /** For an app: the service's answer, to compare with what was sent. */
  response?: unknown
  /**
   * Exactly what was sent, written as its request began (a queued draft cannot change, so it is
   * the draft's payload then): what a later version of the draft is compared with. For an update,
   * the whole draft as it was then (what stands on the platform once it is applied); what the
   * request carried is `update`.
   */
  sent?: unknown
  /** For an update: the request's argument, the platform's id and the fields sent (the body). */
  update?: SkuUpdateArgument
  /**
   * For an update left sending by a crash: it was queued again once (a PUT sent twice does what it
   * does once); left sending a second time, it is unknown.
   */
  requeuedAfterCrash?: true
}

/** A request of a run, as the engine recorded it before it left and again with its outcome. */
export interface SyncRequestRecord extends RequestRecord {
  /** The items' labels, in the order of `keys`: the history lists the SKUs of a batch without reading them. */
  labels: string[]
  /** What the person decided about an `unknown` or `failed` batch, and when. */
  resolution?: { choice: 'created' | 'resend'; at: number }
}
