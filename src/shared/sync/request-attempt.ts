import { messageOf } from '../error-message.ts'
import { counted } from '../counted.ts'
import { resendsAutomatically, type Outcome } from '../service/outcome.ts'
import { sendWithResend } from '../service/resend.ts'
import { loadSignOf, type ConcurrencyController } from './concurrency.ts'
import type { HeldBatches } from './held-batches.ts'
import { backToQueue, settled } from './item-updates.ts'
import { requestBody, runRequest, type DraftKind } from './kinds.ts'
import { decideOutcome } from './outcome-decision.ts'
import type {
  ItemState,
  ItemUpdate,
  OutboxItem,
  RequestOutcome,
  RequestRecord,
  SyncClock,
  SyncOutbox,
  SyncTransport,
} from './ports.ts'
import { bodyBytes } from './request-bytes.ts'
import type { RunLifecycle } from './run-lifecycle.ts'
import { seconds } from './run-log.ts'
import type { RunEvents, RunSettings } from './run.ts'

/**
 * One request's attempt at a batch, from its record to its outcome written: the request is in the
 * outbox before it leaves (a crash then leaves its items `sending`, hence `unknown`), is sent
 * through the transport once, resent only as the one resend rule allows (service/outcome.ts: a
 * batch provably not processed is put back to `queued` before the wait, so a crash while waiting
 * leaves it queued), and its outcome is decided (outcome-decision.ts) and written before any of its
 * items goes out again. A pause or stop the outcome calls for is announced once it is written.
 */

/** A request recorded while the run paused or ended: it was never handed to the transport. */
export const NOT_SENT_HALTED: Outcome = {
  kind: 'unreachable',
  processed: 'no',
  message: 'Not sent: the run was paused, cancelled or stopped before this request left.',
  durationMs: 0,
}

/** A transport that throws instead of answering: nobody knows whether the request left. */
export function thrownOutcome(error: unknown): Outcome {
  const detail = messageOf(error)
  return {
    kind: 'unknown',
    processed: 'maybe',
    message: `The request failed in an unexpected way (${detail.slice(0, 200)}); it may have reached the service.`,
    durationMs: 0,
  }
}

/** What is kept of an outcome in the request's record: never the raw answer. */
export function recorded(outcome: Outcome, action: string): RequestOutcome {
  const kept: RequestOutcome = {
    kind: outcome.kind,
    processed: outcome.processed,
    message: outcome.message,
    durationMs: outcome.durationMs,
    action,
  }
  if (outcome.status !== undefined) kept.status = outcome.status
  if (outcome.serviceMessage !== undefined) kept.serviceMessage = outcome.serviceMessage
  if (outcome.problems !== undefined) kept.problems = outcome.problems
  return kept
}

/** The run's items by state, as the engine counts them; `apply` moves items from one state and tells the listeners. */
export interface ItemCounts {
  readonly counts: Record<ItemState, number>
  apply(from: ItemState, updates: readonly { state: ItemState }[]): void
}

export interface AttemptDeps {
  settings: Pick<RunSettings, 'runId' | 'action' | 'resend' | 'pauseAfterDoubtful'>
  definition: DraftKind
  outbox: SyncOutbox
  transport: SyncTransport
  clock: SyncClock
  controller: ConcurrencyController
  lifecycle: RunLifecycle
  counts: ItemCounts
  held: HeldBatches
  /** Requests in flight in the run now, this one included. */
  inFlight(): number
  /** The wait before another attempt leaves the service alone: its slot's permit goes to another. */
  givePermit(): void
  takePermit(signal?: AbortSignal): Promise<void>
  /** After each answer: the concurrency controller may have a new limit to announce. */
  reportConcurrency(): void
  canWaitForNetwork: boolean
  pauseAfterDoubtful: number
  /** A new request id, unique across resumes of the run. */
  nextRequestId(): string
  log(line: string): void
  onRequest: NonNullable<RunEvents['onRequest']>
}

/** Updates in a row whose SKU the service says is not there before the run stops (a wrong address). */
export const NOT_FOUND_STOPS = 3

