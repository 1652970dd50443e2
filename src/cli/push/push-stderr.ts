import type { Output } from '../io.ts'
import { thousands } from '#shared/sheet/places.ts'

/**
 * How `push` lists items on standard error (the invalid, the held back, what a platform list keeps
 * back): a heading, then the first few, then how many more, so a push of 100,000 SKUs does not
 * flood a terminal; the whole list is in `--report` (or a dry run's `--json`).
 */

/** How many items a list on standard error names before it says how many more there are. */
const LISTED_ON_STDERR = 50

/** A heading and its lines on standard error, the first few of them, then how many more. */
export function listOnStderr(
  out: Output,
  heading: string,
  lines: readonly string[],
  more = '(--report lists them all)',
): void {
  out.write(`${heading}\n`)
  for (const line of lines.slice(0, LISTED_ON_STDERR)) out.write(`  ${line}\n`)
  if (lines.length > LISTED_ON_STDERR)
    out.write(`  … and ${thousands(lines.length - LISTED_ON_STDERR)} more ${more}\n`)
}
