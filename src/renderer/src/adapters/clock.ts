import type { SyncClock } from '#shared/sync/ports.ts'

/** The engine's clock in the page: wall time, timers that end early on abort, Math.random. */
export const browserClock: SyncClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve()
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      signal?.addEventListener('abort', done, { once: true })
    }),
}
