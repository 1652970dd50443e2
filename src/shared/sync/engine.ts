import { sendWithResend } from '../service/resend.ts'
import { resendsAutomatically, type Outcome } from '../service/outcome.ts'
import { createChangeSignal } from './change-signal.ts'
import { createConcurrencyController, fixedConcurrency, loadSignOf } from './concurrency.ts'
import { HeldBatches } from './held-batches.ts'
import { backToQueue } from './item-updates.ts'
import { createRequest, draftKind, requestBody } from './kinds.ts'
import { decideOutcome } from './outcome-decision.ts'
import {
  ITEM_STATES,
  noItems,
  type ItemState,
  type ItemUpdate,
  type OutboxItem,
  type RequestOutcome,
  type RequestRecord,
} from './ports.ts'
import { bodyBytes } from './request-bytes.ts'
import { plural } from '../plural.ts'
import { seconds } from './run-log.ts'
import {
  DEFAULT_PAUSE_AFTER_DOUBTFUL,
  type PauseReason,
  type RunEvents,
  type RunPorts,
  type RunSettings,
  type RunStatus,
  type RunSummary,
  type SyncRun,
} from './run.ts'
import { messageOf } from '../error-message.ts'

/**
 * The sync engine: streams queued items from the outbox in position order and sends them in
 * batches with at most `concurrency` requests in flight (with `adaptive`, as many as the
 * concurrency controller allows, never more than `concurrency`: see concurrency.ts). Each request
 * is in the outbox before it leaves, and its outcome is written before any of its items goes out
 * again and before its slot sends anything else. While an outcome that pauses or stops the run is
 * being written, no slot starts a request; the pause or stop is announced once it is written. (A batch the service would
 * not take, busy or unreachable, is written back to `queued` after each attempt, before the wait:
 * nothing of it was processed.) A crash at any point leaves a store that says what may
 * have happened: `sending` becomes `unknown` on the next start, `queued` is sent again.
 *
 * The bulk endpoint is not idempotent: the only automatic resend is `sendWithResend` for outcomes
 * that prove the request was not processed. Everything else follows the outcome table of the
 * architecture guide. Pure TypeScript behind ports: the app and the CLI run the same code.
 */

export const RECOVERED_MESSAGE =
  'The app or the command stopped while this was being sent: the service may or may not have received it.'

let runsMade = 0

/** A request recorded while the run paused or ended: it was never handed to the transport. */
const NOT_SENT_HALTED: Outcome = {
  kind: 'unreachable',
  processed: 'no',
  message: 'Not sent: the run was paused, cancelled or stopped before this request left.',
  durationMs: 0,
}

/** A transport that throws instead of answering: nobody knows whether the request left. */
function thrownOutcome(error: unknown): Outcome {
  const detail = messageOf(error)
  return {
    kind: 'unknown',
    processed: 'maybe',
    message: `The request failed in an unexpected way (${detail.slice(0, 200)}); it may have reached the service.`,
    durationMs: 0,
  }
}

