import { PROCESSED, type Outcome, type OutcomeKind } from '#shared/service/outcome.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import { createMemoryOutbox, type MemoryOutbox } from './memory-outbox.ts'
import type { ItemState, OutboxItem, SyncClock, SyncOutbox, SyncTransport } from '#shared/sync/ports.ts'
import type { RunCounts, RunEvents, RunPorts, RunSettings, RunStatus } from '#shared/sync/run.ts'

/** The engine against the memory outbox and a scripted transport: every outcome on demand, no network. */

export interface FakeSku {
  barcode: string
}

export function skuItems(count: number, states: Record<number, ItemState> = {}) {
  return Array.from({ length: count }, (_, index) => ({
    key: `k${index}`,
    position: index,
    payload: { barcode: `B${index}` } satisfies FakeSku,
    label: `B${index}`,
    ...(states[index] ? { state: states[index] } : {}),
  }))
}

export function outcome(kind: OutcomeKind, fields: Partial<Outcome> = {}): Outcome {
  return { kind, processed: PROCESSED[kind], message: `said: ${kind}`, durationMs: 1, ...fields }
}

export interface Call {
  operation: 'bulk' | 'app'
  barcodes: string[]
  payloads: unknown[]
}

/** Answers each request with what `answer` returns; records every call and how many were in flight. */
export function scriptedTransport(answer: (call: Call, index: number) => Outcome | Promise<Outcome>) {
  const calls: Call[] = []
  let inFlight = 0
  let maxInFlight = 0
  const handle = async (call: Call) => {
    const index = calls.push(call) - 1
    inFlight += 1
    maxInFlight = Math.max(maxInFlight, inFlight)
    try {
      return await answer(call, index)
    } finally {
      inFlight -= 1
    }
  }
  const transport: SyncTransport = {
    send: ({ operation, argument }) => {
      if (operation === 'create-app')
        return handle({
          operation: 'app',
          payloads: [argument],
          barcodes: [(argument as { name: string }).name],
        })
      const skus = argument as FakeSku[]
      return handle({ operation: 'bulk', payloads: skus, barcodes: skus.map((sku) => sku.barcode) })
    },
  }
  return {
    transport,
    calls,
    get maxInFlight() {
      return maxInFlight
    },
  }
}

/** A clock whose sleeps end at once (they are recorded), so backoff costs no time in tests. */
export function fakeClock() {
  let now = 1_000_000
  const sleeps: number[] = []
  const clock: SyncClock = {
    now: () => now++,
    sleep: async (ms) => {
      sleeps.push(ms)
      now += ms
    },
    random: () => 0.5,
  }
  return { clock, sleeps }
}

export function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => (resolve = done))
  return { promise, resolve }
}

/** One turn of the event loop: what `until` waits between two looks at its condition. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * Lets every pending promise run to its end. The engine here waits on nothing but promises (the
 * memory outbox, a fake clock, a scripted transport), so once the microtask queue is empty it has
 * done all it will do until the test answers, resumes or decides: "nothing was sent" then holds for
 * good, not only for a while.
 */
export const drained = () => new Promise((resolve) => setImmediate(resolve))

/** Waits until `check` holds, giving the engine's promises time to run. */
export async function until(check: () => boolean, what = 'the condition'): Promise<void> {
  for (let round = 0; round < 500; round++) {
    if (check()) return
    await tick()
  }
  throw new Error(`${what} did not hold in time`)
}

export interface Setup {
  outbox: SyncOutbox
  settings?: Partial<RunSettings>
  transport: SyncTransport
  waitUntilOnline?: RunPorts['waitUntilOnline']
  clock?: SyncClock
}

export function runWith({ outbox, settings = {}, transport, waitUntilOnline, clock: own }: Setup) {
  const fake = fakeClock()
  const clock = own ?? fake.clock
  const sleeps = fake.sleeps
  const statuses: RunStatus[] = []
  const logs: string[] = []
  const progress: RunCounts[] = []
  const events: RunEvents = {
    onStatus: (status) => statuses.push(status),
    onLog: (line) => logs.push(line),
    onProgress: (counts) => progress.push(counts),
  }
  const run = createSyncRun(
    { outbox, transport, clock, ...(waitUntilOnline ? { waitUntilOnline } : {}) },
    {
      runId: 'run-1',
      kind: 'skus',
      batchSize: 4,
      concurrency: 1,
      resend: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40, maxRetryAfterMs: 5_000 },
      ...settings,
    },
    events,
  )
  return { run, sleeps, statuses, logs, progress }
}

export function statesOf(outbox: MemoryOutbox): Record<string, ItemState> {
  return Object.fromEntries(outbox.items().map((item) => [item.label, item.state]))
}

export function byState(outbox: MemoryOutbox, state: ItemState): string[] {
  return outbox
    .items()
    .filter((item) => item.state === state)
    .map((item) => item.label)
}

export { createMemoryOutbox }
export type { OutboxItem }
