import { createChangeSignal } from './change-signal.ts'
import { createConcurrencyController, fixedConcurrency } from './concurrency.ts'
import { draftKind, runSending } from './kinds.ts'
import { ITEM_STATES, noItems, RECOVERED_MESSAGE } from './ports.ts'
import { counted } from '../counted.ts'
import { thousands } from '../sheet/places.ts'
import { createRequestAttempt, type ItemCounts } from './request-attempt.ts'
import { createRunLifecycle } from './run-lifecycle.ts'
import {
  DEFAULT_PAUSE_AFTER_DOUBTFUL,
  type RunEvents,
  type RunPorts,
  type RunSettings,
  type RunStatus,
  type RunSummary,
  type SyncRun,
} from './run.ts'
import { createScheduler } from './scheduler.ts'
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
 *
 * Made of three parts, each with its own tests: the scheduler (scheduler.ts: which batch goes next,
 * slots and permits, a person's decisions between two reads), one request's attempt
 * (request-attempt.ts: recorded, sent, resent only as the rule allows, decided and written), and
 * the run's lifecycle (run-lifecycle.ts: pause, resume, cancel, stop, the wait for the network).
 * This file puts them together: the run's counts, its start and end, and what it says.
 */

let runsMade = 0

export function createSyncRun(ports: RunPorts, settings: RunSettings, events: RunEvents = {}): SyncRun {
  const { outbox, transport, clock } = ports
  const definition = draftKind(settings.kind)
  const { noun } = definition
  const { batchSize, concurrency } = runSending(definition, settings.action ?? 'create', settings)
  const controller = settings.adaptive
    ? createConcurrencyController(
        { ...(settings.adaptive === true ? {} : settings.adaptive), max: concurrency },
        () => clock.now(),
      )
    : fixedConcurrency(concurrency)

  const safely = (call: () => void) => {
    try {
      call()
    } catch {
      // A listener's bug must not stop the run or leave items sending.
    }
  }
  const log = (line: string) => safely(() => events.onLog?.(line, clock.now()))

  const counts: ItemCounts & { progress(): void } = {
    counts: noItems(),
    progress() {
      safely(() => events.onProgress?.({ ...counts.counts }))
    },
    apply(from, updates) {
      counts.counts[from] -= updates.length
      for (const update of updates) counts.counts[update.state] += 1
      counts.progress()
    },
  }

  const changed = createChangeSignal()
  const lifecycle = createRunLifecycle({
    changed,
    log,
    onStatus: (status) => safely(() => events.onStatus?.(status)),
    waitUntilOnline: ports.waitUntilOnline,
  })

  let reportedLimit = 0
  function reportConcurrency(): void {
    if (controller.limit === reportedLimit) return
    const lower = controller.limit < reportedLimit
    reportedLimit = controller.limit
    safely(() => events.onConcurrency?.(controller.limit, controller.max))
    if (lower) log(`The service is busy: ${controller.limit} at a time now.`)
    changed.notify()
  }

  // Request ids must stay unique when a run of the same id resumes after a crash: the time, a
  // random part and a counter of runs made in this process together see to it.
  const instance = `${Math.floor(clock.now())}-${Math.floor(clock.random() * 36 ** 6).toString(36)}-${++runsMade}`
  let sequence = 0

  const scheduler = createScheduler({
    outbox,
    controller,
    lifecycle,
    changed,
    batchSize,
    send: (batch) => attempt.send(batch),
  })
  const attempt = createRequestAttempt({
    settings,
    definition,
    outbox,
    transport,
    clock,
    controller,
    lifecycle,
    counts,
    held: scheduler.held,
    inFlight: () => scheduler.inFlight,
    givePermit: scheduler.givePermit,
    takePermit: scheduler.takePermit,
    reportConcurrency,
    canWaitForNetwork: ports.waitUntilOnline !== undefined,
    pauseAfterDoubtful: Math.max(1, settings.pauseAfterDoubtful ?? DEFAULT_PAUSE_AFTER_DOUBTFUL),
    nextRequestId: () => `${settings.runId}/${instance}/${++sequence}`,
    log,
    onRequest: (request) => safely(() => events.onRequest?.(request)),
  })

  /** Every slot has ended: a decision can no longer be sent by this run. */
  let closed = false
  let started: Promise<RunSummary> | undefined

  async function run(): Promise<RunSummary> {
    try {
      // In the outbox's turn, like a decision: one made before these reads is in the stored counts,
      // one made after is counted by `decide`, never both or neither.
      await scheduler.inTurn(async () => {
        const recovered = await outbox.recoverInterrupted(RECOVERED_MESSAGE)
        if (recovered > 0)
          log(
            `${counted(recovered, noun)} left sending by an earlier run marked unknown: check them on the platform.`,
          )
        const stored = await outbox.counts()
        for (const state of ITEM_STATES) counts.counts[state] = stored[state] ?? 0
        counts.progress()
      })
      if (lifecycle.status.state === 'running') lifecycle.setStatus(lifecycle.status)
      reportConcurrency()
      await scheduler.runSlots(concurrency)
    } catch (error) {
      lifecycle.endWith({
        state: 'stopped',
        message: `The sync records could not be read: ${messageOf(error)}`,
      })
    }
    // A decision already being applied is written before the run ends, so whoever ends the run
    // (releasing what is still queued after a cancel, say) finds it; a later one is refused.
    closed = true
    await scheduler.inTurn(async () => undefined)
    const final: RunStatus = lifecycle.ending ?? { state: 'finished', cancelled: lifecycle.cancelled }
    if (lifecycle.status !== final) lifecycle.setStatus(final)
    const { queued, synced, rejected, failed, unknown } = counts.counts
    log(
      final.state === 'finished'
        ? final.cancelled
          ? `Cancelled: ${counted(queued, noun)} not sent.`
          : `Done: ${thousands(synced)} ${settings.action === 'update' ? 'updated' : 'synced'}, ${thousands(rejected)} rejected, ${thousands(failed)} failed, ${thousands(unknown)} unknown.`
        : final.state === 'stopped'
          ? `Stopped: ${final.message}`
          : `Stopped while offline: ${counted(queued, noun)} not sent.`,
    )
    return { counts: { ...counts.counts }, status: final }
  }

  return {
    start() {
      started ??= run()
      return started
    },
    pause() {
      if (lifecycle.status.state === 'running')
        lifecycle.pause('requested', 'no new requests; those already sent are finishing.')
    },
    resume: () => lifecycle.resume(),
    cancel() {
      if (lifecycle.cancel()) log('Cancelling: no new requests; those already sent are finishing.')
    },
    async decide(apply) {
      if (closed) return undefined
      scheduler.beginDecision()
      try {
        return await scheduler.inTurn(async () => {
          const decided = await apply()
          for (const { from, to } of decided.moved) {
            counts.counts[from] -= 1
            counts.counts[to] += 1
          }
          counts.progress()
          scheduler.requeue(decided.requeued)
          return decided
        })
      } finally {
        scheduler.endDecision()
      }
    },
    get status() {
      return lifecycle.status
    },
  }
}
