import { describe, expect, it } from 'vitest'
import type { Outcome } from '#shared/service/outcome.ts'
import type { SyncOutbox } from '#shared/sync/ports.ts'
import {
  byState,
  createMemoryOutbox,
  deferred,
  drained,
  outcome,
  runWith,
  scriptedTransport,
  skuItems,
  until,
} from './engine-harness.ts'

describe('pause, resume and cancel', () => {
  it('pause: no new request; the one in flight finishes and is recorded; resume goes on', async () => {
    const outbox = createMemoryOutbox(skuItems(12))
    const answers: ReturnType<typeof deferred<Outcome>>[] = []
    const fake = scriptedTransport(() => {
      const answer = deferred<Outcome>()
      answers.push(answer)
      return answer.promise
    })
    const { run, statuses } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => fake.calls.length === 1)
    run.pause()
    expect(run.status).toMatchObject({ state: 'paused', reason: 'requested' })
    answers[0]!.resolve(outcome('created'))
    await until(() => byState(outbox, 'synced').length === 4, 'the in-flight batch recorded')
    await drained()
    expect(fake.calls).toHaveLength(1)
    run.resume()
    await until(() => fake.calls.length === 2)
    answers[1]!.resolve(outcome('created'))
    await until(() => fake.calls.length === 3)
    answers[2]!.resolve(outcome('created'))
    const summary = await done
    expect(summary.counts.synced).toBe(12)
    expect(statuses.map((status) => status.state)).toEqual(['running', 'paused', 'running', 'finished'])
  })

  it('cancel: in-flight requests finish and are recorded; start resolves cancelled; the rest stays queued', async () => {
    const outbox = createMemoryOutbox(skuItems(20))
    const answers: ReturnType<typeof deferred<Outcome>>[] = []
    const fake = scriptedTransport(() => {
      const answer = deferred<Outcome>()
      answers.push(answer)
      return answer.promise
    })
    const { run } = runWith({ outbox, transport: fake.transport, settings: { concurrency: 2 } })
    const done = run.start()
    await until(() => fake.calls.length === 2)
    run.cancel()
    answers[0]!.resolve(outcome('created'))
    answers[1]!.resolve(outcome('unknown'))
    const summary = await done
    expect(fake.calls).toHaveLength(2)
    expect(summary.status).toEqual({ state: 'finished', cancelled: true })
    expect(summary.counts).toEqual({ queued: 12, sending: 0, synced: 4, rejected: 0, failed: 0, unknown: 4 })
    expect(byState(outbox, 'queued')).toHaveLength(12)
  })

  it('cancel during a backoff wait: the wait ends, the batch goes back to queued, start resolves', async () => {
    const outbox = createMemoryOutbox(skuItems(4))
    const fake = scriptedTransport(() => outcome('retry-later', { status: 429, retryAfterMs: 1_000 }))
    let waiting = 0
    const clock = {
      now: () => Date.now(),
      random: () => 0.5,
      // A wait that only the run's own signal ends.
      sleep: (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((resolve) => {
          waiting += 1
          signal?.addEventListener('abort', () => resolve(), { once: true })
        }),
    }
    const { run } = runWith({ outbox, transport: fake.transport, clock })
    const done = run.start()
    await until(() => waiting === 1)
    run.cancel()
    const summary = await done
    expect(fake.calls).toHaveLength(1)
    expect(summary.status).toEqual({ state: 'finished', cancelled: true })
    expect(summary.counts.queued).toBe(4)
    expect(outbox.requests()).toHaveLength(1)
    expect(outbox.requests()[0]!.outcome).toMatchObject({
      kind: 'retry-later',
      action: 'not taken; queued again',
    })
  })
})

