import { appDrafts } from '../db/app-drafts.ts'
import { skuDrafts } from '../db/index.ts'
import { ifDraftFree } from '../adapters/draft-lock.ts'

/**
 * At the app's start: every "New SKU" and "New app" left untouched (marked as made, never saved
 * since, sent nowhere: `isUntouchedNew` in db/untouched-new.ts) is deleted, however its window ended
 * (closed, reloaded, crashed: none of which runs the editor's leaving), except one another
 * window's editor holds open (its Web Lock, adapters/draft-lock.ts) and `opened`, the draft this window
 * opens on (a reload on the editor: leaving it discards it, as always). How many were deleted.
 * Never throws: a sweep that fails leaves the drafts for the next start.
 */
export async function sweepUntouchedNewDrafts(opened?: string): Promise<number> {
  try {
    const [skus, apps] = await Promise.all([
      skuDrafts.sweepUntouchedNew(ifDraftFree, opened),
      appDrafts.sweepUntouchedNew(ifDraftFree, opened),
    ])
    return skus + apps
  } catch {
    return 0
  }
}
