import type { Ref } from 'vue'
import type { ProfileView } from '#shared/profile.ts'
import { draftKind } from '#shared/sync/kinds.ts'
import type { RunAction, SyncKind } from '#shared/sync/ports.ts'
import { syncRuns } from '../../db/index.ts'
import { countByReason, type HeldBack } from '../../db/sku-send-gates.ts'
import { counted } from '../../words/counting.ts'
import { heldBackWords, logCount } from '../../words/sync-log.ts'
import { runTarget, updateGate } from './profile-targets.ts'
import type { RunSteps } from './run-preparation.ts'
import type { SyncScope } from './scope.ts'

/** What starting a run reads of the pre-flight, and how it is prepared. */
export interface StartDeps {
  scope: Readonly<Ref<SyncScope | undefined>>
  includeFailed: Ref<Record<SyncKind, boolean>>
  readHeldBack(profile: ProfileView, ids: readonly string[] | undefined): Promise<HeldBack>
  /** A run took the chosen scope: the next one starts from every ready draft. */
  spend(chosen: SyncScope): void
  addLog(text: string): void
  prepareAndLaunch(kind: SyncKind, action: RunAction, steps: RunSteps): Promise<string | undefined>
}

/** The Sync page's two actions that start a run: create the ready drafts, or update those changed since. */
export function useRunStarts({
  scope,
  includeFailed,
  readHeldBack,
  spend,
  addLog,
  prepareAndLaunch,
}: StartDeps) {
  /**
   * Queues the eligible drafts of a kind for the active profile (of `ids` those that are eligible:
   * the app editor's "Create on …" gives one, a chosen scope gives its SKUs; the failed ones too
   * when the pre-flight chose so) and sends them. Resolves once the run is queued, with its id
   * (undefined when nothing was queued or it could not start); the run then goes on in the
   * background like any run, and `live` follows it.
   */
  function start(
    kind: SyncKind,
    { ids }: { ids?: readonly string[] | undefined } = {},
  ): Promise<string | undefined> {
    const definition = draftKind(kind)
    const chosen = definition.scoped && !ids ? scope.value : undefined
    const wanted = chosen ? chosen.ids : ids
    return prepareAndLaunch(kind, 'create', {
      async queue(profile, id, onProgress) {
        // The gates are read again as the run starts: what was edited since the page looked counts.
        const held = definition.gated ? await readHeldBack(profile, wanted) : undefined
        if (held?.holds.size)
          addLog(
            `${logCount(kind, held.holds.size)} held back: ${heldBackWords(countByReason(held), profile.name)}.`,
          )
        return syncRuns.enqueue(kind, {
          target: runTarget(profile),
          id,
          ids: wanted,
          includeFailed: includeFailed.value[kind],
          heldBack: held && new Set(held.holds.keys()),
          onProgress,
        })
      },
      nothing: () => `Nothing to ${definition.verb}: no ${definition.draftNoun} is ready.`,
      queued: (n, profile) => `${logCount(kind, n)} ${definition.queuedOn} ${profile.name}.`,
      onQueued() {
        // The scope is spent: the next run starts from every ready draft again.
        if (chosen) spend(chosen)
      },
    })
  }

  /**
   * Queues an update of every SKU created at the active profile's destination and changed since,
   * with a platform id there and passing the gates (of the scope's drafts, when one is chosen), and
   * sends them, one SKU a request, each with only the fields that changed. Resolves as `start`.
   */
  function startUpdates(): Promise<string | undefined> {
    const noun = draftKind('skus').noun
    return prepareAndLaunch('skus', 'update', {
      queue: (profile, id, onProgress) =>
        syncRuns.enqueueUpdates({
          target: runTarget(profile),
          gate: updateGate(profile),
          id,
          ids: scope.value?.ids,
          onProgress,
        }),
      nothing: (profile) => `Nothing to update on ${profile.name}: no SKU created there has changed since.`,
      queued: (n, profile) => `${counted(n, noun)} queued to be updated on ${profile.name}.`,
    })
  }

  return { start, startUpdates }
}
