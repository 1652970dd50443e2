import { draftKind } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { DraftSync } from '#shared/sync/standing.ts'
import { skuDrafts, syncRuns, syncSelection } from '../../db/index.ts'
import type { SyncItemRecord } from '../../db/sync-records.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { SyncScope } from './scope.ts'

/** What changing one draft's standing touches of the rest of the store. */
export interface DraftStandingDeps {
  profiles: ReturnType<typeof useProfilesStore>
  addLog(text: string): void
  refresh(): Promise<void>
  choose(next: SyncScope): Promise<void>
}

/**
 * One draft's standing with each destination, as its editor and the Sync page ask about it: what
 * stands there, its history of runs, and the two ways back from an answer that ended its sending
 * there (refused: back to editing; found gone by an update: forgotten as created).
 */
export function useDraftStanding({ profiles, addLog, refresh, choose }: DraftStandingDeps) {
  /**
   * The run item whose kept payload is what stands at `destination` now (the creation's, or the
   * latest update applied there), and what came of it: what the editor compares the draft with.
   */
  function sentTo(draft: { sync: DraftSync }, destination: string): Promise<SyncItemRecord | undefined> {
    return syncSelection.itemAt(draft, destination)
  }

  /** Every run that held a draft, to any destination, latest first: its history. */
  function historyOf(draftId: string) {
    return syncRuns.history(draftId)
  }

  /**
   * Offers a draft the active profile's destination refused there again, from its editor; false
   * when it was not refused there.
   */
  async function returnToEditing(draftId: string, kind: SyncKind = 'skus'): Promise<boolean> {
    await profiles.load()
    const destination = profiles.active?.destination
    return destination !== undefined && syncRuns.returnToEditing(draftId, kind, destination)
  }

  /**
   * A SKU an update found gone from the active destination: forgotten there (as never created, so
   * offered for creation again); with `createAgain`, chosen as the next run's scope too, so the
   * Sync page offers to create exactly it. False when no update found it gone there (any more).
   */
  async function forgetCreated(draftId: string, { createAgain = false } = {}): Promise<boolean> {
    await profiles.load()
    const active = profiles.active
    if (!active) return false
    const record = await skuDrafts.get(draftId)
    const forgotten = await syncRuns.forgetCreated(draftId, active.destination)
    if (!forgotten) {
      await refresh()
      return false
    }
    const label = record ? draftKind('skus').label(record.payload, record.id) : draftId
    addLog(`${label}: forgotten as created on ${active.name}; it is offered for creation there again.`)
    if (createAgain) await choose({ ids: [draftId], description: 'to create again' })
    else await refresh()
    return true
  }

  return { sentTo, historyOf, returnToEditing, forgetCreated }
}
