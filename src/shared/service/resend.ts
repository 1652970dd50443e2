import { resendsAutomatically, type Outcome } from './outcome.ts'

/**
 * Sending again without asking anyone, only where the outcome proves the request was not
 * processed (retry-later, unreachable): the bulk endpoint is not idempotent, so a resend after a
 * 500, a 502 or a drop after the body left could create the items twice. Bounded in attempts and
 * in waiting; pure (sleep, randomness and cancellation come in), so the sync engine and the CLI
 * share it and tests need no clock.
 */

export interface ResendPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number
  /** The first backoff ceiling; doubled per attempt. */
  baseDelayMs: number
  maxDelayMs: number
  /** A service asking for a longer wait than this is not waited for: that is the person's decision. */
  maxRetryAfterMs: number
}

export const DEFAULT_RESEND_POLICY: ResendPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
}

export interface WaitInfo {
  /** The attempt that just ended (1 is the first). */
  attempt: number
  delayMs: number
  outcome: Outcome
}

export interface ResendDeps {
  /** Resolves after `ms`, or early (resolving or rejecting) when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** In [0, 1), as Math.random. */
  random(): number
  signal?: AbortSignal
  onWait?(info: WaitInfo): void
}

export interface ResendResult {
  /** The last attempt's outcome. */
  outcome: Outcome
  /** Every attempt's outcome, in order. */
  attempts: Outcome[]
}

/** Full jitter: anywhere between nothing and the ceiling, so clients that failed together spread out. */
export function backoffDelay(policy: ResendPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  return Math.floor(random() * ceiling)
}

/** A sleep for real use: a timer that an AbortSignal ends early (resolving, never rejecting). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/**
 * Calls `send(attempt)` (attempt counts from 1) until the outcome is not automatically resendable,
 * the attempts are used up, the service asks for too long a wait, or the signal fires.
 */
export async function sendWithResend(
  send: (attempt: number) => Promise<Outcome>,
  policy: Partial<ResendPolicy>,
  deps: ResendDeps,
): Promise<ResendResult> {
  const settings = { ...DEFAULT_RESEND_POLICY, ...policy }
  const maxAttempts = Math.max(1, Math.floor(settings.maxAttempts))
  const attempts: Outcome[] = []
  for (let attempt = 1; ; attempt++) {
    const outcome = await send(attempt)
    attempts.push(outcome)
    const done = { outcome, attempts }
    if (!resendsAutomatically(outcome)) return done
    if (attempt >= maxAttempts || deps.signal?.aborted) return done

    let delayMs: number
    if (outcome.retryAfterMs !== undefined) {
      if (outcome.retryAfterMs > settings.maxRetryAfterMs) return done
      delayMs = Math.max(0, outcome.retryAfterMs)
    } else {
      delayMs = backoffDelay(settings, attempt, deps.random)
    }
    deps.onWait?.({ attempt, delayMs, outcome })
    try {
      await deps.sleep(delayMs, deps.signal)
    } catch {
      // A sleep that rejects on abort ends the run like one that resolves early.
    }
    if (deps.signal?.aborted) return done
  }
}
