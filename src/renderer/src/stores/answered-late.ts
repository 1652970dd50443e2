import type { Pinia } from 'pinia'
import { db, syncRuns } from '../db/index.ts'
import { answersInMain } from '../adapters/sync-transport.ts'
import { drafts } from '../words/counting.ts'
import { TELL_DRAFTS_CHANGED } from './draft-lists.ts'
import { recoverInterruptedRuns, recoveredMessage } from './interrupted-sync.ts'
import { useSkuDraftsStore } from './sku-drafts.ts'
import { useSyncStore } from './sync.ts'
import { recordEndedWhileAway } from './sync/run-claims.ts'
import type { StartRecovery } from '../start-checks.ts'

/**
 * After a window opened on runs a page that is gone left sending (it was reloaded mid-send, say):
 * what the start's checks settled of a team's runs is written as their send records; the requests
 * main still had out are waited for, their answers written as the window that sent them would have
 * written them, and the lists and the Sync page read their drafts again. Loaded only then, once
 * the first page is up.
 */
export async function settleWhenAnswered(
  { stillOut, ended }: Pick<StartRecovery, 'stillOut' | 'ended'>,
  pinia: Pinia,
): Promise<void> {
  await recordEndedWhileAway(ended)
  if (stillOut.length === 0) return
  const answers = await answersInMain({ wait: true })([...stillOut]).catch(() => ({}))
  // The answers waited for, not asked again: main keeps only the last few.
  const later = await recoverInterruptedRuns(db, syncRuns, undefined, async () => answers)
  await recordEndedWhileAway(later.ended)
  const { recovered } = later
  for (const tell of Object.values(TELL_DRAFTS_CHANGED)) await tell(pinia)
  if (pinia.state.value.sync) await useSyncStore(pinia).refresh()
  if (recovered > 0) useSkuDraftsStore(pinia).tell(recoveredMessage(drafts(recovered)), 'error')
}
