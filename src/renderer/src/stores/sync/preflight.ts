import { computed, ref, watch, type Ref } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import { destinationKindOf } from '#shared/sync/destination.ts'
import { draftKind } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { appDrafts } from '../../db/app-drafts.ts'
import type { AppDraftRecord } from '../../db/records.ts'
import { eligible, type Preflight } from '../../db/sync-runs.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { useRunViews } from '../run-views.ts'
import { useHeldBack } from './held-back.ts'
import { usePromotions } from './promotions.ts'
import { useScope } from './scope.ts'
import { useTeamSending } from './team-sending.ts'
import { useUpdatesOffer } from './updates-offer.ts'

/**
 * What a new run would do, as the Sync page shows it before one starts: each kind's pre-flight (of
 * the chosen scope's drafts, when one is chosen), what the gates hold back, the promotions and
 * updates on offer. Read again as a whole by `refresh` whenever any of it may have changed.
 */
export function usePreflight(
  profiles: ReturnType<typeof useProfilesStore>,
  runs: Pick<ReturnType<typeof useRunViews>, 'preflights' | 'refresh'>,
  error: Ref<string>,
) {
  /** Per kind: whether a new run takes the drafts whose last sending failed too (the pre-flight's choice). */
  const includeFailed = ref<Record<SyncKind, boolean>>({ skus: false, apps: false })
  const target = computed(() => profiles.active)
  /**
   * The active profile needs a token of the person's and has none: a run could send nothing, so
   * none starts (a tryout's first "Create" logged a request refused for want of a token).
   */
  const targetLacksToken = computed(
    () => !!target.value && destinationKindOf(target.value).ownToken && !target.value.hasToken,
  )
  const { read: readGates, ...gates } = useHeldBack(profiles, includeFailed)
  const { read: readPromotions, ...promotions } = usePromotions(profiles, gates.heldBack)
  const { read: readUpdates, ...offer } = useUpdatesOffer()
  const { readPreflight, ...scope } = useScope(profiles, refresh)
  const { read: readTeamSending, teamSending } = useTeamSending(profiles)

  /** Reads the pre-flights, the promotions on offer, the history and the open runs again. */
  async function refresh() {
    await runs.refresh()
    const active = profiles.active
    const chosen = scope.scope.value
    await readPreflight(active, chosen)
    await readGates(active, chosen?.ids)
    await readPromotions(active, chosen !== undefined)
    await readUpdates(active, chosen?.ids)
    await readTeamSending()
  }
  // Sending the failed SKUs too puts them before the gates as well.
  watch(
    () => includeFailed.value.skus,
    () => void refresh().catch((failure) => (error.value = messageOf(failure))),
  )

  /** The pre-flight a new run of the kind follows: of the scope's drafts when one is chosen. */
  function preflightOf(kind: SyncKind): Preflight | undefined {
    const definition = draftKind(kind)
    const summary =
      definition.scoped && scope.scope.value ? scope.scopePreflight.value : runs.preflights.value[kind]
    const held = definition.gated ? gates.heldBack.value : undefined
    // What the gates hold back is not ready: "Ready to send" is what a run sends.
    return summary && held ? { ...summary, ready: summary.ready - (held.holds.size - held.failed) } : summary
  }

  /** What a new run of the kind would send: the ready drafts, and the failed ones when chosen. */
  function toSend(kind: SyncKind): number {
    const summary = preflightOf(kind)
    if (!summary) return 0
    const failedHeld = draftKind(kind).gated ? (gates.heldBack.value?.failed ?? 0) : 0
    return summary.ready + (includeFailed.value[kind] ? summary.failed - failedHeld : 0)
  }

  /**
   * The app drafts a new run of apps would create on the active profile, as it would take them
   * (latest edit first): what the Sync page shows and asks about before "Create N apps on …".
   * App drafts are few, so they are all read.
   */
  async function appsToCreate(): Promise<AppDraftRecord[]> {
    const profile = target.value
    if (!profile) return []
    const all = await appDrafts.all()
    return all.filter((draft) => eligible(draft, profile.destination, includeFailed.value.apps))
  }

  return {
    includeFailed,
    target,
    targetLacksToken,
    teamSending,
    readTeamSending,
    ...gates,
    ...promotions,
    ...offer,
    ...scope,
    refresh,
    preflightOf,
    toSend,
    appsToCreate,
  }
}