describe('a pause while a request is being recorded', () => {
  it('the request never leaves: recorded as not sent, its batch queued and sent first on resume', async () => {
    const memory = createMemoryOutbox(skuItems(8))
    const recorded = deferred<void>()
    let first = true
    const outbox: SyncOutbox = {
      ...memory,
      queuedAfter: (after, limit) => memory.queuedAfter(after, limit),
      endRequest: (request, updates) => memory.endRequest(request, updates),
      beginRequest: async (request) => {
        await memory.beginRequest(request)
        if (first) {
          first = false
          await recorded.promise
        }
      },
    }
    const fake = scriptedTransport(() => outcome('created'))
    const { run } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => !first, 'the first request being recorded')
    run.pause()
    recorded.resolve()
    await until(() => memory.requests()[0]?.outcome !== undefined, 'the request closed')
    expect(fake.calls).toHaveLength(0)
    expect(memory.requests()[0]!.outcome).toMatchObject({
      processed: 'no',
      action: 'not sent: the run paused or ended first',
    })
    expect(byState(memory, 'queued')).toHaveLength(8)
    run.resume()
    const summary = await done
    expect(summary.counts.synced).toBe(8)
    expect(fake.calls[0]!.barcodes).toEqual(['B0', 'B1', 'B2', 'B3'])
  })
})

describe('concurrency', () => {
  it('a refused token: no other slot starts while its outcome is written; paused once the batch is queued', async () => {
    const memory = createMemoryOutbox(skuItems(16))
    const written = deferred<void>()
    let writing = false
    // The 401's outcome takes a while to reach the store.
    const outbox: SyncOutbox = {
      ...memory,
      queuedAfter: (after, limit) => memory.queuedAfter(after, limit),
      beginRequest: (request) => memory.beginRequest(request),
      endRequest: async (request, updates) => {
        if (request.outcome?.kind === 'needs-token') {
          writing = true
          await written.promise
        }
        return memory.endRequest(request, updates)
      },
    }
    // The other slot's answer comes while the 401's outcome is being written.
    const other = deferred<Outcome>()
    const fake = scriptedTransport((call) =>
      call.barcodes.includes('B0') ? outcome('needs-token', { status: 401 }) : other.promise,
    )
    const { run } = runWith({ outbox, transport: fake.transport, settings: { concurrency: 2 } })
    void run.start()
    await until(
      () => writing && fake.calls.length === 2,
      "the 401's outcome being written, the other slot's batch out",
    )
    other.resolve(outcome('created'))
    await until(() => byState(memory, 'synced').length === 4, "the other slot's batch recorded")
    await drained()
    expect(fake.calls).toHaveLength(2)
    // Not announced yet: a person who saw "paused" and closed the app would find the batch sending.
    expect(run.status).toMatchObject({ state: 'running' })
    written.resolve()
    await until(() => byState(memory, 'queued').length === 12, 'the refused batch back to queued')
    await until(() => run.status.state === 'paused', 'the pause')
    expect(run.status).toMatchObject({ state: 'paused', reason: 'needs-token' })
    expect(fake.calls).toHaveLength(2)
    run.cancel()
  })

  it('at most `concurrency` requests in flight, never an item sent twice, through splits and failures', async () => {
    const outbox = createMemoryOutbox(skuItems(300))
    const bad = new Set(['B7', 'B100', 'B101', 'B250', 'B299'])
    let n = 0
    const fake = scriptedTransport(async (call) => {
      await new Promise((resolve) => setTimeout(resolve, (n++ * 7) % 3))
      if (call.barcodes.some((barcode) => bad.has(barcode))) return outcome('rejected', { status: 400 })
      if (call.barcodes.includes('B40')) return outcome('failed', { status: 500 })
      if (call.barcodes.includes('B80')) return outcome('unknown', { status: 502 })
      return outcome('created')
    })
    const { run } = runWith({
      outbox,
      transport: fake.transport,
      settings: { concurrency: 3, batchSize: 10 },
    })
    const summary = await run.start()
    expect(fake.maxInFlight).toBe(3)
    // The memory outbox refuses a request naming an item not queued, so a double send would have
    // stopped the run; and every SKU that may have been processed was in exactly one such request.
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    const maybeProcessed = fake.calls
      .filter((call) => !call.barcodes.some((barcode) => bad.has(barcode)))
      .flatMap((call) => call.barcodes)
    expect(new Set(maybeProcessed).size).toBe(maybeProcessed.length)
    expect(maybeProcessed).toHaveLength(295)
    expect(byState(outbox, 'rejected').sort()).toEqual([...bad].sort())
    expect(summary.counts).toEqual({
      queued: 0,
      sending: 0,
      synced: 275,
      rejected: 5,
      failed: 10,
      unknown: 10,
    })
  })

  it('streams: reads pages of batchSize as slots free up, never the whole outbox', async () => {
    const memory = createMemoryOutbox(skuItems(1_000))
    const reads: { after: number; limit: number; sentSoFar: number }[] = []
    let sent = 0
    const outbox: SyncOutbox = {
      ...memory,
      queuedAfter: (after, limit) => {
        reads.push({ after, limit, sentSoFar: sent })
        return memory.queuedAfter(after, limit)
      },
    }
    const fake = scriptedTransport((call) => {
      sent += call.barcodes.length
      return outcome('created')
    })
    const { run } = runWith({
      outbox,
      transport: fake.transport,
      settings: { batchSize: 25, concurrency: 2 },
    })
    await run.start()
    expect(reads.every((read) => read.limit === 25)).toBe(true)
    // Never more than the slots' worth read ahead of what was sent.
    expect(reads.every((read, index) => index * 25 - read.sentSoFar <= 2 * 25)).toBe(true)
    expect(reads[1]!.after).toBe(24)
  })
})

