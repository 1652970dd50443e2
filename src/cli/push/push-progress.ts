import type { DraftKind } from '#shared/sync/kinds.ts'
import { thousands } from '#shared/sheet/places.ts'
import type { RunCounts } from '#shared/sync/run.ts'
import type { Output } from '../io.ts'

/**
 * Progress on stderr, at most once a second, so a pipe is not flooded, and once every item has
 * ended, at once: before the run's "Done" line (a tryout read the last progress after it).
 * `title` says which run of the push it is ("Progress" of the creations, "Updates").
 */
export function progressPrinter(out: Output, kind: DraftKind, now: () => number, title = 'Progress') {
  let last = 0
  let latest: RunCounts | undefined
  let printed: RunCounts | undefined
  const print = (counts: RunCounts) => {
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0)
    const done = total - counts.queued - counts.sending
    out.write(
      `${title}: ${thousands(done)} of ${thousands(total)} ${kind.noun}s done (${thousands(counts.synced)} synced, ${thousands(counts.rejected)} rejected, ${thousands(counts.failed)} failed, ${thousands(counts.unknown)} unknown)\n`,
    )
    printed = counts
  }
  return {
    counts(counts: RunCounts) {
      latest = counts
      const ended = counts.queued + counts.sending === 0 && Object.values(counts).some((n) => n > 0)
      if (ended ? !sameCounts(counts, printed) : now() - last >= 1_000) {
        last = now()
        print(counts)
      }
    },
    done() {
      if (latest && !sameCounts(latest, printed)) print(latest)
    },
  }
}

const sameCounts = (a: RunCounts, b: RunCounts | undefined) =>
  b !== undefined && (Object.keys(a) as Array<keyof RunCounts>).every((state) => a[state] === b[state])
