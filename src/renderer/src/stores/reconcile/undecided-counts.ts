import { computed, ref, watch } from 'vue'
import { syncReconcile } from '../../db/index.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { useSyncStore } from '../sync.ts'

/**
 * What the reconcile panel counts at the active destination, to say whether checking the platform
 * is worth it: the SKU drafts undecided there, and those created there without a platform id.
 */
export function useUndecidedCounts(
  profiles: ReturnType<typeof useProfilesStore>,
  sync: ReturnType<typeof useSyncStore>,
) {
  /** Undecided SKU drafts at the active destination, as the pre-flight counts them on the index. */
  const undecided = computed(() => {
    const summary = sync.preflights.skus
    return { unknown: summary?.unknown ?? 0, failed: summary?.failed ?? 0 }
  })
  const total = computed(() => undecided.value.unknown + undecided.value.failed)
  /**
   * SKU drafts created at the active destination whose platform id is unknown, counted on the
   * `standing` index: they cannot be updated until a list gives them one. Counted again whenever
   * the sync store reads its pre-flights (after a run, a decision, a change of profile).
   */
  const withoutIds = ref(0)
  let counting = 0
  async function countWithoutIds() {
    const destination = profiles.active?.destination
    const asked = ++counting
    const found = destination === undefined ? 0 : await syncReconcile.withoutIds(destination).catch(() => 0)
    // A later count (another profile, a newer refresh) has the last word.
    if (asked === counting) withoutIds.value = found
  }
  watch(
    () => [sync.preflights, profiles.active?.destination],
    () => void countWithoutIds(),
    { immediate: true },
  )

  return { undecided, total, withoutIds }
}
