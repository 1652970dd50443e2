import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PROCESSED, resendsAutomatically, type Outcome, type OutcomeKind } from '#shared/service/outcome.ts'
import { DEFAULT_RESEND_POLICY, sendWithResend, sleep, type ResendDeps } from '#shared/service/resend.ts'

function outcomeOf(kind: OutcomeKind, extra: Partial<Outcome> = {}): Outcome {
  return { kind, processed: PROCESSED[kind], message: kind, durationMs: 1, ...extra }
}

/** A send that answers the given outcomes in turn (the last one again once they run out). */
function scripted(...outcomes: Outcome[]) {
  return vi.fn(async (attempt: number) => outcomes[Math.min(attempt, outcomes.length) - 1]!)
}

function fakeDeps(overrides: Partial<ResendDeps> = {}) {
  const waits: number[] = []
  const deps: ResendDeps = {
    sleep: vi.fn(async (ms: number) => {
      waits.push(ms)
    }),
    random: () => 0.5,
    ...overrides,
  }
  return { deps, waits }
}

describe('sendWithResend', () => {
  it.each<OutcomeKind>([
    'created',
    'rejected',
    'too-large',
    'needs-token',
    'wrong-address',
    'failed',
    'unknown',
  ])('returns %s after one attempt, without waiting', async (kind) => {
    const send = scripted(outcomeOf(kind), outcomeOf('created'))
    const { deps, waits } = fakeDeps()
    const result = await sendWithResend(send, {}, deps)
    expect(send).toHaveBeenCalledTimes(1)
    expect(result.outcome.kind).toBe(kind)
    expect(result.attempts).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('waits as long as Retry-After says, then sends again', async () => {
    const send = scripted(outcomeOf('retry-later', { retryAfterMs: 7_000 }), outcomeOf('created'))
    const onWait = vi.fn()
    const { deps, waits } = fakeDeps({ onWait })
    const result = await sendWithResend(send, {}, deps)
    expect(send.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2])
    expect(waits).toEqual([7_000])
    expect(onWait).toHaveBeenCalledExactlyOnceWith({
      attempt: 1,
      delayMs: 7_000,
      outcome: result.attempts[0],
    })
    expect(result.outcome.kind).toBe('created')
    expect(result.attempts.map((o) => o.kind)).toEqual(['retry-later', 'created'])
  })

  it('does not wait longer than maxRetryAfterMs: that wait is the person to choose', async () => {
    const send = scripted(outcomeOf('retry-later', { retryAfterMs: 120_001 }), outcomeOf('created'))
    const { deps, waits } = fakeDeps()
    const result = await sendWithResend(send, {}, deps)
    expect(send).toHaveBeenCalledTimes(1)
    expect(waits).toEqual([])
    expect(result.outcome).toMatchObject({ kind: 'retry-later', retryAfterMs: 120_001 })
  })

  it('takes a Retry-After of exactly the cap, and of zero', async () => {
    const send = scripted(
      outcomeOf('retry-later', { retryAfterMs: DEFAULT_RESEND_POLICY.maxRetryAfterMs }),
      outcomeOf('retry-later', { retryAfterMs: 0 }),
      outcomeOf('created'),
    )
    const { deps, waits } = fakeDeps()
    await sendWithResend(send, {}, deps)
    expect(waits).toEqual([120_000, 0])
  })

  it('backs off exponentially with full jitter when no wait was given, up to maxAttempts in all', async () => {
    const send = scripted(outcomeOf('unreachable'))
    const { deps, waits } = fakeDeps({ random: () => 0.5 })
    const result = await sendWithResend(send, {}, deps)
    expect(send).toHaveBeenCalledTimes(4)
    // random() * min(maxDelay, base * 2**n) for n = 0, 1, 2; no wait after the last attempt.
    expect(waits).toEqual([500, 1_000, 2_000])
    expect(result.outcome.kind).toBe('unreachable')
    expect(result.attempts).toHaveLength(4)
  })

  it('keeps the backoff under maxDelayMs and spreads it with random()', async () => {
    const send = scripted(outcomeOf('retry-later'))
    const randoms = [0, 0.999, 0.25, 1 - Number.EPSILON, 0.5]
    const { deps, waits } = fakeDeps({ random: () => randoms.shift()! })
    await sendWithResend(send, { maxAttempts: 6, baseDelayMs: 1_000, maxDelayMs: 5_000 }, deps)
    expect(waits).toEqual([0, 1_998, 1_000, 4_999, 2_500])
  })

  it('sends once only when maxAttempts is 1', async () => {
    const send = scripted(outcomeOf('unreachable'))
    const { deps, waits } = fakeDeps()
    await sendWithResend(send, { maxAttempts: 1 }, deps)
    expect(send).toHaveBeenCalledTimes(1)
    expect(waits).toEqual([])
  })

  it('stops while waiting when the signal fires, returning the last outcome', async () => {
    const controller = new AbortController()
    const send = scripted(outcomeOf('unreachable'))
    const { deps } = fakeDeps({
      signal: controller.signal,
      sleep: async () => controller.abort(),
    })
    const result = await sendWithResend(send, {}, deps)
    expect(send).toHaveBeenCalledTimes(1)
    expect(result.outcome.kind).toBe('unreachable')
  })

  it('takes a sleep that rejects on abort like one that resolves', async () => {
    const controller = new AbortController()
    const send = scripted(outcomeOf('retry-later', { retryAfterMs: 10 }))
    const { deps } = fakeDeps({
      signal: controller.signal,
      sleep: async () => {
        controller.abort()
        throw new DOMException('aborted', 'AbortError')
      },
    })
    await expect(sendWithResend(send, {}, deps)).resolves.toMatchObject({ outcome: { kind: 'retry-later' } })
    expect(send).toHaveBeenCalledTimes(1)
  })

  it('does not wait at all when the signal fired during the attempt', async () => {
    const controller = new AbortController()
    const send = vi.fn(async () => {
      controller.abort()
      return outcomeOf('unreachable')
    })
    const { deps, waits } = fakeDeps({ signal: controller.signal })
    await sendWithResend(send, {}, deps)
    expect(send).toHaveBeenCalledTimes(1)
    expect(waits).toEqual([])
  })
})

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Whether `promise` has settled, once the promises it waits on have had their turn. */
  async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
    let settled = false
    void promise.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    return settled
  }

  it('waits', async () => {
    const slept = sleep(30)
    await vi.advanceTimersByTimeAsync(29)
    expect(await hasSettled(slept)).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await hasSettled(slept)).toBe(true)
  })

  it('ends early, resolving, when the signal fires, its timer cleared', async () => {
    const controller = new AbortController()
    const slept = sleep(10_000, controller.signal)
    await vi.advanceTimersByTimeAsync(10)
    expect(await hasSettled(slept)).toBe(false)
    controller.abort()
    expect(await hasSettled(slept)).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('does not start when the signal has fired', async () => {
    await expect(sleep(10_000, AbortSignal.abort())).resolves.toBeUndefined()
  })
})

describe('the one resend rule', () => {
  const ALL = Object.keys(PROCESSED) as OutcomeKind[]

  it('sends again without asking only what provably was not processed and may be taken later', () => {
    expect(ALL.filter((kind) => resendsAutomatically({ kind }))).toEqual(['retry-later', 'unreachable'])
    for (const kind of ALL.filter((kind) => resendsAutomatically({ kind })))
      expect(PROCESSED[kind]).toBe('no')
  })

  it.each(ALL)('the resend loop sends after %s again exactly when the rule says', async (kind) => {
    const send = scripted(outcomeOf(kind), outcomeOf('created'))
    await sendWithResend(send, {}, fakeDeps().deps)
    expect(send).toHaveBeenCalledTimes(resendsAutomatically({ kind }) ? 2 : 1)
  })
})
