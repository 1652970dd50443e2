/**
 * A "something changed" signal for the engine's slots: a slot with nothing to send waits here
 * until a batch is held back, a request ends, or the run is paused, resumed or cancelled, and
 * then looks again. Level-free on purpose: waiters re-check the state themselves.
 */
export interface ChangeSignal {
  /** Resolves at the next `notify()`. */
  next(): Promise<void>
  notify(): void
}

export function createChangeSignal(): ChangeSignal {
  let waiters: (() => void)[] = []
  return {
    next: () => new Promise<void>((resolve) => waiters.push(resolve)),
    notify() {
      const woken = waiters
      waiters = []
      for (const wake of woken) wake()
    },
  }
}