function recorded(outcome: Outcome, action: string): RequestOutcome {
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

export function createSyncRun(ports: RunPorts, settings: RunSettings, events: RunEvents = {}): SyncRun {
  const { outbox, transport, clock } = ports
  const definition = draftKind(settings.kind)
  const { kind, noun } = definition
  const { batchSize, concurrency } = definition.sending(settings)
  const controller = settings.adaptive
    ? createConcurrencyController(
        { ...(settings.adaptive === true ? {} : settings.adaptive), max: concurrency },
        () => clock.now(),
      )
    : fixedConcurrency(concurrency)
  /**
   * Slots allowed to send: a slot takes one before it reads a batch and gives it back once its
   * request's outcome is written, or while it waits to send again. Never more than the
   * controller's limit are taken (a lowered limit lets those already taken finish).
   */
  let permits = 0
  /** Slots waiting to send a batch again: a free permit is theirs before any new batch's. */
  let awaitingPermit = 0

  let status: RunStatus = { state: 'running' }
  let counts = noItems()
  /** The highest position read from the outbox: reads go on from there, never from the start. */
  let cursor = Number.NEGATIVE_INFINITY
  let exhausted = false
  let cancelled = false
  /** Set by a stop, an outbox failure or offline without a way back: no slot takes more work. */
  let ending: RunStatus | undefined
  let inFlight = 0
  let sequence = 0
  /** Outcomes that pause or stop the run, being written: until they are, no slot starts a request. */
  let haltsBeingWritten = 0
  /** Requests in a row that ended failed or unknown; a success, a refusal or a resume resets it. */
  let doubtfulInARow = 0
  const pauseAfterDoubtful = Math.max(1, settings.pauseAfterDoubtful ?? DEFAULT_PAUSE_AFTER_DOUBTFUL)
  // Request ids must stay unique when a run of the same id resumes after a crash: the time, a
  // random part and a counter of runs made in this process together see to it.
  const instance = `${Math.floor(clock.now())}-${Math.floor(clock.random() * 36 ** 6).toString(36)}-${++runsMade}`
  const held = new HeldBatches()
  const changed = createChangeSignal()
  /** Fires on pause, cancel and stop: ends resend waits, never a request in flight. */
  let halt = new AbortController()
  /** Ends the wait for the network when the run is resumed or cancelled first. */
  let onlineWait: AbortController | undefined
  /**
   * One outbox read at a time, so two slots never read the same page; a person's decision takes its
   * turn here too (see `decide`).
   */
  let reading: Promise<unknown> = Promise.resolve()
  /** Decisions being applied: until they are, a slot with nothing to send waits instead of ending the run. */
  let deciding = 0
  /** Every slot has ended: a decision can no longer be sent by this run. */
  let closed = false
  let started: Promise<RunSummary> | undefined

  const safely = (call: () => void) => {
    try {
      call()
    } catch {
      // A listener's bug must not stop the run or leave items sending.
    }
  }
  const log = (line: string) => safely(() => events.onLog?.(line, clock.now()))
  const progress = () => safely(() => events.onProgress?.({ ...counts }))
  let reportedLimit = 0
  function reportConcurrency(): void {
    if (controller.limit === reportedLimit) return
    const lower = controller.limit < reportedLimit
    reportedLimit = controller.limit
    safely(() => events.onConcurrency?.(controller.limit, controller.max))
    if (lower) log(`The service is busy: ${controller.limit} at a time now.`)
    changed.notify()
  }
  /** Waits for a permit (see `permits`); a run that halts meanwhile takes one at once (nothing leaves). */
  async function takePermit(signal?: AbortSignal): Promise<void> {
    awaitingPermit += 1
    try {
      while (permits >= controller.limit && !signal?.aborted && !cancelled && !ending) await changed.next()
    } finally {
      awaitingPermit -= 1
    }
    permits += 1
  }
  function givePermit(): void {
    permits -= 1
    changed.notify()
  }
  function setStatus(next: RunStatus): void {
    status = next
    safely(() => events.onStatus?.(next))
    changed.notify()
  }

  function pause(reason: PauseReason, message: string): void {
    if (cancelled || ending) return
    const already = status.state === 'paused'
    halt.abort()
    setStatus({ state: 'paused', reason, message })
    if (!already || reason !== 'requested') log(`Paused: ${message}`)
    if (reason === 'offline' && ports.waitUntilOnline) waitForNetwork(ports.waitUntilOnline)
  }

  function waitForNetwork(wait: NonNullable<RunPorts['waitUntilOnline']>): void {
    if (onlineWait) return
    const controller = new AbortController()
    onlineWait = controller
    wait(controller.signal).then(
      () => {
        if (onlineWait === controller) onlineWait = undefined
        if (!controller.signal.aborted && status.state === 'paused' && status.reason === 'offline') {
          log('The network is back: sending again.')
          resume()
        }
      },
      () => {
        // The wait gave up: the run stays paused until the person resumes it.
        if (onlineWait === controller) onlineWait = undefined
      },
    )
  }

  const isPaused = () => status.state === 'paused'

  function resume(): void {
    if (status.state !== 'paused' || cancelled || ending) return
    onlineWait?.abort()
    onlineWait = undefined
    halt = new AbortController()
    doubtfulInARow = 0
    setStatus({ state: 'running' })
  }

  function endWith(final: RunStatus): void {
    if (ending) return
    ending = final
    halt.abort()
    onlineWait?.abort()
    setStatus(final)
  }

  function applyCounts(from: ItemState, updates: readonly { state: ItemState }[]): void {
    counts[from] -= updates.length
    for (const update of updates) counts[update.state] += 1
    progress()
  }

  /**
   * Work for one slot: a held batch first, then the next page of the outbox. While other requests
   * are in flight they may still hold halves back, so the slot waits for a change; the wait is
   * taken in the same synchronous step as the check, so no notification can fall in between.
   */
  async function nextBatch(): Promise<OutboxItem[] | { wait: Promise<void> } | undefined> {
    const again = held.take()
    if (again) return again
    if (!exhausted) {
      const read = reading.then(async () => {
        if (exhausted) return []
        const items = await outbox.queuedAfter(cursor, batchSize)
        if (items.length < batchSize) exhausted = true
        const last = items.at(-1)
        if (last) cursor = last.position
        return items
      })
      reading = read.catch(() => undefined)
      const items = await read
      if (items.length > 0) return items
      // Another slot may have held a batch back while this one read.
      const heldMeanwhile = held.take()
      if (heldMeanwhile) return heldMeanwhile
    }
    return inFlight > 0 || deciding > 0 ? { wait: changed.next() } : undefined
  }

  async function send(items: OutboxItem[]): Promise<void> {
    const request = createRequest(
      definition,
      items.map((item) => item.payload),
    )
    const bytes = bodyBytes(requestBody(request))
    const keys = items.map((item) => item.key)
    const signal = halt.signal
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
          id: `${settings.runId}/${instance}/${++sequence}`,
          runId: settings.runId,
          kind,
          keys,
          bytes,
          startedAt: clock.now(),
          attempts: attempt,
        }
        // From here on a crash leaves these items `sending`, hence `unknown` on the next start.
        await outbox.beginRequest(record)
        applyCounts(
          'queued',
          items.map(() => ({ state: 'sending' })),
        )
        if (signal.aborted || haltsBeingWritten > 0) {
          // Paused, cancelled or stopped (or about to be) while the request was being recorded: it
          // does not leave.
          await end(record, NOT_SENT_HALTED, 'not sent: the run paused or ended first', backToQueue(items))
          return NOT_SENT_HALTED
        }
        let outcome: Outcome
        const ticket = controller.started()
        try {
          outcome = await transport.send(request)
        } catch (error) {
          outcome = thrownOutcome(error)
        }
        controller.finished(ticket, loadSignOf(outcome))
        reportConcurrency()
        if (resendsAutomatically(outcome)) {
          await end(record, outcome, 'not taken; queued again', backToQueue(items))
        }
        return outcome
      },
      settings.resend ?? {},
      {
        // The wait before another attempt leaves the service alone: its permit goes to another slot.
        sleep: async (ms, sleepSignal) => {
          givePermit()
          try {
            await clock.sleep(ms, sleepSignal)
          } finally {
            await takePermit(sleepSignal)
          }
        },
        random: () => clock.random(),
        signal,
        onWait: ({ delayMs }) =>
          log(
            `${definition.batchName(items)}: not taken yet; trying again in ${seconds(delayMs)} (attempt ${attempt + 1}).`,
          ),
      },
    )
    const { outcome } = result
    const decision = decideOutcome(items, outcome, {
      kind: definition,
      haltedMeanwhile: signal.aborted,
      canWaitForNetwork: ports.waitUntilOnline !== undefined,
    })
    if (outcome.processed === 'maybe') doubtfulInARow += 1
    else if (outcome.processed === 'yes' || outcome.kind === 'rejected') doubtfulInARow = 0
    // Only while there is more to send: a run whose last request was doubtful simply ends.
    const workLeft = counts.queued > 0 || inFlight > 1
    if (!decision.pause && !decision.stop && workLeft && doubtfulInARow >= pauseAfterDoubtful) {
      decision.pause = 'failing'
      decision.pauseMessage = `${plural(doubtfulInARow, 'request')} in a row may or may not have been processed; nothing more is sent until you have looked at the service and resumed.`
    }
    // A pause or stop is announced once the outcome is written (a person who sees "paused" and
    // closes the app finds the batch queued, not unknown); meanwhile no slot starts a request.
    const halting = decision.stop || decision.end || decision.pause !== undefined
    if (halting) haltsBeingWritten += 1
    try {
      if (decision.write) await end(record!, outcome, decision.write.action, decision.write.updates)
    } finally {
      if (halting) haltsBeingWritten -= 1
    }
    if (decision.stop) endWith({ state: 'stopped', message: outcome.message })
    else if (decision.end) {
      pause('offline', outcome.message)
      endWith({ state: 'paused', reason: 'offline', message: outcome.message })
    } else if (decision.pause) pause(decision.pause, decision.pauseMessage ?? outcome.message)
    log(decision.log)
    // Only now, with the queued states written, may the halves or the batch go out again.
    held.add(...decision.hold)
  }

  /** Records a request's outcome and its items' new states, then tells the listeners. */
  async function end(
    record: RequestRecord,
    outcome: Outcome,
    action: string,
    updates: readonly ItemUpdate[],
  ): Promise<void> {
    const ended: RequestRecord = { ...record, endedAt: clock.now(), outcome: recorded(outcome, action) }
    await outbox.endRequest(ended, updates)
    applyCounts('sending', updates)
    safely(() => events.onRequest?.(ended))
  }

  async function slot(): Promise<void> {
    for (;;) {
      if (cancelled || ending) return
      if (status.state === 'paused' || haltsBeingWritten > 0) {
        await changed.next()
        continue
      }
      if (permits >= controller.limit || awaitingPermit > 0) {
        await changed.next()
        continue
      }
      permits += 1
      let holding = true
      const release = () => {
        if (holding) givePermit()
        holding = false
      }
      try {
        const batch = await nextBatch()
        if (batch === undefined) return
        if (!Array.isArray(batch)) {
          // Nothing to read: the permit goes back quietly (a notification would end this very
          // wait, and another idle slot would find nothing either), unless a slot waits to send
          // a batch again.
          holding = false
          permits -= 1
          if (awaitingPermit > 0) changed.notify()
          await batch.wait
          continue
        }
        // Paused, cancelled or stopped while reading: the batch waits, still queued in the outbox.
        // (Read through a function: the compiler cannot see that the await above may have paused the run.)
        if (cancelled || ending || isPaused() || haltsBeingWritten > 0) {
          held.add(batch)
          continue
        }
        inFlight += 1
        try {
          await send(batch)
        } finally {
          inFlight -= 1
        }
      } finally {
        release()
      }
    }
  }

  /** A slot whose outbox read or write failed stops the run: nothing is sent that could not be recorded. */
  async function guardedSlot(): Promise<void> {
    try {
      await slot()
    } catch (error) {
      const detail = messageOf(error)
      endWith({ state: 'stopped', message: `The sync records could not be read or written: ${detail}` })
    }
  }

  async function run(): Promise<RunSummary> {
    try {
      // In the outbox's turn, like a decision: one made before these reads is in the stored counts,
      // one made after is counted by `decide`, never both or neither.
      const opening = reading.then(async () => {
        const recovered = await outbox.recoverInterrupted(RECOVERED_MESSAGE)
        if (recovered > 0)
          log(
            `${plural(recovered, noun)} left sending by an earlier run marked unknown: check them on the platform.`,
          )
        const stored = await outbox.counts()
        counts = noItems()
        for (const state of ITEM_STATES) counts[state] = stored[state] ?? 0
        progress()
      })
      reading = opening.catch(() => undefined)
      await opening
      if (status.state === 'running') setStatus(status)
      reportConcurrency()
      await Promise.all(Array.from({ length: concurrency }, () => guardedSlot()))
    } catch (error) {
      endWith({
        state: 'stopped',
        message: `The sync records could not be read: ${messageOf(error)}`,
      })
    }
    // A decision already being applied is written before the run ends, so whoever ends the run
    // (releasing what is still queued after a cancel, say) finds it; a later one is refused.
    closed = true
    await reading
    const final: RunStatus = ending ?? { state: 'finished', cancelled }
    if (status !== final) setStatus(final)
    log(
      final.state === 'finished'
        ? final.cancelled
          ? `Cancelled: ${plural(counts.queued, noun)} not sent.`
          : `Done: ${counts.synced} synced, ${counts.rejected} rejected, ${counts.failed} failed, ${counts.unknown} unknown.`
        : final.state === 'stopped'
          ? `Stopped: ${final.message}`
          : `Stopped while offline: ${plural(counts.queued, noun)} not sent.`,
    )
    return { counts: { ...counts }, status: final }
  }

  return {
    start() {
      started ??= run()
      return started
    },
    pause() {
      if (status.state === 'running') pause('requested', 'no new requests; those already sent are finishing.')
    },
    resume,
    cancel() {
      if (cancelled || status.state === 'finished' || status.state === 'stopped') return
      cancelled = true
      halt.abort()
      onlineWait?.abort()
      log('Cancelling: no new requests; those already sent are finishing.')
      changed.notify()
    },
    async decide(apply) {
      if (closed) return undefined
      deciding += 1
      try {
        const decision = reading.then(async () => {
          const decided = await apply()
          for (const { from, to } of decided.moved) {
            counts[from] -= 1
            counts[to] += 1
          }
          progress()
          // Items queued again above the cursor are read with the rest; those at or below it (all
          // of them once the outbox is read to its end) would never be: they wait with the held
          // batches, in batches of the run's size, lowest position first.
          const behind = decided.requeued
            .filter((item) => exhausted || item.position <= cursor)
            .sort((a, b) => a.position - b.position)
          for (let start = 0; start < behind.length; start += batchSize)
            held.add(behind.slice(start, start + batchSize))
          return decided
        })
        reading = decision.catch(() => undefined)
        return await decision
      } finally {
        deciding -= 1
        changed.notify()
      }
    },
    get status() {
      return status
    },
  }
}
