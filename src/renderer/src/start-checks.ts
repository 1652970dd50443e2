import { db, skuImports, syncRuns } from './db/index.ts'
import { rollBackInterruptedImport } from './features/import/interrupted-import.ts'
import { recoverInterruptedRuns, recoveredMessage } from './stores/interrupted-sync.ts'
import { drafts } from './words/counting.ts'

export { sweepUntouchedNewDrafts } from './stores/new-drafts.ts'

/** What the SKU list says first, as its store's `tell` takes it. */
export type StartNotice = [message: string, tone?: 'error']

/**
 * The checks before anything shows or writes drafts (main.ts): an import cut short by a crash or
 * a closed window is rolled back (usually there is none, and this is one localStorage read), and
 * drafts a sync left `sending` become `unknown`, so the list never shows a state nobody is working
 * on. Answers what the list should say about it, if anything.
 */
export async function recoverInterrupted(): Promise<StartNotice | undefined> {
  const interrupted = await rollBackInterruptedImport(skuImports)
  const { recovered } = await recoverInterruptedRuns(db, syncRuns)
  if (interrupted) return [interrupted]
  if (recovered > 0) return [recoveredMessage(drafts(recovered)), 'error']
  return undefined
}
