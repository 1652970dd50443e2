import { computed, shallowRef, type Ref } from 'vue'
import type { ProfileView } from '#shared/profile.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { HOLD_REASONS, type Hold } from '#shared/sync/send-gates.ts'
import { db, sendGates } from '../../db/index.ts'
import { assetFailuresIn, type AssetFailures } from '../../db/asset-check-standing.ts'
import { countByReason, type DraftGate, type HeldBack } from '../../db/sku-send-gates.ts'
import type { useProfilesStore } from '../profiles.ts'
import { gateTarget } from './profile-targets.ts'

/**
 * The gates before sending, as the sync store shows them: which SKUs a new run to the active
 * profile would hold back and why (for the pre-flight, the SKU list's marks and one draft's
 * editor), and which of those it would send last failed their asset check.
 */
export function useHeldBack(
  profiles: ReturnType<typeof useProfilesStore>,
  includeFailed: Ref<Record<SyncKind, boolean>>,
) {
  /** The SKUs the gates before sending hold back from a new run (of the scope, when one is chosen). */
  const heldBack = shallowRef<HeldBack>()
  /** How many are held back for each reason that holds any, in the gates' order. */
  const heldReasons = computed(() => {
    const counts = heldBack.value ? countByReason(heldBack.value) : undefined
    return HOLD_REASONS.flatMap((reason) => (counts?.[reason] ? [{ reason, n: counts[reason] }] : []))
  })
  /** The SKUs a new run would send whose last asset check found errors: a warning, not a gate. */
  const assetFailures = shallowRef<AssetFailures>()

  /** The SKUs a run of `ids` (or of every ready draft) to `profile` would hold back, and why. */
  function readHeldBack(profile: ProfileView, ids: readonly string[] | undefined): Promise<HeldBack> {
    return sendGates.heldBack(gateTarget(profile), {
      scope: ids && new Set(ids),
      includeFailed: includeFailed.value.skus,
    })
  }

  /** Reads what a run of `ids` (or of every ready draft) to `active` would hold back, and its asset failures. */
  async function read(active: ProfileView | undefined, ids: readonly string[] | undefined) {
    heldBack.value = active ? await readHeldBack(active, ids) : undefined
    assetFailures.value =
      active && heldBack.value
        ? await assetFailuresIn(db, {
            destination: active.destination,
            includeFailed: includeFailed.value.skus,
            scope: ids && new Set(ids),
            heldBack: new Set(heldBack.value.holds.keys()),
          })
        : undefined
  }

  /**
   * Whether a run of every ready SKU draft to the active profile would send this one, and if the
   * gates would hold it back, why, naming the drafts that share its barcode or already have it
   * there: what the Sync page counts, asked for one draft (its editor).
   */
  async function draftGate(draftId: string): Promise<DraftGate | undefined> {
    if (!profiles.active) await profiles.load()
    const active = profiles.active
    return active && sendGates.draftGate(gateTarget(active), draftId)
  }

  /**
   * Every SKU draft a run of every ready draft to the active profile would hold back, by id, with
   * its reason: for a list that marks them (one read for the whole list, from the indexes).
   */
  async function sendHolds(): Promise<ReadonlyMap<string, Hold>> {
    if (!profiles.active) await profiles.load()
    const active = profiles.active
    return active ? (await sendGates.heldBack(gateTarget(active))).holds : new Map()
  }

  return { heldBack, heldReasons, assetFailures, readHeldBack, read, draftGate, sendHolds }
}
