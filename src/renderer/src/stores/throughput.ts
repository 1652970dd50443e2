import { computed, ref } from 'vue'
import { TERMINAL_STATES } from '#shared/sync/ports.ts'
import type { RunCounts } from '#shared/sync/run.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/** Throughput is measured over this much recent time, so a pause or a slow batch soon stops counting. */
const RATE_WINDOW_MS = 30_000

/** Items that reached a terminal state. */
export const doneCount = (counts: RunCounts) => TERMINAL_STATES.reduce((sum, state) => sum + counts[state], 0)

/**
 * A run's pace: items done a second over the recent window, and the time left at that pace for
 * what `remaining` says is still to send (undefined while the run is not sending).
 */
export function useThroughput(remaining: () => number | undefined) {
  const now = ref(systemClock.now())
  let samples: Array<{ at: number; done: number }> = []

  /** Notes the counts now; called whenever they change. */
  function sample(counts: RunCounts) {
    const at = systemClock.now()
    samples.push({ at, done: doneCount(counts) })
    while (samples.length > 2 && at - samples[0]!.at > RATE_WINDOW_MS) samples.shift()
    now.value = at
  }

  /** Starts measuring afresh: after a pause, the wait must not count as slowness. */
  function restart() {
    samples = []
  }

  /** Items done a second, over the recent window; undefined until there is something to measure. */
  const rate = computed(() => {
    void now.value
    if (samples.length < 2) return undefined
    const first = samples[0]!
    const last = samples.at(-1)!
    const seconds = (last.at - first.at) / 1000
    if (seconds < 1 || last.done <= first.done) return undefined
    return (last.done - first.done) / seconds
  })

  const secondsLeft = computed(() => {
    const left = remaining()
    const perSecond = rate.value
    if (left === undefined || !perSecond) return undefined
    return left / perSecond
  })

  return { rate, secondsLeft, sample, restart }
}
