import { namesOtherFiles } from '#shared/asset-checks/asset-refs.ts'
import { AssetChecks } from './asset-checks.ts'
import type { CatalogDatabase } from './database.ts'
import { eligible } from './sync-runs.ts'

/** A run's drafts whose last asset check found errors: the pre-flight warns, it does not hold them back. */
export interface AssetFailures {
  /** Their ids, in no order: what "Show them" lists. */
  ids: string[]
  /** Of them, those that name other files than when they were checked (fixed since, perhaps). */
  changed: number
}

export interface RunOfDrafts {
  destination: string
  includeFailed: boolean
  /** The drafts the run takes, when not every ready one (the Sync page's scope). */
  scope?: ReadonlySet<string>
  /** Those the gates before sending hold back: not sent, so not warned about. */
  heldBack: ReadonlySet<string>
}

/**
 * Of the drafts a run would send, those whose last "Check assets" found an error. Reads only the
 * drafts checked with errors (the `status` index), however many drafts there are.
 */
export async function assetFailuresIn(db: CatalogDatabase, run: RunOfDrafts): Promise<AssetFailures> {
  const failed = await new AssetChecks(db).withStatus('error')
  const drafts = await db.skuDrafts.bulkGet(failed.map((check) => check.id))
  const found: AssetFailures = { ids: [], changed: 0 }
  failed.forEach((check, at) => {
    const draft = drafts[at]
    if (!draft || !eligible(draft, run.destination, run.includeFailed)) return
    if (run.heldBack.has(draft.id) || (run.scope && !run.scope.has(draft.id))) return
    found.ids.push(draft.id)
    if (namesOtherFiles(draft.payload, check.assets)) found.changed++
  })
  return found
}
