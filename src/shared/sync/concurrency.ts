import type { Outcome } from '../service/outcome.ts'

/**
 * Adaptive concurrency: how many requests a run keeps in flight, found while it runs instead of
 * set by a person who cannot know the service's capacity. Additive increase, multiplicative
 * decrease (AIMD), as TCP finds a link's capacity:
 *
 * - It starts at `start` (1) and rises by one after a window of successful requests whose latency
 *   holds: within `latencyFactor` times the best latency seen (or `latencySlackMs` above it, so a
 *   request of a few milliseconds does not count as slow for a jitter of one). A slower success
 *   starts the window again: more at once would only queue at the service. The window is the
 *   number in flight (one round of requests per step), never less than one.
 * - A sign of overload (429, 503, 504, a timeout) halves it, never below 1. Requests that started
 *   before a decrease were sent at the old level, so their overload signs are not counted again.
 * - It never goes above `max`: the profile's "most requests at a time".
 *
 * The level that last brought overload is remembered (the ceiling). Below it the climb back is
 * quick (one success a step); just under it the controller holds for `patience` windows before it
 * tries the ceiling again, and the patience doubles (up to `maxPatience`) each time that level
 * overloads once more, so a service with a hard limit is probed less and less often. A window
 * served at the ceiling without overload forgets it. Pure: the time comes in through `now`.
 */

export interface ConcurrencyOptions {
  /** The most requests at once (the profile's); at least 1. */
  max: number
  /** The first level; default 1. */
  start?: number
  /** A success counts as holding within this factor of the best latency seen; default 2. */
  latencyFactor?: number
  /** …or within this many milliseconds of it, whichever is more; default 25. */
  latencySlackMs?: number
  /** Windows held just under the ceiling before it is tried again; default 8. */
  patience?: number
  /** The longest that hold grows to, in windows; default 64. */
  maxPatience?: number
}

export const DEFAULT_CONCURRENCY_OPTIONS = {
  start: 1,
  latencyFactor: 2,
  latencySlackMs: 25,
  patience: 8,
  maxPatience: 64,
} as const

/** How one request went, as far as the controller cares. */
export type LoadSign =
  /** Served (created or refused for its content): its latency says whether the level holds. */
  | 'served'
  /** 429, 503, 504, a timeout: too much at once. */
  | 'overload'
  /** Anything else (a 500, no connection, a refused token): says nothing about the load. */
  | 'neutral'

/** Reads an outcome as a sign of load. */
export function loadSignOf(outcome: Outcome): LoadSign {
  if (outcome.kind === 'created' || outcome.kind === 'rejected' || outcome.kind === 'too-large')
    return 'served'
  if (outcome.kind === 'retry-later') return 'overload'
  if (outcome.status === 503 || outcome.status === 504) return 'overload'
  // No answer after the body left: a timeout (or a drop), the way an overloaded service fails.
  if (outcome.kind === 'unknown' && outcome.status === undefined) return 'overload'
  return 'neutral'
}

/** Given by `started()`, handed back to `finished()`. */
export interface RequestTicket {
  readonly startedAt: number
  readonly epoch: number
}

export interface ConcurrencyController {
  /** How many requests may be in flight now. */
  readonly limit: number
  readonly max: number
  /** A request leaves now. */
  started(): RequestTicket
  /** The request ended; returns the limit, changed or not. */
  finished(ticket: RequestTicket, sign: LoadSign): number
}

/** Always `max`: the engine's behaviour without adaptation (and the benchmark's fixed levels). */
export function fixedConcurrency(max: number): ConcurrencyController {
  const limit = Math.max(1, Math.floor(max))
  return {
    limit,
    max: limit,
    started: () => ({ startedAt: 0, epoch: 0 }),
    finished: () => limit,
  }
}

export function createConcurrencyController(
  options: ConcurrencyOptions,
  now: () => number,
): ConcurrencyController {
  const settings = { ...DEFAULT_CONCURRENCY_OPTIONS, ...options }
  const max = Math.max(1, Math.floor(settings.max))
  let limit = Math.min(max, Math.max(1, Math.floor(settings.start)))
  let successes = 0
  let best = Number.POSITIVE_INFINITY
  /** Counts decreases: a ticket of an earlier epoch was sent before the last one. */
  let epoch = 0
  let ceiling: number | undefined
  let patience = settings.patience

  /** Successes that hold before the next step up. */
  function window(): number {
    if (ceiling !== undefined && limit + 1 < ceiling) return 1
    if (ceiling !== undefined && limit + 1 === ceiling) return limit * patience
    return limit
  }

  function holds(latency: number): boolean {
    return latency <= Math.max(best * settings.latencyFactor, best + settings.latencySlackMs)
  }

  return {
    get limit() {
      return limit
    },
    max,
    started: () => ({ startedAt: now(), epoch }),
    finished(ticket, sign) {
      if (sign === 'neutral') return limit
      if (sign === 'overload') {
        // Already halved for this episode: the request left before that.
        if (ticket.epoch !== epoch) return limit
        patience = ceiling === limit ? Math.min(settings.maxPatience, patience * 2) : settings.patience
        ceiling = limit
        limit = Math.max(1, Math.floor(limit / 2))
        successes = 0
        epoch += 1
        return limit
      }
      const latency = Math.max(0, now() - ticket.startedAt)
      best = Math.min(best, latency)
      if (!holds(latency)) {
        successes = 0
        return limit
      }
      if (limit >= max) return limit
      successes += 1
      if (successes < window()) return limit
      successes = 0
      // A full window at the ceiling without overload: it was a passing load, forget it.
      if (ceiling !== undefined && limit >= ceiling) {
        ceiling = undefined
        patience = settings.patience
      }
      limit += 1
      return limit
    },
  }
}
