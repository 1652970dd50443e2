import type { AssetFailures } from '#renderer/db/asset-check-standing.ts'
import type { AssetCheckTally } from '#renderer/stores/asset-check-run.ts'
import { count, drafts } from './counting.ts'

/** What a check of many drafts found, for the list's notice: by worst status, and how to find them. */
export function assetTallyText(tally: AssetCheckTally, asked: number): string {
  const checked = tally.ok + tally.warning + tally.error
  const found = [
    tally.error ? `${count(tally.error)} with errors` : '',
    tally.warning ? `${count(tally.warning)} with warnings` : '',
    tally.ok ? `${count(tally.ok)} OK` : '',
  ].filter(Boolean)
  const parts = [
    tally.stopped
      ? `Stopped after the assets of ${count(checked)} of ${drafts(asked)}${found.length ? `: ${found.join(', ')}` : ''}. The others keep their earlier check.`
      : `Assets of ${drafts(checked)} checked${found.length ? `: ${found.join(', ')}` : ''}.`,
  ]
  if (tally.gone) parts.push(`${drafts(tally.gone)} no longer existed.`)
  if (tally.error + tally.warning) parts.push('The Asset check filter “With problems” lists them.')
  return parts.join(' ')
}

/** The Sync page's warning about drafts to send whose last asset check found errors. */
export function assetFailureText({ ids, changed }: AssetFailures): string {
  const one = ids.length === 1
  const parts = [
    `${drafts(ids.length)} to send failed ${one ? 'its' : 'their'} last asset check (a file missing, broken or over a budget).`,
    `A run sends ${one ? 'it' : 'them'} all the same: fix ${one ? 'it' : 'them'} first, or leave ${one ? 'it' : 'them'} out.`,
  ]
  if (changed)
    parts.push(
      `${count(changed)} ${changed === 1 ? 'names' : 'name'} other files since that check: check again.`,
    )
  return parts.join(' ')
}
