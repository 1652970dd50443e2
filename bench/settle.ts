import { cpus } from 'node:os'
import { log } from './result.ts'

/**
 * Waits until the machine is quiet after a bulk write into IndexedDB. Chromium goes on compacting
 * its LevelDB files for tens of seconds after 100,000 drafts are written, on the same two cores
 * the measurement then runs on: a fixed pause of 5 s measured the compaction as much as the list
 * (open and scroll-to-end at 1.7–2.0 against 0.8–0.9 after 30 s). The compaction is processor
 * work, so all processors' idle time is its signal, sampled by the operating system.
 */
const SAMPLE_MS = 500
/** Busy below this share of all processors counts as quiet (a quarter: half a core of two). */
const QUIET_BELOW = 0.25
/** Quiet for this long in a row counts as settled. */
const QUIET_FOR_MS = 3_000
/** A machine busy with other work never goes quiet: measure anyway after this, and say so. */
const AT_MOST_MS = 120_000

function processorTimes(): { idle: number; total: number } {
  let idle = 0
  let total = 0
  for (const { times } of cpus()) {
    idle += times.idle
    total += times.user + times.nice + times.sys + times.irq + times.idle
  }
  return { idle, total }
}

/** Resolves once the processors have been quiet for a while; logs how long that took. */
export async function waitUntilSettled(label: string): Promise<void> {
  const start = Date.now()
  let quietSince: number | undefined
  let last = processorTimes()
  while (Date.now() - start < AT_MOST_MS) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS))
    const now = processorTimes()
    const total = now.total - last.total
    const busy = total > 0 ? 1 - (now.idle - last.idle) / total : 0
    last = now
    if (busy >= QUIET_BELOW) {
      quietSince = undefined
      continue
    }
    quietSince ??= Date.now()
    if (Date.now() - quietSince >= QUIET_FOR_MS) {
      log(`${label}: settled after ${Date.now() - start} ms`)
      return
    }
  }
  log(`${label}: the machine was still busy after ${AT_MOST_MS} ms; measuring anyway`)
}
