import { describe, expect, it } from 'vitest'
import { createChangeSignal } from '#shared/sync/change-signal.ts'
import { fixedConcurrency } from '#shared/sync/concurrency.ts'
import { HeldBatches } from '#shared/sync/held-batches.ts'
import { SKU_KIND } from '#shared/sync/kinds.ts'
import { noItems, type ItemState, type RequestRecord, type SyncClock } from '#shared/sync/ports.ts'
import { createRequestAttempt, NOT_SENT_HALTED } from '#shared/sync/request-attempt.ts'
import { createRunLifecycle } from '#shared/sync/run-lifecycle.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import { createMemoryOutbox, outcome, skuItems, statesOf } from './engine-harness.ts'

/** One attempt's world: a memory outbox of three queued SKUs, a transport answering `answers` in turn. */
function attemptWith(answers: Array<Outcome | Error>) {
  const outbox = createMemoryOutbox(skuItems(3))
  const lifecycle = createRunLifecycle({ changed: createChangeSignal(), log: () => {}, onStatus: () => {} })
  const counts = noItems()
  counts.queued = 3
  const seen: Array<Record<string, ItemState>> = []
  const sleeps: Array<Record<string, ItemState>> = []
  const clock: SyncClock = {
    now: () => 1_000,
    sleep: async () => {
      sleeps.push(statesOf(outbox))
    },
    random: () => 0,
  }
  const held = new HeldBatches()
  const requests: RequestRecord[] = []
  let ids = 0
  const attempt = createRequestAttempt({
    settings: { runId: 'run' },
    definition: SKU_KIND,
    outbox,
    transport: {
      send: async () => {
        seen.push(statesOf(outbox))
        const answer = answers.shift()!
        if (answer instanceof Error) throw answer
        return answer
      },
    },
    clock,
    controller: fixedConcurrency(1),
    lifecycle,
    counts: {
      counts,
      apply(from, updates) {
        counts[from] -= updates.length
        for (const update of updates) counts[update.state] += 1
      },
    },
    held,
    inFlight: () => 1,
    givePermit: () => {},
    takePermit: async () => {},
    reportConcurrency: () => {},
    canWaitForNetwork: true,
    pauseAfterDoubtful: 3,
    nextRequestId: () => `r${++ids}`,
    log: () => {},
    onRequest: (request) => requests.push(request),
  })
  return { attempt, outbox, lifecycle, counts, seen, sleeps, held, requests }
}

describe('one request’s attempt', () => {
  it('is recorded and its items sending before it leaves, and its outcome written after', async () => {
    const setup = attemptWith([outcome('created', { status: 201 })])
    await setup.attempt.send(setup.outbox.items())
    expect(setup.seen).toEqual([{ B0: 'sending', B1: 'sending', B2: 'sending' }])
    expect(statesOf(setup.outbox)).toEqual({ B0: 'synced', B1: 'synced', B2: 'synced' })
    expect(setup.requests).toMatchObject([
      { id: 'r1', keys: ['k0', 'k1', 'k2'], outcome: { kind: 'created' } },
    ])
    // The bytes of the body the operation table builds: {"skus":[…]}.
    expect(setup.requests[0]!.bytes).toBe(
      JSON.stringify({ skus: setup.outbox.items().map((i) => i.payload) }).length,
    )
    expect(setup.counts).toMatchObject({ queued: 0, sending: 0, synced: 3 })
  })

  it('sends again by itself only as the resend rule allows, its items queued while it waits', async () => {
    const setup = attemptWith([outcome('retry-later', { retryAfterMs: 10 }), outcome('created')])
    await setup.attempt.send(setup.outbox.items())
    expect(setup.sleeps).toEqual([{ B0: 'queued', B1: 'queued', B2: 'queued' }])
    expect(setup.requests.map((request) => request.outcome?.action)).toEqual([
      'not taken; queued again',
      'synced',
    ])
    expect(setup.requests.map((request) => request.attempts)).toEqual([1, 2])

    const doubtful = attemptWith([outcome('failed', { status: 500 }), outcome('created')])
    await doubtful.attempt.send(doubtful.outbox.items())
    expect(doubtful.seen).toHaveLength(1)
    expect(statesOf(doubtful.outbox)).toEqual({ B0: 'failed', B1: 'failed', B2: 'failed' })
  })

  it('reads a transport that throws as unknown: the request may have left', async () => {
    const setup = attemptWith([new Error('socket hang up')])
    await setup.attempt.send(setup.outbox.items())
    expect(statesOf(setup.outbox)).toEqual({ B0: 'unknown', B1: 'unknown', B2: 'unknown' })
    expect(setup.requests[0]!.outcome?.message).toMatch(/socket hang up.*may have reached the service/)
  })

  it('does not leave when the run paused while it was being recorded: its items go back to queued', async () => {
    const setup = attemptWith([outcome('created')])
    setup.lifecycle.pause('requested', 'paused')
    await setup.attempt.send(setup.outbox.items())
    expect(setup.seen).toEqual([])
    expect(setup.requests[0]!.outcome).toMatchObject({
      kind: NOT_SENT_HALTED.kind,
      action: 'not sent: the run paused or ended first',
    })
    expect(statesOf(setup.outbox)).toEqual({ B0: 'queued', B1: 'queued', B2: 'queued' })
    expect(setup.held.take()?.map((item) => item.key)).toEqual(['k0', 'k1', 'k2'])
  })

  it('pauses the run once the outcome that calls for it is written, holding the batch back', async () => {
    const setup = attemptWith([outcome('needs-token', { status: 401 })])
    await setup.attempt.send(setup.outbox.items())
    expect(setup.lifecycle.status).toMatchObject({ state: 'paused', reason: 'needs-token' })
    expect(statesOf(setup.outbox)).toEqual({ B0: 'queued', B1: 'queued', B2: 'queued' })
    expect(setup.held.take()).toHaveLength(3)
    expect(setup.lifecycle.haltsBeingWritten).toBe(0)
  })
})
