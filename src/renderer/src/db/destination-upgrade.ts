import type { Transaction } from 'dexie'
import { EMBEDDED_SANDBOX_DESTINATION, normaliseBaseUrl } from '#shared/sync/destination.ts'
import type { ItemState } from '#shared/sync/ports.ts'
import { withStanding, type DestinationStanding, type DraftSync } from '#shared/sync/standing.ts'
import type { SyncItemRecord, SyncRunRecord } from './sync-records.ts'

/** The built-in Sandbox profile's id: before v5, its runs went to the embedded sandbox on that start's port. */
const SANDBOX_PROFILE_ID = 'sandbox'

/**
 * Where a run recorded before v5 went. The Sandbox profile always sent to the embedded sandbox,
 * whatever port it had then; any other profile to the address the run recorded. (A custom profile
 * that pointed at the embedded sandbox's port of the day counts as that address: nothing recorded
 * says it was the sandbox.)
 */
export function legacyRunDestination(run: Pick<SyncRunRecord, 'profileId' | 'url'>): string {
  return run.profileId === SANDBOX_PROFILE_ID ? EMBEDDED_SANDBOX_DESTINATION : normaliseBaseUrl(run.url)
}

/**
 * Where a draft goes whose state names no run (a database changed by hand): nothing recorded says
 * which service it reached, so its state is kept under this name (shown as such), and it is
 * offered to every real destination as a draft never sent there.
 */
export const UNRECORDED_DESTINATION = 'unrecorded'

/** A draft as version 4 stored it: one state, and for an app what the service answered. */
interface V4Draft {
  id: string
  syncState?: 'draft' | ItemState
  remoteId?: string
  remoteCreatedAt?: number
  response?: unknown
  sync?: DraftSync
  standing?: string[]
}

/**
 * The v4 → v5 upgrade: each run gets its destination, and each draft's state moves to the
 * destination of the latest run that holds an item of it (the run that set it), with the app's id
 * and answer when it has them. A draft in the `draft` state was sent nowhere, or went back to
 * editing: it gets no standing.
 */
export async function upgradeToDestinations(tx: Transaction): Promise<void> {
  const runs = new Map<string, SyncRunRecord>()
  await tx
    .table<SyncRunRecord, string>('syncRuns')
    .toCollection()
    .modify((run) => {
      run.destination = legacyRunDestination(run)
      runs.set(run.id, run)
    })
  // The latest item of each draft: a draft is in at most a few runs, and runs are few.
  const latest = new Map<string, SyncItemRecord>()
  await tx.table<SyncItemRecord>('syncItems').each((item) => {
    const before = latest.get(item.key)
    const at = runs.get(item.run)?.createdAt ?? 0
    if (!before || at >= (runs.get(before.run)?.createdAt ?? 0)) latest.set(item.key, item)
  })
  for (const table of ['skuDrafts', 'appDrafts']) {
    await tx
      .table<V4Draft, string>(table)
      .toCollection()
      .modify((draft) => {
        const { syncState = 'draft', remoteId, remoteCreatedAt, response } = draft
        delete draft.syncState
        delete draft.remoteId
        delete draft.remoteCreatedAt
        delete draft.response
        let destination: string | undefined
        let standing: DestinationStanding | undefined
        if (syncState !== 'draft') {
          const item = latest.get(draft.id)
          const run = item && runs.get(item.run)
          destination = run?.destination ?? UNRECORDED_DESTINATION
          standing = {
            state: syncState,
            run: item?.run ?? '',
            position: item?.position ?? -1,
            at: run?.updatedAt ?? 0,
            ...(remoteId !== undefined ? { remoteId } : {}),
            ...(remoteCreatedAt !== undefined ? { remoteCreatedAt } : {}),
            ...(response !== undefined ? { response } : {}),
          }
        }
        Object.assign(draft, withStanding({ sync: {}, payload: undefined }, destination ?? '', standing))
      })
  }
}
