import { describe, expect, it } from 'vitest'
import type { Outcome } from '#shared/service/outcome.ts'
import type { Decided } from '#shared/sync/ports.ts'
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
  type Call,
} from './engine-harness.ts'

/** The barcodes of the requests the service answered "created", in order. */
const created = (calls: Call[], answers: readonly Outcome[]) =>
  calls.filter((_, i) => answers[i]?.kind === 'created').flatMap((call) => call.barcodes)

const keys = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `k${from + i}`)
const barcodes = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `B${from + i}`)

/**
 * A person's decisions about unknown or failed batches while the run goes on or is paused
 * (`SyncRun.decide`): the engine reads queued items after a cursor, so what a decision queues
 * again at or below it must reach the slots another way, once.
 */
describe('decisions while the run goes on', () => {
  it('paused by a failing service: a batch sent again goes out once after Resume, first; the counts follow', async () => {
    const outbox = createMemoryOutbox(skuItems(20))
    const answers: Outcome[] = []
    const fake = scriptedTransport((_, index) => {
      const answer =
        index === 0
          ? outcome('failed', { status: 500 })
          : index < 3
            ? outcome('unknown', { status: 504 })
            : outcome('created')
      answers[index] = answer
      return answer
    })
    const { run, progress } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => run.status.state === 'paused', 'the failing pause')
    expect(run.status).toMatchObject({ state: 'paused', reason: 'failing' })
    expect(fake.calls).toHaveLength(3)

    // The 500's batch is sent again, the first 504's marked as created, the second left undecided.
    const resent = await run.decide(() => outbox.decide(keys(0, 3), 'resend'))
    expect(resent?.moved).toHaveLength(4)
    expect(resent?.requeued.map((item) => item.label)).toEqual(barcodes(0, 3))
    await run.decide(() => outbox.decide(keys(4, 7), 'created'))
    expect(progress.at(-1)).toEqual({ queued: 12, sending: 0, synced: 4, rejected: 0, failed: 0, unknown: 4 })
    // A decision does not lift the pause: nothing goes out until the person resumes.
    await drained()
    expect(run.status).toMatchObject({ state: 'paused', reason: 'failing' })
    expect(fake.calls).toHaveLength(3)

    run.resume()
    const summary = await done
    expect(fake.calls.slice(3).map((call) => call.barcodes)).toEqual([
      barcodes(0, 3),
      barcodes(12, 15),
      barcodes(16, 19),
    ])
    expect(created(fake.calls, answers)).toEqual([...barcodes(0, 3), ...barcodes(12, 19)])
    expect(summary.counts).toEqual({ queued: 0, sending: 0, synced: 16, rejected: 0, failed: 0, unknown: 4 })
    expect(summary.status).toEqual({ state: 'finished', cancelled: false })
    expect(byState(outbox, 'unknown')).toEqual(barcodes(8, 11))
  })

  it('with batches already held by the pause, every item is sent exactly once, lowest position first', async () => {
    const outbox = createMemoryOutbox(skuItems(16))
    const answers: Outcome[] = []
    let tokenSet = false
    const fake = scriptedTransport((_, index) => {
      const answer =
        index === 0
          ? outcome('unknown', { status: 504 })
          : index === 1
            ? outcome('failed', { status: 500 })
            : tokenSet
              ? outcome('created')
              : outcome('needs-token', { status: 401 })
      answers[index] = answer
      return answer
    })
    const { run, progress } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => run.status.state === 'paused', 'the token pause')
    // The refused batch (B8…B11) is queued again and held by the engine, its cursor past it.
    expect(run.status).toMatchObject({ state: 'paused', reason: 'needs-token' })
    expect(byState(outbox, 'queued')).toEqual(barcodes(8, 15))

    await run.decide(() => outbox.decide([...keys(4, 7), ...keys(0, 3)], 'resend'))
    expect(progress.at(-1)).toEqual({ queued: 16, sending: 0, synced: 0, rejected: 0, failed: 0, unknown: 0 })
    tokenSet = true
    run.resume()
    const summary = await done
    expect(fake.calls.slice(3).map((call) => call.barcodes)).toEqual([
      barcodes(0, 3),
      barcodes(4, 7),
      barcodes(8, 11),
      barcodes(12, 15),
    ])
    const sent = created(fake.calls, answers)
    expect([...sent].sort()).toEqual(barcodes(0, 15).sort())
    expect(new Set(sent).size).toBe(sent.length)
    expect(summary.counts.synced).toBe(16)
  })

  it('while running: an item queued again above the cursor is read with the rest, not sent twice', async () => {
    // B8…B11 were left unknown by an earlier run of the same id (a crash, say); this run starts
    // with them behind the queued ones.
    const outbox = createMemoryOutbox(
      skuItems(12, { 8: 'unknown', 9: 'unknown', 10: 'unknown', 11: 'unknown' }),
    )
    const first = deferred<Outcome>()
    const fake = scriptedTransport((_, index) => (index === 0 ? first.promise : outcome('created')))
    const { run } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => fake.calls.length === 1)
    const decided = await run.decide(() => outbox.decide(keys(8, 11), 'resend'))
    expect(decided?.requeued).toHaveLength(4)
    first.resolve(outcome('created'))
    const summary = await done
    expect(fake.calls.map((call) => call.barcodes)).toEqual([barcodes(0, 3), barcodes(4, 7), barcodes(8, 11)])
    expect(summary.counts).toEqual({ queued: 0, sending: 0, synced: 12, rejected: 0, failed: 0, unknown: 0 })
  })

  it('the outbox read to its end: the run waits for a decision being applied and sends what it queued', async () => {
    const outbox = createMemoryOutbox(skuItems(6))
    const last = deferred<Outcome>()
    const fake = scriptedTransport((_, index) =>
      index === 0 ? outcome('unknown', { status: 502 }) : index === 1 ? last.promise : outcome('created'),
    )
    const { run, statuses } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => fake.calls.length === 2, 'the last page in flight')
    // The person decides while the last request is out; writing the decision takes a while.
    const written = deferred<void>()
    const deciding = run.decide(async () => {
      await written.promise
      return outbox.decide(keys(0, 3), 'resend')
    })
    last.resolve(outcome('created'))
    await until(() => byState(outbox, 'synced').length === 2, 'the last page recorded')
    await drained()
    // Nothing else to send, but the run does not end before the decision is in.
    expect(run.status.state).toBe('running')
    written.resolve()
    expect((await deciding)?.moved).toHaveLength(4)
    const summary = await done
    expect(fake.calls.map((call) => call.barcodes)).toEqual([barcodes(0, 3), barcodes(4, 5), barcodes(0, 3)])
    expect(summary.counts).toEqual({ queued: 0, sending: 0, synced: 6, rejected: 0, failed: 0, unknown: 0 })
    expect(statuses.map((status) => status.state)).toEqual(['running', 'finished'])
  })

  it('marking as created while running moves the counts from unknown to synced', async () => {
    const outbox = createMemoryOutbox(skuItems(12))
    const gate = deferred<Outcome>()
    const fake = scriptedTransport((_, index) =>
      index === 0 ? outcome('unknown', { status: 504 }) : index === 1 ? gate.promise : outcome('created'),
    )
    const { run, progress } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => fake.calls.length === 2)
    await run.decide(() => outbox.decide(keys(0, 3), 'created'))
    expect(progress.at(-1)).toEqual({ queued: 4, sending: 4, synced: 4, rejected: 0, failed: 0, unknown: 0 })
    gate.resolve(outcome('created'))
    const summary = await done
    expect(fake.calls).toHaveLength(3)
    expect(summary.counts).toEqual({ queued: 0, sending: 0, synced: 12, rejected: 0, failed: 0, unknown: 0 })
    expect(outbox.get('k0')?.message).toBe('Marked as created by you')
  })

  it('a decision that cannot be written changes no count and leaves the run going', async () => {
    const outbox = createMemoryOutbox(skuItems(8))
    const gate = deferred<Outcome>()
    const fake = scriptedTransport((_, index) => (index === 0 ? gate.promise : outcome('created')))
    const { run } = runWith({ outbox, transport: fake.transport })
    const done = run.start()
    await until(() => fake.calls.length === 1)
    await expect(
      run.decide(async (): Promise<Decided> => {
        throw new Error('This batch is no longer in the history.')
      }),
    ).rejects.toThrow('no longer in the history')
    gate.resolve(outcome('created'))
    expect((await done).counts.synced).toBe(8)
  })

  it('once the run has ended, a decision is not applied: it is the caller’s', async () => {
    const outbox = createMemoryOutbox(skuItems(4))
    const fake = scriptedTransport(() => outcome('unknown', { status: 504 }))
    const { run } = runWith({ outbox, transport: fake.transport })
    await run.start()
    let applied = false
    const decided = await run.decide(async () => {
      applied = true
      return outbox.decide(keys(0, 3), 'resend')
    })
    expect(decided).toBeUndefined()
    expect(applied).toBe(false)
    expect(byState(outbox, 'unknown')).toHaveLength(4)
  })
})
