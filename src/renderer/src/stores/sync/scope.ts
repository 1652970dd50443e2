import { shallowRef } from 'vue'
import type { ProfileView } from '#shared/profile.ts'
import { syncSelection } from '../../db/index.ts'
import type { SentComparison } from '../../db/sync-selection.ts'
import type { Preflight } from '../../db/sync-runs.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { Promotion } from './promotions.ts'

/**
 * The SKUs a run takes when not every ready draft: the list's selection or filter, or a promotion
 * (those synced on another destination and not sent to the active one).
 */
export interface SyncScope {
  ids: string[]
  /** What they are, after a count: "selected drafts", "drafts matching the filter". */
  description: string
  /** For a promotion: the destination they were synced on, and its name. */
  promotedFrom?: { destination: string; name: string }
}

/**
 * The scope a new SKU run takes, chosen from the list ("Sync…") or from a promotion on offer, with
 * its own pre-flight; spent by the run that takes it, or forgotten when the person leaves the page.
 * `refresh` reads the whole pre-flight again once the scope changed.
 */
export function useScope(profiles: ReturnType<typeof useProfilesStore>, refresh: () => Promise<void>) {
  /** The SKUs a new run takes when not all: see `SyncScope`. */
  const scope = shallowRef<SyncScope>()
  /** The pre-flight of exactly the scope's drafts. */
  const scopePreflight = shallowRef<Preflight>()
  /** For a promotion: which drafts changed since they were sent to the source destination. */
  const comparison = shallowRef<SentComparison>()

  /** Reads the pre-flight of the scope chosen at the moment `chosen` was (none without one). */
  async function readPreflight(active: ProfileView | undefined, chosen: SyncScope | undefined) {
    scopePreflight.value =
      active && chosen ? await syncSelection.preflightOf('skus', active.destination, chosen.ids) : undefined
  }

  /** Makes the next SKU run take exactly these drafts (those of them ready), and reads their pre-flight. */
  async function choose(next: SyncScope) {
    scope.value = next
    comparison.value = undefined
    await refresh()
  }

  /** Chooses a promotion: the SKUs synced on `from`, with how they changed since they were sent there. */
  async function choosePromotion(from: Promotion) {
    const active = profiles.active
    if (!active) return
    const ids = await syncSelection.promotable('skus', from.destination, active.destination)
    await choose({
      ids,
      description: `synced on ${from.name}`,
      promotedFrom: { destination: from.destination, name: from.name },
    })
    comparison.value = await syncSelection.compareWithSent('skus', from.destination, ids)
  }

  /** Back to every ready draft. */
  async function clearScope() {
    forgetScope()
    await refresh()
  }

  /**
   * Leaving the Sync page ends a chosen scope: it was chosen for that visit ("Sync…" in the list
   * chooses it and opens the page), and the next visit, from the navigation, starts from every
   * ready draft. Read again when the page opens.
   */
  function forgetScope() {
    scope.value = undefined
    scopePreflight.value = undefined
    comparison.value = undefined
  }

  /** A run took `chosen`: the next run starts from every ready draft again (unless another was chosen meanwhile). */
  function spend(chosen: SyncScope) {
    if (scope.value !== chosen) return
    scope.value = undefined
    comparison.value = undefined
  }

  return {
    scope,
    scopePreflight,
    comparison,
    readPreflight,
    choose,
    choosePromotion,
    clearScope,
    forgetScope,
    spend,
  }
}
