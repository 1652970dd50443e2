import type { Pinia } from 'pinia'
import { db, syncRuns } from '../db/index.ts'
import { answersInMain } from '../adapters/sync-transport.ts'
import { drafts } from '../words/counting.ts'
import { TELL_DRAFTS_CHANGED } from './draft-lists.ts'
import { recoverInterruptedRuns, recoveredMessage } from './interrupted-sync.ts'
import { useSkuDraftsStore } from './sku-drafts.ts'
import { useSyncStore } from './sync.ts'

/**
 * Requests main still had out when the window opened (it was reloaded mid-send, say): once main
 * has their answers, they are written as the window that sent them would have written them, and
 * the lists and the Sync page read their drafts again. Loaded only then, once the first page is up.
 */
export async function settleWhenAnswered(stillOut: readonly string[], pinia: Pinia): Promise<void> {
  const answers = await answersInMain({ wait: true })([...stillOut]).catch(() => ({}))
  // The answers waited for, not asked again: main keeps only the last few.
  const { recovered } = await recoverInterruptedRuns(db, syncRuns, undefined, async () => answers)
  for (const tell of Object.values(TELL_DRAFTS_CHANGED)) await tell(pinia)
  if (pinia.state.value.sync) await useSyncStore(pinia).refresh()
  if (recovered > 0) useSkuDraftsStore(pinia).tell(recoveredMessage(drafts(recovered)), 'error')
}
