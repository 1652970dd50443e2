import type { Outcome } from '#shared/service/outcome.ts'
import type { SyncAnswers } from '#shared/ipc.ts'

/**
 * What came of the last requests main sent for the sync engine, by the engine's request id. The
 * engine runs in the page and writes each outcome in its outbox; when the page is gone before an
 * answer reaches it (a reload, a window closed while main lives on, a renderer that crashed), main
 * still has the request or its answer, and the next page asks for them rather than calling the
 * drafts unknown (src/renderer/src/db/sync-outbox.ts, `recoverInterrupted`). Main itself keeps
 * nothing across its own restarts: then the outbox's `unknown` is the truth.
 *
 * Only the last few are kept: a page that is gone had at most its run's concurrency (8 at most)
 * out at once, and the next page asks before it sends anything (a run left open must be resumed or
 * cancelled before another starts). An outcome holds the service's answer (a bulk upload's ids):
 * a few kilobytes as a rule, the client's response limit (1 MB) at worst, so 32 of them at worst.
 */
export const ANSWERS_KEPT = 32

export class SentRequestAnswers {
  readonly #requests = new Map<string, { answer: Promise<Outcome>; outcome?: Outcome }>()

  /** Keeps `answer` under `requestId`, and its outcome once it comes; the oldest kept goes. */
  remember(requestId: string, answer: Promise<Outcome>): void {
    const kept: { answer: Promise<Outcome>; outcome?: Outcome } = { answer }
    this.#requests.delete(requestId)
    this.#requests.set(requestId, kept)
    // The transport answers every failure as an outcome; a rejection (a bug) stays unknown here too.
    answer.then((outcome) => (kept.outcome = outcome)).catch(() => this.#requests.delete(requestId))
    for (const oldest of this.#requests.keys()) {
      if (this.#requests.size <= ANSWERS_KEPT) break
      this.#requests.delete(oldest)
    }
  }

  /**
   * Each request of `requestIds` main knows: its outcome, or `sending` while it is out. With
   * `wait`, once none of them is still out (each request ends within its profile's timeouts).
   */
  async answers(requestIds: readonly string[], wait: boolean): Promise<SyncAnswers> {
    const known = requestIds.flatMap((id) => {
      const kept = this.#requests.get(id)
      return kept ? [[id, kept] as const] : []
    })
    if (wait) await Promise.allSettled(known.map(([, kept]) => kept.answer))
    const answers: SyncAnswers = {}
    for (const [id, kept] of known) {
      if (kept.outcome) answers[id] = kept.outcome
      // Gone meanwhile only if its transport failed (see `remember`): unknown, as main cannot say.
      else if (this.#requests.has(id)) answers[id] = 'sending'
    }
    return answers
  }
}
