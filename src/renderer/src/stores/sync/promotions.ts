import { ref, shallowRef, type Ref } from 'vue'
import type { ProfileView } from '#shared/profile.ts'
import { syncSelection } from '../../db/index.ts'
import type { HeldBack } from '../../db/sku-send-gates.ts'
import type { useProfilesStore } from '../profiles.ts'

/** Drafts synced on another destination and not sent to the active one: a promotion on offer. */
export interface Promotion {
  destination: string
  /** The profile that leads there. */
  name: string
  count: number
}

/**
 * The promotions on offer at the active profile's destination: per other destination a profile
 * leads to, the SKUs synced there and not sent to the active one, and how many of a run of every
 * ready draft they hold (tested elsewhere first).
 */
export function usePromotions(
  profiles: ReturnType<typeof useProfilesStore>,
  heldBack: Readonly<Ref<HeldBack | undefined>>,
) {
  /** Per other destination, the SKUs synced there and not sent to the active one. */
  const promotions = shallowRef<Promotion[]>([])
  /**
   * Of the SKUs a run of every ready draft would send, how many the promotions on offer hold
   * (tested on another destination first); the rest were never tested there.
   */
  const promotedReady = ref(0)

  /** Reads the promotions on offer at `active`'s destination (`promotedReady` only when no scope is chosen). */
  async function read(active: ProfileView | undefined, scoped: boolean) {
    const offered = active ? await promotionsTo(active) : []
    promotions.value = offered.map(({ destination, name, count }) => ({ destination, name, count }))
    promotedReady.value =
      active && !scoped && offered.length
        ? await readyOf(active, [...new Set(offered.flatMap((promotion) => promotion.ids))])
        : 0
  }

  /** Each other destination a profile leads to, with the SKUs synced there and not sent to `active`'s. */
  async function promotionsTo(active: ProfileView): Promise<Array<Promotion & { ids: string[] }>> {
    const others = profiles.places.filter((place) => place.destination !== active.destination)
    const found = await Promise.all(
      others.map(async ({ destination, name }) => {
        const ids = await syncSelection.promotable('skus', destination, active.destination)
        return { destination, name, count: ids.length, ids }
      }),
    )
    return found.filter((promotion) => promotion.count > 0)
  }

  /**
   * How many of `ids` a run of every ready draft to `active` would send: ready there and not held
   * back by the gates (`heldBack` holds every ready draft's holds when no scope is chosen).
   */
  async function readyOf(active: ProfileView, ids: string[]): Promise<number> {
    const { ready } = await syncSelection.preflightOf('skus', active.destination, ids)
    const holds = heldBack.value?.holds
    return ready - (holds ? ids.filter((id) => holds.has(id)).length : 0)
  }

  return { promotions, promotedReady, read }
}