describe('crash recovery', () => {
  it('sending becomes unknown; queued resumes; synced and unknown are never resent', async () => {
    const outbox = createMemoryOutbox(
      skuItems(10, {
        0: 'synced',
        1: 'synced',
        2: 'sending',
        3: 'sending',
        4: 'unknown',
        5: 'rejected',
        6: 'failed',
      }),
    )
    const fake = scriptedTransport(() => outcome('created'))
    const { run, logs } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(fake.calls.flatMap((call) => call.barcodes)).toEqual(['B7', 'B8', 'B9'])
    expect(outbox.get('k2')).toMatchObject({
      state: 'unknown',
      message: expect.stringMatching(/may or may not/),
    })
    expect(summary.counts).toEqual({ queued: 0, sending: 0, synced: 5, rejected: 1, failed: 1, unknown: 3 })
    expect(logs[0]).toMatch(/2 SKUs left sending/)
  })

  it('a run that crashed mid-split resumes the held halves as plain queued items', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    // First run: the batch is refused and split, then the "process" dies before the halves go out.
    let calls = 0
    const first = runWith({
      outbox,
      settings: { batchSize: 8 },
      transport: {
        send: async () => {
          calls += 1
          if (calls === 1) return outcome('rejected', { status: 400 })
          return new Promise<Outcome>(() => {}) // never answers: the crash happens while this is out
        },
      },
    })
    void first.run.start()
    await until(() => calls === 2)
    expect(byState(outbox, 'sending')).toEqual(['B0', 'B1', 'B2', 'B3'])
    expect(byState(outbox, 'queued')).toEqual(['B4', 'B5', 'B6', 'B7'])
    // Second run on the same store: B0..B3 may have been processed, B4..B7 provably were not.
    const fake = scriptedTransport(() => outcome('created'))
    const second = runWith({ outbox, transport: fake.transport, settings: { batchSize: 8 } })
    const summary = await second.run.start()
    expect(fake.calls.map((call) => call.barcodes)).toEqual([['B4', 'B5', 'B6', 'B7']])
    expect(summary.counts).toMatchObject({ unknown: 4, synced: 4, sending: 0 })
  })

  it('an outbox that cannot be written stops the run before anything else is sent', async () => {
    const memory = createMemoryOutbox(skuItems(12))
    let ends = 0
    const outbox: SyncOutbox = {
      ...memory,
      endRequest: async (request, updates) => {
        if (++ends === 2) throw new Error('disk full')
        return memory.endRequest(request, updates)
      },
    }
    const fake = scriptedTransport(() => outcome('created'))
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(summary.status).toMatchObject({ state: 'stopped', message: expect.stringMatching(/disk full/) })
    expect(fake.calls).toHaveLength(2)
  })
})
