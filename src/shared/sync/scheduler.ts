import { messageOf } from '../error-message.ts'
import type { ChangeSignal } from './change-signal.ts'
import type { ConcurrencyController } from './concurrency.ts'
import { HeldBatches } from './held-batches.ts'
import type { OutboxItem, SyncOutbox } from './ports.ts'
import type { RunLifecycle } from './run-lifecycle.ts'

/**
 * The scheduler: which batch goes next and when. It streams queued items from the outbox in
 * position order, one read at a time (so two slots never read the same page), in batches of the
 * run's size, halves and paused batches (held back) first; it runs `concurrency` slots, each
 * sending one batch at a time through `send` (request-attempt.ts) while it holds a permit, never
 * more permits than the concurrency controller's limit. A person's decision takes its turn between
 * two reads (`inTurn`), and what it queues again behind the read cursor waits with the held batches.
 */
export interface Scheduler {
  /** Runs `step` in the outbox's turn: after the reads and decisions before it, before those after. */
  inTurn<T>(step: () => Promise<T>): Promise<T>
  /** Items queued again by a decision: those the reads have passed wait as held batches. */
  requeue(items: readonly OutboxItem[]): void
  /** A decision is being applied: until it is, a slot with nothing to send waits instead of ending the run. */
  beginDecision(): void
  endDecision(): void
  /** Runs the slots until there is nothing left to send, the run is cancelled or it ends. */
  runSlots(concurrency: number): Promise<void>
  readonly held: HeldBatches
  /** Requests in flight now. */
  readonly inFlight: number
  takePermit(signal?: AbortSignal): Promise<void>
  givePermit(): void
}

export interface SchedulerDeps {
  outbox: SyncOutbox
  controller: ConcurrencyController
  lifecycle: RunLifecycle
  changed: ChangeSignal
  batchSize: number
  send(batch: OutboxItem[]): Promise<void>
}

export function createScheduler({
  outbox,
  controller,
  lifecycle,
  changed,
  batchSize,
  send,
}: SchedulerDeps): Scheduler {
  /**
   * Slots allowed to send: a slot takes one before it reads a batch and gives it back once its
   * request's outcome is written, or while it waits to send again. Never more than the
   * controller's limit are taken (a lowered limit lets those already taken finish).
   */
  let permits = 0
  /** Slots waiting to send a batch again: a free permit is theirs before any new batch's. */
  let awaitingPermit = 0
  /** The highest position read from the outbox: reads go on from there, never from the start. */
  let cursor = Number.NEGATIVE_INFINITY
  let exhausted = false
  let inFlight = 0
  /** Decisions being applied. */
  let deciding = 0
  const held = new HeldBatches()
  /** One outbox read at a time; a person's decision takes its turn here too. */
  let reading: Promise<unknown> = Promise.resolve()

  function inTurn<T>(step: () => Promise<T>): Promise<T> {
    const turn = reading.then(step)
    reading = turn.catch(() => undefined)
    return turn
  }

  /** Waits for a permit (see `permits`); a run that halts meanwhile takes one at once (nothing leaves). */
  async function takePermit(signal?: AbortSignal): Promise<void> {
    awaitingPermit += 1
    try {
      while (permits >= controller.limit && !signal?.aborted && !lifecycle.isOver()) await changed.next()
    } finally {
      awaitingPermit -= 1
    }
    permits += 1
  }
  function givePermit(): void {
    permits -= 1
    changed.notify()
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
      const items = await inTurn(async () => {
        if (exhausted) return []
        const page = await outbox.queuedAfter(cursor, batchSize)
        if (page.length < batchSize) exhausted = true
        const last = page.at(-1)
        if (last) cursor = last.position
        return page
      })
      if (items.length > 0) return items
      // Another slot may have held a batch back while this one read.
      const heldMeanwhile = held.take()
      if (heldMeanwhile) return heldMeanwhile
    }
    return inFlight > 0 || deciding > 0 ? { wait: changed.next() } : undefined
  }

  async function slot(): Promise<void> {
    for (;;) {
      if (lifecycle.isOver()) return
      if (lifecycle.holdsRequests()) {
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
        if (lifecycle.isOver() || lifecycle.holdsRequests()) {
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
      lifecycle.endWith({
        state: 'stopped',
        message: `The sync records could not be read or written: ${messageOf(error)}`,
      })
    }
  }

  return {
    inTurn,
    requeue(items) {
      // Items queued again above the cursor are read with the rest; those at or below it (all of
      // them once the outbox is read to its end) would never be: they wait with the held batches,
      // in batches of the run's size, lowest position first.
      const behind = items
        .filter((item) => exhausted || item.position <= cursor)
        .sort((a, b) => a.position - b.position)
      for (let start = 0; start < behind.length; start += batchSize)
        held.add(behind.slice(start, start + batchSize))
    },
    beginDecision: () => (deciding += 1),
    endDecision() {
      deciding -= 1
      changed.notify()
    },
    runSlots: async (concurrency) => {
      await Promise.all(Array.from({ length: concurrency }, () => guardedSlot()))
    },
    held,
    get inFlight() {
      return inFlight
    },
    takePermit,
    givePermit,
  }
}
