import { describe, expect, it } from 'vitest'
import {
  byState,
  createMemoryOutbox,
  drained,
  outcome,
  runWith,
  scriptedTransport,
  skuItems,
  statesOf,
} from './engine-harness.ts'

/** One test per row of the architecture guide's outcome table, through the engine and the memory outbox. */

describe('the sync engine, outcome by outcome', () => {
  it('2xx: every SKU synced, sent in position order in batches of batchSize, outbox written around each request', async () => {
    const outbox = createMemoryOutbox(skuItems(10).reverse())
    const fake = scriptedTransport((call) => {
      // While a request is out, exactly its items are `sending` in the outbox: the state reached it first.
      expect(byState(outbox, 'sending')).toEqual(call.barcodes)
      return outcome('created', { status: 201 })
    })
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(fake.calls.map((call) => call.barcodes)).toEqual([
      ['B0', 'B1', 'B2', 'B3'],
      ['B4', 'B5', 'B6', 'B7'],
      ['B8', 'B9'],
    ])
    expect(summary).toEqual({
      status: { state: 'finished', cancelled: false },
      counts: { queued: 0, sending: 0, synced: 10, rejected: 0, failed: 0, unknown: 0 },
    })
    expect(byState(outbox, 'synced')).toHaveLength(10)
    const requests = outbox.requests()
    expect(requests).toHaveLength(3)
    expect(requests[0]).toMatchObject({
      runId: 'run-1',
      kind: 'skus',
      keys: ['k0', 'k1', 'k2', 'k3'],
      attempts: 1,
      outcome: { kind: 'created', status: 201, action: 'synced' },
    })
    expect(requests[0]!.bytes).toBe(
      JSON.stringify({ skus: [0, 1, 2, 3].map((i) => ({ barcode: `B${i}` })) }).length,
    )
  })

  it('400/422: splits until the refused SKUs stand alone; only they are rejected, with the service message', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    const bad = new Set(['B2', 'B7'])
    const fake = scriptedTransport((call) =>
      call.barcodes.some((barcode) => bad.has(barcode))
        ? outcome('rejected', { status: 422, serviceMessage: 'Barcode refused' })
        : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport, settings: { batchSize: 8 } })
    const summary = await run.start()
    expect(byState(outbox, 'rejected')).toEqual(['B2', 'B7'])
    expect(byState(outbox, 'synced')).toEqual(['B0', 'B1', 'B3', 'B4', 'B5', 'B6'])
    expect(outbox.get('k2')!.message).toBe('Barcode refused')
    expect(summary.counts).toMatchObject({ synced: 6, rejected: 2, queued: 0, sending: 0 })
    // No SKU was accepted twice, and every accepted SKU was in exactly one created request.
    const accepted = fake.calls
      .filter((call) => !call.barcodes.some((b) => bad.has(b)))
      .flatMap((c) => c.barcodes)
    expect(accepted.sort()).toEqual(['B0', 'B1', 'B3', 'B4', 'B5', 'B6'])
    // Halving: the first split of the 8 is 4 + 4.
    expect(fake.calls[1]!.barcodes).toEqual(['B0', 'B1', 'B2', 'B3'])
    expect(outbox.requests()[0]!.outcome!.action).toBe('split into 4 + 4')
  })

  it('400 with problem paths: the named SKUs go alone, the others together (a hint that never blames the wrong SKU)', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    const fake = scriptedTransport((call) => {
      const index = call.barcodes.indexOf('B5')
      if (index < 0) return outcome('created')
      // The hint also (wrongly) names a good SKU at position 0: it must still end synced.
      return outcome('rejected', {
        status: 400,
        serviceMessage: 'Invalid batch',
        problems: [
          { path: `skus.${index}.barcode`, message: 'refused' },
          ...(call.barcodes.length > 1 ? [{ path: 'skus.0.brand', message: 'wrongly named' }] : []),
        ],
      })
    })
    const { run } = runWith({ outbox, transport: fake.transport, settings: { batchSize: 8 } })
    await run.start()
    expect(byState(outbox, 'rejected')).toEqual(['B5'])
    expect(byState(outbox, 'synced')).toHaveLength(7)
    expect(fake.calls.map((call) => call.barcodes.join(','))).toEqual([
      'B0,B1,B2,B3,B4,B5,B6,B7',
      'B0',
      'B1,B2,B3,B4,B6,B7',
      'B5',
    ])
    expect(outbox.get('k5')!.message).toBe('Invalid batch (barcode: refused)')
  })

  it('413: splits until the batches fit; a single SKU that is too large is rejected', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    const fake = scriptedTransport((call) =>
      call.barcodes.length > 2 || call.barcodes.includes('B6')
        ? outcome('too-large', { status: 413, serviceMessage: 'Too large' })
        : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport, settings: { batchSize: 8 } })
    await run.start()
    expect(byState(outbox, 'rejected')).toEqual(['B6'])
    expect(outbox.get('k6')!.message).toBe('Too large')
    expect(byState(outbox, 'synced')).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5', 'B7'])
    expect(fake.calls.filter((call) => call.barcodes.length > 2).map((c) => c.barcodes.length)).toEqual([
      8, 4, 4,
    ])
  })

  it('429 / 503 with Retry-After: waits as asked with the batch queued, resends it, bounded', async () => {
    const outbox = createMemoryOutbox(skuItems(4))
    const fake = scriptedTransport((_call, index) =>
      index < 2 ? outcome('retry-later', { status: 429, retryAfterMs: 1_500 }) : outcome('created'),
    )
    const { run, sleeps } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(summary.counts.synced).toBe(4)
    expect(sleeps).toEqual([1_500, 1_500])
    // Each attempt is a request of its own; the two refused ones put the items back to queued
    // before the wait, so a crash while waiting would leave them queued, not unknown.
    expect(
      outbox.requests().map((request) => [request.attempts, request.outcome?.kind, request.outcome?.action]),
    ).toEqual([
      [1, 'retry-later', 'not taken; queued again'],
      [2, 'retry-later', 'not taken; queued again'],
      [3, 'created', 'synced'],
    ])
  })

  it('retry-later beyond the bounds: the batch back to queued, paused busy; resume sends that batch first', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    let busy = true
    const fake = scriptedTransport(() =>
      busy ? outcome('retry-later', { status: 503, retryAfterMs: 10 }) : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await expect.poll(() => run.status.state).toBe('paused')
    expect(run.status).toMatchObject({ state: 'paused', reason: 'busy' })
    expect(fake.calls).toHaveLength(3)
    expect(byState(outbox, 'queued')).toHaveLength(8)
    busy = false
    run.resume()
    const summary = await done
    expect(summary.counts.synced).toBe(8)
    expect(fake.calls[3]!.barcodes).toEqual(['B0', 'B1', 'B2', 'B3'])
  })

  it('a Retry-After longer than the policy allows is not waited for: paused busy at once', async () => {
    const outbox = createMemoryOutbox(skuItems(2))
    const fake = scriptedTransport(() => outcome('retry-later', { status: 429, retryAfterMs: 60_000 }))
    const { run, sleeps } = runWith({ outbox, transport: fake.transport })
    void run.start()
    await expect.poll(() => run.status.state).toBe('paused')
    expect(run.status).toMatchObject({ reason: 'busy' })
    expect(fake.calls).toHaveLength(1)
    expect(sleeps).toEqual([])
    run.cancel()
  })

  it('unreachable with a way to learn the network is back: paused offline, resumes by itself', async () => {
    const outbox = createMemoryOutbox(skuItems(6))
    let online = false
    let backOnline!: () => void
    const fake = scriptedTransport(() =>
      online ? outcome('created') : outcome('unreachable', { message: 'No connection' }),
    )
    const { run, sleeps } = runWith({
      outbox,
      transport: fake.transport,
      waitUntilOnline: () => new Promise<void>((resolve) => (backOnline = resolve)),
    })
    const done = run.start()
    await expect.poll(() => run.status.state).toBe('paused')
    expect(run.status).toEqual({ state: 'paused', reason: 'offline', message: 'No connection' })
    expect(sleeps).toHaveLength(2) // three attempts with backoff between
    expect(byState(outbox, 'queued')).toHaveLength(6)
    online = true
    backOnline()
    const summary = await done
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(summary.counts.synced).toBe(6)
  })

  it('unreachable without a way to learn the network is back: the run ends paused offline, nothing lost', async () => {
    const outbox = createMemoryOutbox(skuItems(6))
    const fake = scriptedTransport(() => outcome('unreachable', { message: 'No connection' }))
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(summary.status).toEqual({ state: 'paused', reason: 'offline', message: 'No connection' })
    expect(summary.counts).toMatchObject({ queued: 6, sending: 0 })
    expect(byState(outbox, 'queued')).toHaveLength(6)
  })

  it('401/403: the batch back to queued, paused for a token; resume sends that batch first', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    let token = false
    const fake = scriptedTransport((_call, index) =>
      index === 1 && !token
        ? outcome('needs-token', { status: 401, message: 'Token refused' })
        : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await expect.poll(() => run.status.state).toBe('paused')
    expect(run.status).toEqual({ state: 'paused', reason: 'needs-token', message: 'Token refused' })
    expect(byState(outbox, 'queued')).toEqual(['B4', 'B5', 'B6', 'B7'])
    token = true
    run.resume()
    await done
    expect(fake.calls.map((call) => call.barcodes[0])).toEqual(['B0', 'B4', 'B4'])
    expect(byState(outbox, 'synced')).toHaveLength(8)
  })

  it('404/405/other 4xx: the batch failed, the run stopped, nothing more sent', async () => {
    const outbox = createMemoryOutbox(skuItems(12))
    const fake = scriptedTransport((_call, index) =>
      index === 1 ? outcome('wrong-address', { status: 404, message: 'Wrong address' }) : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(summary.status).toEqual({ state: 'stopped', message: 'Wrong address' })
    expect(fake.calls).toHaveLength(2)
    expect(statesOf(outbox)).toMatchObject({ B3: 'synced', B4: 'failed', B7: 'failed', B8: 'queued' })
    expect(outbox.get('k4')!.message).toBe('Wrong address')
    expect(summary.counts).toMatchObject({ synced: 4, failed: 4, queued: 4 })
  })

  it('500: the batch failed with the message, the run goes on; never resent automatically', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    const fake = scriptedTransport((_call, index) =>
      index === 0 ? outcome('failed', { status: 500, message: 'Server error' }) : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(fake.calls).toHaveLength(2)
    expect(byState(outbox, 'failed')).toEqual(['B0', 'B1', 'B2', 'B3'])
    expect(outbox.get('k0')!.message).toBe('Server error')
    expect(summary.counts).toMatchObject({ failed: 4, synced: 4 })
  })

  it('502/504/bare 503/timeout/reset after the body: unknown, the run goes on; never resent automatically', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    const fake = scriptedTransport((_call, index) =>
      index === 1 ? outcome('unknown', { status: 502, message: 'Bad gateway' }) : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(fake.calls).toHaveLength(2)
    expect(byState(outbox, 'unknown')).toEqual(['B4', 'B5', 'B6', 'B7'])
    expect(summary.counts).toMatchObject({ unknown: 4, synced: 4 })
  })

  it('three requests in a row failed or unknown: paused "failing" before a fourth goes out; a success in between resets', async () => {
    const outbox = createMemoryOutbox(skuItems(28))
    // Batches 0 and 1 fail, 2 succeeds (reset), then 3, 4 and 5 fail or are unknown.
    const doubtful = new Set([0, 1, 3, 4, 5])
    const fake = scriptedTransport((_call, index) =>
      doubtful.has(index)
        ? outcome(index % 2 ? 'unknown' : 'failed', { status: index % 2 ? 502 : 500 })
        : outcome('created'),
    )
    const { run } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await expect.poll(() => run.status.state).toBe('paused')
    expect(run.status).toMatchObject({
      reason: 'failing',
      message: expect.stringMatching(/^3 requests in a row may or may not have been processed/),
    })
    await drained()
    expect(fake.calls).toHaveLength(6)
    expect(byState(outbox, 'queued')).toHaveLength(4)
    // The person looked and resumes: the counter starts again.
    run.resume()
    const summary = await done
    expect(fake.calls).toHaveLength(7)
    expect(summary.counts).toMatchObject({ synced: 8, failed: 8, unknown: 12 })
  })

  it('a run whose last requests were doubtful simply ends: there is nothing left to pause for', async () => {
    const outbox = createMemoryOutbox(skuItems(12))
    const fake = scriptedTransport(() => outcome('unknown', { status: 504 }))
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(summary.counts.unknown).toBe(12)
  })

  it('a transport that throws counts as unknown (it may have sent), never as not processed', async () => {
    const outbox = createMemoryOutbox(skuItems(2))
    const fake = scriptedTransport(() => {
      throw new Error('socket exploded')
    })
    const { run } = runWith({ outbox, transport: fake.transport })
    const summary = await run.start()
    expect(fake.calls).toHaveLength(1)
    expect(summary.counts.unknown).toBe(2)
    expect(outbox.get('k0')!.message).toContain('socket exploded')
  })
})

