import { describe, expect, it } from 'vitest'
import { clientTransport, createServiceClient } from '#node/service/client.ts'
import { sleep } from '#shared/service/resend.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import { createMemoryOutbox } from './memory-outbox.ts'
import { TEST_TIMEOUTS, TOKEN, sandboxFor } from '../service/service-harness.ts'
import { fixture } from '../shared/contract-fixtures.ts'
import { byState, fakeClock, outcome, runWith, scriptedTransport, skuItems } from './engine-harness.ts'

/** A service that serves `slots` at once (a few ms each) and answers 429 beyond them, as the sandbox's capacity model. */
function capacityTransport(slots: number) {
  let serving = 0
  let refused = 0
  let most = 0
  const fake = scriptedTransport(async () => {
    if (serving >= slots) {
      refused += 1
      return outcome('retry-later', { status: 429, retryAfterMs: 0 })
    }
    serving += 1
    most = Math.max(most, serving)
    try {
      await new Promise((resolve) => setTimeout(resolve, 2))
      return outcome('created', { status: 201 })
    } finally {
      serving -= 1
    }
  })
  return {
    transport: fake.transport,
    calls: fake.calls,
    get maxInFlight() {
      return fake.maxInFlight
    },
    get refused() {
      return refused
    },
    get most() {
      return most
    },
  }
}

describe('adaptive concurrency in the engine', () => {
  it('starts at 1, climbs to what the service serves, backs off on its 429s, never above the most', async () => {
    const outbox = createMemoryOutbox(skuItems(400))
    const service = capacityTransport(3)
    const reports: [number, number][] = []
    const logs: string[] = []
    const run = createSyncRun(
      { outbox, transport: service.transport, clock: fakeClock().clock },
      {
        runId: 'adaptive',
        kind: 'skus',
        batchSize: 4,
        concurrency: 6,
        adaptive: true,
        resend: { maxAttempts: 10 },
      },
      {
        onConcurrency: (limit, max) => reports.push([limit, max]),
        onLog: (line) => logs.push(line),
      },
    )
    const summary = await run.start()
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(summary.counts.synced).toBe(400)
    // Each batch created once (the memory outbox refuses a request naming an item not queued).
    expect(byState(outbox, 'synced')).toHaveLength(400)
    expect(service.calls.length).toBe(100 + service.refused)
    // It found the service's 3, and probed above it only a few times (the hold under the ceiling grows).
    expect(service.most).toBe(3)
    expect(service.refused).toBeGreaterThan(0)
    expect(service.refused).toBeLessThanOrEqual(4)
    expect(service.maxInFlight).toBeLessThanOrEqual(6)
    expect(logs.filter((line) => line.startsWith('The service is busy:'))).toHaveLength(service.refused)
    // The reports: 1 first, then steps up and halvings, never above the most.
    expect(reports[0]).toEqual([1, 6])
    expect(reports.every(([limit, max]) => limit >= 1 && limit <= 6 && max === 6)).toBe(true)
    expect(reports.slice(0, 4).map(([limit]) => limit)).toEqual([1, 2, 3, 4])
  })

  it('with the most at 1 it is the fixed engine: one at a time throughout', async () => {
    const outbox = createMemoryOutbox(skuItems(40))
    const service = capacityTransport(1)
    const { run } = runWith({
      outbox,
      transport: service.transport,
      settings: { batchSize: 4, concurrency: 1, adaptive: true },
    })
    const summary = await run.start()
    expect(summary.counts.synced).toBe(40)
    expect(service.maxInFlight).toBe(1)
    expect(service.refused).toBe(0)
  })

  it('a batch waiting to be sent again gives its place away, and gets the next free one first', async () => {
    const outbox = createMemoryOutbox(skuItems(24))
    let first = true
    const order: string[] = []
    const fake = scriptedTransport(async (call) => {
      order.push(call.barcodes[0]!)
      if (first) {
        first = false
        return outcome('retry-later', { status: 429, retryAfterMs: 50 })
      }
      return outcome('created', { status: 201 })
    })
    const { run, sleeps } = runWith({
      outbox,
      transport: fake.transport,
      settings: { batchSize: 4, concurrency: 1, adaptive: true },
    })
    const summary = await run.start()
    expect(summary.counts.synced).toBe(24)
    expect(sleeps).toEqual([50])
    // One at a time: B0 refused, then sent again before any other batch.
    expect(order).toEqual(['B0', 'B0', 'B4', 'B8', 'B12', 'B16', 'B20'])
  })

  it('against the sandbox with a capacity model: every SKU stored once, never more than its slots served', async () => {
    const sandbox = await sandboxFor({ capacity: { latencyMs: 20, slots: 2, retryAfterSeconds: 0 } })
    const template = (fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }).skus[0]!
    const items = Array.from({ length: 600 }, (_, index) => {
      const barcode = `CAP-${String(index).padStart(5, '0')}`
      return { key: String(index), position: index, payload: { ...template, barcode }, label: barcode }
    })
    const limits: number[] = []
    const run = createSyncRun(
      {
        outbox: createMemoryOutbox(items),
        transport: clientTransport(
          createServiceClient({
            baseUrl: sandbox.url,
            tokenEncoding: 'raw',
            timeouts: TEST_TIMEOUTS,
            getToken: async () => TOKEN,
          }),
        ),
        clock: { now: () => Date.now(), sleep, random: Math.random },
      },
      { runId: 'capacity', kind: 'skus', batchSize: 20, concurrency: 4, adaptive: true },
      { onConcurrency: (limit) => limits.push(limit) },
    )
    const summary = await run.start()
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(summary.counts.synced).toBe(600)
    const created = sandbox.received().skus.map((entry) => (entry.sku as { barcode: string }).barcode)
    expect(new Set(created).size).toBe(600)
    expect(created).toHaveLength(600)
    expect(limits[0]).toBe(1)
    expect(Math.max(...limits)).toBeGreaterThanOrEqual(2)
  })
})
