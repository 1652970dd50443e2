import { defineStore } from 'pinia'
import { useProfilesStore } from './profiles.ts'
import { useListConfirmation } from './reconcile/confirmation.ts'
import { usePlatformSheets } from './reconcile/platform-sheets.ts'
import { useUndecidedCounts } from './reconcile/undecided-counts.ts'
import { useReconcileWork } from './reconcile/work-state.ts'
import { useSyncStore } from './sync.ts'

export type { RestChoice } from './reconcile/confirmation.ts'
export type { ReconcilePreview } from './reconcile/work-state.ts'

/**
 * Reconciliation without a read endpoint, on the Sync page (issue #15): the SKU drafts undecided
 * at the active profile's destination exported to check on the platform, and a list of barcodes the
 * platform has turned into decisions, shown first and confirmed once. A list with ids also gives
 * the SKUs created there their platform id (issue #34), which is what they are updated by. The
 * decisions are written by `SyncReconciler`; a new run of the drafts to send again is the sync
 * store's, like any run.
 *
 * Its parts, under `stores/reconcile/`: what the panel counts (`undecided-counts.ts`), its work
 * under way and outcome (`work-state.ts`), the sheets exchanged with the platform
 * (`platform-sheets.ts`) and the confirmation (`confirmation.ts`).
 */
export const useReconcileStore = defineStore('reconcile', () => {
  const profiles = useProfilesStore()
  const sync = useSyncStore()
  const { undecided, total, withoutIds } = useUndecidedCounts(profiles, sync)
  const work = useReconcileWork()
  const { preview, working, progress, error, outcome, dismiss, clearOutcome } = work
  const { exportUndecided, readList } = usePlatformSheets(profiles, work)
  const { confirm } = useListConfirmation({ profiles, sync, work })
  return {
    undecided,
    total,
    withoutIds,
    preview,
    working,
    progress,
    error,
    outcome,
    exportUndecided,
    readList,
    dismiss,
    confirm,
    clearOutcome,
  }
})