describe('apps', () => {
  const apps = (names: string[]) =>
    names.map((name, index) => ({
      key: `a${index}`,
      position: index,
      payload: { name, status: 'enabled' },
      label: name,
    }))

  it('one app a request; created: synced with the returned _id and the app as answered', async () => {
    const outbox = createMemoryOutbox(apps(['One', 'Two']))
    const fake = scriptedTransport((call) =>
      outcome('created', {
        status: 201,
        body: { app: { _id: `id-${call.barcodes[0]}`, name: call.barcodes[0], meta: {} } },
      }),
    )
    const { run } = runWith({ outbox, transport: fake.transport, settings: { kind: 'apps', batchSize: 50 } })
    await run.start()
    expect(fake.calls.map((call) => call.operation)).toEqual(['app', 'app'])
    expect(outbox.get('a1')).toMatchObject({
      state: 'synced',
      remoteId: 'id-Two',
      response: { _id: 'id-Two', name: 'Two', meta: {} },
    })
  })

  it('an answer without a readable _id is still a creation: synced, with a message, never resent', async () => {
    const outbox = createMemoryOutbox(apps(['One']))
    const fake = scriptedTransport(() => outcome('created', { status: 201, body: { app: { _id: 42 } } }))
    const { run } = runWith({ outbox, transport: fake.transport, settings: { kind: 'apps' } })
    await run.start()
    const item = outbox.get('a0')!
    expect(item.state).toBe('synced')
    expect(item.remoteId).toBeUndefined()
    expect(item.message).toMatch(/no app id/)
  })

  it('a refused app is rejected with the service message and its problems', async () => {
    const outbox = createMemoryOutbox(apps(['One']))
    const fake = scriptedTransport(() =>
      outcome('rejected', {
        status: 400,
        serviceMessage: 'Invalid app',
        problems: [{ path: 'name', message: 'too long' }],
      }),
    )
    const { run } = runWith({ outbox, transport: fake.transport, settings: { kind: 'apps' } })
    await run.start()
    expect(outbox.get('a0')).toMatchObject({ state: 'rejected', message: 'Invalid app (name: too long)' })
  })
})
