import { describe, expect, it, vi } from 'vitest'
import type { FaultRule } from '#node/sandbox/server.ts'
import { sendWithResend, type ResendDeps } from '#shared/service/resend.ts'
import { clientFor, closedPort, operationRequests, sandboxFor, skus } from './service-harness.ts'

/**
 * The one property that matters most: nothing that may have been processed is ever sent again
 * without a person deciding. Real client, real sandbox, real HTTP; only the waiting is faked.
 */

function fakeWaiting() {
  const waits: number[] = []
  const deps: ResendDeps = {
    sleep: vi.fn(async (ms: number) => {
      waits.push(ms)
    }),
    random: () => 0.5,
  }
  return { deps, waits }
}

describe('sendWithResend over the client and the sandbox', () => {
  it.each<[string, FaultRule, string]>([
    ['500', { kind: 'server-error' }, 'failed'],
    ['502', { kind: 'bad-gateway' }, 'unknown'],
    ['504', { kind: 'gateway-timeout' }, 'unknown'],
    ['503 without Retry-After', { kind: 'unavailable' }, 'unknown'],
    ['an HTML error page', { kind: 'html-error' }, 'unknown'],
    ['a reset before processing', { kind: 'reset', stage: 'before' }, 'unknown'],
    ['a reset after processing', { kind: 'reset', stage: 'after' }, 'unknown'],
    ['a response timeout', { kind: 'slow-response', stage: 'after', delayMs: 5_000 }, 'unknown'],
  ])('%s: exactly one request reaches the service, and the outcome is returned', async (_, rule, kind) => {
    // `times: null`: the fault would strike every request, so a resend would show as a second entry.
    const sandbox = await sandboxFor({ faults: [{ ...rule, times: null }] })
    const client = clientFor(sandbox.url)
    const { deps, waits } = fakeWaiting()
    const result = await sendWithResend(
      () => client.send({ operation: 'bulk-upload', argument: skus() }),
      {},
      deps,
    )
    expect(result.outcome.kind).toBe(kind)
    expect(result.attempts).toHaveLength(1)
    expect(waits).toEqual([])
    expect(operationRequests(sandbox)).toHaveLength(1)
  })

  it.each<[string, FaultRule, number]>([
    ['429', { kind: 'rate-limit', retryAfterSeconds: 0, times: 2 }, 0],
    ['503 with Retry-After', { kind: 'unavailable', retryAfterSeconds: 1, times: 2 }, 1_000],
  ])('%s: sent again after the wait, created in the end, stored exactly once', async (_, rule, wait) => {
    const sandbox = await sandboxFor({ faults: [rule] })
    const client = clientFor(sandbox.url)
    const { deps, waits } = fakeWaiting()
    const sent = skus()
    const result = await sendWithResend(
      () => client.send({ operation: 'bulk-upload', argument: sent }),
      {},
      deps,
    )
    expect(result.outcome).toMatchObject({ kind: 'created', status: 201 })
    expect(result.attempts.map((o) => o.kind)).toEqual(['retry-later', 'retry-later', 'created'])
    expect(waits).toEqual([wait, wait])
    expect(operationRequests(sandbox)).toHaveLength(3)
    expect(sandbox.received().skus.map((entry) => entry.sku)).toEqual(sent)
  })

  it('a rate limit asking for longer than the cap is returned, not waited for', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'rate-limit', retryAfterSeconds: 600 }] })
    const { deps, waits } = fakeWaiting()
    const result = await sendWithResend(
      () => clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: skus() }),
      {},
      deps,
    )
    expect(result.outcome).toMatchObject({ kind: 'retry-later', retryAfterMs: 600_000 })
    expect(waits).toEqual([])
    expect(operationRequests(sandbox)).toHaveLength(1)
  })

  it('connection refused: tried maxAttempts times with backoff, then returned as unreachable', async () => {
    const client = clientFor(`http://127.0.0.1:${await closedPort()}`)
    const { deps, waits } = fakeWaiting()
    const send = vi.fn(() => client.send({ operation: 'bulk-upload', argument: skus() }))
    const result = await sendWithResend(send, { maxAttempts: 4 }, deps)
    expect(send).toHaveBeenCalledTimes(4)
    expect(result.outcome.kind).toBe('unreachable')
    expect(result.attempts.every((o) => o.kind === 'unreachable')).toBe(true)
    expect(waits).toEqual([500, 1_000, 2_000])
  })

  it('a rejected batch is not sent again', async () => {
    const sandbox = await sandboxFor()
    const sent = skus()
    sent[0]!.isActive = 'no'
    const { deps } = fakeWaiting()
    const result = await sendWithResend(
      () => clientFor(sandbox.url).send({ operation: 'bulk-upload', argument: sent }),
      {},
      deps,
    )
    expect(result.outcome.kind).toBe('rejected')
    expect(operationRequests(sandbox)).toHaveLength(1)
  })
})