export function createRequestAttempt(deps: AttemptDeps): { send(items: OutboxItem[]): Promise<void> } {
  const { definition, outbox, transport, clock, controller, lifecycle, counts } = deps

  /** Records a request's outcome and its items' new states, then tells the listeners. */
  async function end(
    record: RequestRecord,
    outcome: Outcome,
    action: string,
    updates: readonly ItemUpdate[],
  ): Promise<void> {
    const ended: RequestRecord = { ...record, endedAt: clock.now(), outcome: recorded(outcome, action) }
    await outbox.endRequest(ended, updates)
    counts.apply('sending', updates)
    deps.onRequest(ended)
  }

  async function send(items: OutboxItem[]): Promise<void> {
    const action = deps.settings.action ?? 'create'
    const request = runRequest(
      definition,
      action,
      items.map((item) => item.payload),
    )
    const bytes = bodyBytes(requestBody(request))
    const keys = items.map((item) => item.key)
    const signal = lifecycle.haltSignal
    let record: RequestRecord | undefined
    let attempt = 0

    // Each attempt is a request of its own in the outbox, recorded before it leaves. One that
    // provably was not processed (429, 503 with Retry-After, no connection) puts its items back to
    // `queued` before the wait for the next attempt: a crash while waiting leaves them queued, to
    // be sent on resume, rather than unknown.
    const result = await sendWithResend(
      async () => {
        attempt += 1
        record = {
          id: deps.nextRequestId(),
          runId: deps.settings.runId,
          kind: definition.kind,
          keys,
          bytes,
          startedAt: clock.now(),
          attempts: attempt,
        }
        // From here on a crash leaves these items `sending`, hence `unknown` on the next start.
        await outbox.beginRequest(record)
        counts.apply(
          'queued',
          items.map(() => ({ state: 'sending' })),
        )
        if (signal.aborted || lifecycle.haltsBeingWritten > 0) {
          // Paused, cancelled or stopped (or about to be) while the request was being recorded: it
          // does not leave.
          await end(record, NOT_SENT_HALTED, 'not sent: the run paused or ended first', backToQueue(items))
          return NOT_SENT_HALTED
        }
        let outcome: Outcome
        const ticket = controller.started()
        try {
          outcome = await transport.send(request, record.id)
        } catch (error) {
          outcome = thrownOutcome(error)
        }
        controller.finished(ticket, loadSignOf(outcome))
        deps.reportConcurrency()
        if (resendsAutomatically(outcome)) {
          await end(record, outcome, 'not taken; queued again', backToQueue(items))
        }
        return outcome
      },
      deps.settings.resend ?? {},
      {
        sleep: async (ms, sleepSignal) => {
          deps.givePermit()
          try {
            await clock.sleep(ms, sleepSignal)
          } finally {
            await deps.takePermit(sleepSignal)
          }
        },
        random: () => clock.random(),
        signal,
        onWait: ({ delayMs }) =>
          deps.log(
            `${definition.batchName(items)}: not taken yet; trying again in ${seconds(delayMs)} (attempt ${attempt + 1}).`,
          ),
      },
    )
    const { outcome } = result
    const decision = decideOutcome(items, outcome, {
      kind: definition,
      action,
      haltedMeanwhile: signal.aborted,
      canWaitForNetwork: deps.canWaitForNetwork,
    })
    // "Not there" once or twice is about those SKUs; three in a row is more likely a base URL
    // that reaches some other service: the third stops the run as a wrong address.
    lifecycle.notFoundInARow = outcome.kind === 'not-found' ? lifecycle.notFoundInARow + 1 : 0
    if (lifecycle.notFoundInARow >= NOT_FOUND_STOPS) {
      const message = `${outcome.message} ${NOT_FOUND_STOPS} requests in a row found nothing at this address: check the profile's base URL before sending again.`
      decision.write = { action: 'stopped: wrong address', updates: settled(items, 'failed', message) }
      decision.stop = true
      decision.stopMessage = message
    }
    if (outcome.processed === 'maybe') lifecycle.doubtfulInARow += 1
    else if (outcome.processed === 'yes' || outcome.kind === 'rejected') lifecycle.doubtfulInARow = 0
    // Only while there is more to send: a run whose last request was doubtful simply ends.
    const workLeft = counts.counts.queued > 0 || deps.inFlight() > 1
    if (
      !decision.pause &&
      !decision.stop &&
      workLeft &&
      lifecycle.doubtfulInARow >= deps.pauseAfterDoubtful
    ) {
      decision.pause = 'failing'
      decision.pauseMessage = `${counted(lifecycle.doubtfulInARow, 'request')} in a row may or may not have been processed; nothing more is sent until you have looked at the service and resumed.`
    }
    // A pause or stop is announced once the outcome is written (a person who sees "paused" and
    // closes the app finds the batch queued, not unknown); meanwhile no slot starts a request.
    const halting = decision.stop || decision.end || decision.pause !== undefined
    if (halting) lifecycle.haltsBeingWritten += 1
    try {
      if (decision.write) await end(record!, outcome, decision.write.action, decision.write.updates)
    } finally {
      if (halting) lifecycle.haltsBeingWritten -= 1
    }
    if (decision.stop)
      lifecycle.endWith({ state: 'stopped', message: decision.stopMessage ?? outcome.message })
    else if (decision.end) {
      lifecycle.pause('offline', outcome.message)
      lifecycle.endWith({ state: 'paused', reason: 'offline', message: outcome.message })
    } else if (decision.pause) lifecycle.pause(decision.pause, decision.pauseMessage ?? outcome.message)
    deps.log(decision.log)
    // Only now, with the queued states written, may the halves or the batch go out again.
    deps.held.add(...decision.hold)
  }

  return { send }
}
