import { db, skuImports, skuList, syncRuns } from './db/index.ts'
import { defaultListQuery } from './db/sku-list-query.ts'
import { rollBackInterruptedImport } from './features/import/interrupted-import.ts'
import { saveInterruptedEdits } from './stores/interrupted-edits.ts'
import { recoverInterruptedRuns, recoveredMessage, type Recovery } from './stores/interrupted-sync.ts'
import { drafts } from './words/counting.ts'

export { sweepUntouchedNewDrafts } from './stores/new-drafts.ts'

/** What the SKU list says first, as its store's `tell` takes it. */
export type StartNotice = [message: string, tone?: 'error']

/**
 * What the start's checks found: what the list should say, the requests main still has out, and
 * the items of a team's run they settled (their send records are written once the page is up).
 */
export interface StartRecovery {
  notice?: StartNotice
  stillOut: string[]
  ended: Recovery['ended']
}

/**
 * The checks before anything shows or writes drafts (main.ts): an import cut short by a crash or
 * a closed window is rolled back (usually there is none, and this is one localStorage read),
 * drafts a sync left `sending` get main's answer, or become `unknown` when main has none, so the
 * list never shows a state nobody is working on (those main is still sending stay `sending`, until
 * `stores/answered-late.ts` writes main's answers), and an edit the last window closed on before
 * it was saved is saved.
 */
export async function recoverInterrupted(): Promise<StartRecovery> {
  const interrupted = await rollBackInterruptedImport(skuImports)
  const { recovered, stillOut, ended } = await recoverInterruptedRuns(db, syncRuns)
  await saveInterruptedEdits(db)
  if (interrupted) return { notice: [interrupted], stillOut, ended }
  if (recovered > 0) return { notice: [recoveredMessage(drafts(recovered)), 'error'], stillOut, ended }
  return { stillOut, ended }
}

/**
 * When the window opens on the SKU list: its first rows are read from here on, while the app's
 * modules load and mount (the list takes the read when it opens), and the list page's own modules
 * run now, in a task of their own, rather than in the one that mounts the page (issue #37). After
 * the checks and the sweep, so the rows are as they left them.
 */
export async function openListAhead(path: string): Promise<void> {
  if (path !== '/' && path !== '/skus') return
  skuList.readAhead(defaultListQuery())
  await import('./features/skus/SkuListPage.vue')
}
