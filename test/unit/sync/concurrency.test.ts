import { describe, expect, it } from 'vitest'
import type { Outcome } from '#shared/service/outcome.ts'
import {
  createConcurrencyController,
  fixedConcurrency,
  loadSignOf,
  type ConcurrencyOptions,
  type LoadSign,
} from '#shared/sync/concurrency.ts'

/** A controller on a clock the test moves. */
function controlled(options: ConcurrencyOptions) {
  let time = 0
  const controller = createConcurrencyController(options, () => time)
  /** One request that takes `ms` and ends with `sign`; returns the limit after it. */
  const request = (ms: number, sign: LoadSign = 'served') => {
    const ticket = controller.started()
    time += ms
    return controller.finished(ticket, sign)
  }
  /** `count` requests of `ms` each; the limits after each. */
  const requests = (count: number, ms: number) => Array.from({ length: count }, () => request(ms))
  return { controller, request, requests, tick: (ms: number) => (time += ms) }
}

describe('adaptive concurrency (AIMD)', () => {
  it('starts at 1 and rises by one after a window (the level) of successes that hold, up to max', () => {
    const { controller, requests } = controlled({ max: 4 })
    expect(controller.limit).toBe(1)
    // 1 success at 1, 2 at 2, 3 at 3: then 4, the most, and no further.
    expect(requests(8, 100)).toEqual([2, 2, 3, 3, 3, 4, 4, 4])
    expect(controller.limit).toBe(4)
  })

  it('a start above 1 and above max is clamped to max', () => {
    expect(createConcurrencyController({ max: 3, start: 8 }, () => 0).limit).toBe(3)
    expect(createConcurrencyController({ max: 0 }, () => 0).limit).toBe(1)
  })

  it('a success slower than twice the best (and 25 ms above it) starts the window again', () => {
    const { controller, request } = controlled({ max: 8 })
    request(100) // 2
    request(100)
    expect(request(201)).toBe(2) // slow: the window starts again
    request(200) // within twice the best: counts
    expect(request(150)).toBe(3)
    expect(controller.limit).toBe(3)
  })

  it('a few milliseconds of jitter on a fast service still holds', () => {
    const { requests } = controlled({ max: 3 })
    expect(requests(3, 1).at(-1)).toBe(3)
    const { request } = controlled({ max: 3 })
    expect(request(0)).toBe(2)
    request(20)
    expect(request(24)).toBe(3)
  })

  it('overload halves the level (floor 1), once per episode: requests sent before the cut do not cut again', () => {
    const { controller, requests } = controlled({ max: 8 })
    requests(1 + 2 + 3 + 4 + 5 + 6 + 7, 10)
    expect(controller.limit).toBe(8)
    const inFlight = Array.from({ length: 8 }, () => controller.started())
    expect(controller.finished(inFlight[0]!, 'overload')).toBe(4)
    // The seven others left at 8, before the cut.
    for (const ticket of inFlight.slice(1)) expect(controller.finished(ticket, 'overload')).toBe(4)
    // One sent after the cut counts.
    expect(controller.finished(controller.started(), 'overload')).toBe(2)
    expect(controller.finished(controller.started(), 'overload')).toBe(1)
    expect(controller.finished(controller.started(), 'overload')).toBe(1)
  })

  it('neutral outcomes change nothing', () => {
    const { controller, request } = controlled({ max: 4 })
    request(10)
    expect(request(10, 'neutral')).toBe(2)
    expect(controller.limit).toBe(2)
  })

  it('after an overload: quick back to just under the ceiling, a long hold there, then one try', () => {
    const { controller, request, requests } = controlled({ max: 8, patience: 2 })
    requests(1 + 2 + 3 + 4, 10) // at 5
    expect(controller.limit).toBe(5)
    request(0, 'overload') // the ceiling is 5
    expect(controller.limit).toBe(2)
    // One success a step while well under it: 3, then 4.
    expect(requests(2, 10)).toEqual([3, 4])
    // Just under it: 4 × patience (2) = 8 successes before 5 is tried again.
    expect(requests(8, 10)).toEqual([4, 4, 4, 4, 4, 4, 4, 5])
    // 5 overloads again: the hold doubles (16 successes at 4).
    request(0, 'overload')
    expect(requests(2, 10)).toEqual([3, 4])
    const held = requests(16, 10)
    expect(held.slice(0, 15).every((limit) => limit === 4)).toBe(true)
    expect(held[15]).toBe(5)
    // A window at 5 without overload: the ceiling is forgotten, ordinary steps again.
    expect(requests(5, 10).at(-1)).toBe(6)
    expect(requests(6, 10).at(-1)).toBe(7)
  })

  it('an overload below the old ceiling (the service has less room now) makes it the ceiling', () => {
    const { controller, request, requests } = controlled({ max: 8, patience: 1 })
    requests(1 + 2 + 3 + 4 + 5 + 6, 10) // at 7
    request(0, 'overload') // ceiling 7, at 3
    expect(controller.limit).toBe(3)
    request(0, 'overload') // ceiling 3, at 1
    expect(controller.limit).toBe(1)
    // 1 + 1 < 3: one success to 2; 2 + 1 = 3: 2 × patience (1) = 2 successes to 3.
    expect(requests(3, 10)).toEqual([2, 2, 3])
  })

  it('fixed: always the profile number', () => {
    const fixed = fixedConcurrency(3)
    expect(fixed.limit).toBe(3)
    expect(fixed.finished(fixed.started(), 'overload')).toBe(3)
  })
})

describe('loadSignOf', () => {
  const outcome = (kind: Outcome['kind'], status?: number): Outcome => ({
    kind,
    processed: 'no',
    message: '',
    durationMs: 0,
    ...(status === undefined ? {} : { status }),
  })

  it.each([
    [outcome('created', 201), 'served'],
    [outcome('rejected', 422), 'served'],
    [outcome('too-large', 413), 'served'],
    [outcome('retry-later', 429), 'overload'],
    [outcome('retry-later', 503), 'overload'],
    [outcome('unknown', 503), 'overload'],
    [outcome('unknown', 504), 'overload'],
    [outcome('unknown'), 'overload'],
    [outcome('unknown', 502), 'neutral'],
    [outcome('failed', 500), 'neutral'],
    [outcome('unreachable'), 'neutral'],
    [outcome('needs-token', 401), 'neutral'],
  ] as const)('%o is %s', (given, sign) => {
    expect(loadSignOf(given)).toBe(sign)
  })
})
