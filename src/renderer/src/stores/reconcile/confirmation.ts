import { messageOf } from '#shared/error-message.ts'
import { syncReconcile } from '../../db/index.ts'
import type { Reconciled, UndecidedDraft } from '../../db/sync-reconcile.ts'
import { count, drafts } from '../../words/counting.ts'
import { recordedLines, resentLine, withErrorsLine } from '../../words/reconcile-outcome.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { useSyncStore } from '../sync.ts'
import { shareDecisions, type RunDecision } from '../team-decisions.ts'
import type { ReconcilePreview, useReconcileWork } from './work-state.ts'

/** What the undecided drafts not on the list become: sent again by a new run, or left for later. */
export type RestChoice = 'resend' | 'leave'

/** What confirming a list touches of the rest of the page. */
export interface ConfirmationDeps {
  profiles: ReturnType<typeof useProfilesStore>
  sync: ReturnType<typeof useSyncStore>
  work: ReturnType<typeof useReconcileWork>
}

/**
 * The person's one confirmation of a list read: its decisions written (by `SyncReconciler`, a
 * chunk a transaction, with their progress shown), then the drafts to send again sent by a new run
 * of the sync store, like any run.
 */
export function useListConfirmation({ profiles, sync, work }: ConfirmationDeps) {
  const { preview, working, progress, error, outcome, begin } = work

  /**
   * Why the list shown cannot be confirmed now, if it cannot: a run is being sent (its outbox
   * writes the same standings), or the active profile now leads elsewhere than where the list
   * was read for (then the preview goes too).
   */
  function refusal(shown: ReconcilePreview): string | undefined {
    if (sync.sending || sync.busy) return 'A run is being sent: confirm once it has ended.'
    if (profiles.active?.destination === shown.destination) return undefined
    preview.value = undefined
    return `The active profile no longer sends to ${shown.place}: read the list again. Nothing was changed.`
  }

  /**
   * The person's one confirmation: the listed drafts are marked created, the rest sent again by a
   * new run (or left undecided).
   */
  async function confirm(rest: RestChoice) {
    const shown = preview.value
    if (!shown || working.value) return
    const refused = refusal(shown)
    if (refused) {
      error.value = refused
      return
    }
    const resend = rest === 'resend' ? shown.plan.rest : []
    const all = shown.plan.listed.length + resend.length + shown.plan.ids.length
    begin(`Recording: 0 of ${drafts(all)}…`)
    progress.value = { done: 0, total: all }
    preview.value = undefined
    try {
      const result = await record(shown, resend)
      progress.value = undefined
      const { plan, file, place } = shown
      const lines = recordedLines(result, { file, place, listed: plan.listed.length, ids: plan.ids.length })
      // Before sending again: the next run's claims read the team's records of these drafts.
      const unshared = await shareDecisions(teamDecisions(plan.listed, resend, result))
      if (unshared) lines.push(unshared)
      await sync.refresh()
      const resent = await sendAgain(result, place)
      if (resent) lines.push(resent)
      if (result.withErrors > 0) lines.push(withErrorsLine(result.withErrors))
      outcome.value = lines.join(' ')
    } catch (failure) {
      error.value = `Recording the list failed: ${messageOf(failure)} What was recorded before stays; read the list again for the rest.`
      await sync.refresh().catch(() => {})
    } finally {
      working.value = ''
      progress.value = undefined
    }
  }

  /** Writes the list's decisions, showing how many are recorded as each chunk is. */
  function record(shown: ReconcilePreview, resend: readonly UndecidedDraft[]): Promise<Reconciled> {
    return syncReconcile.decide(shown.destination, {
      created: shown.plan.listed,
      resend,
      ids: shown.plan.ids,
      source: shown.file,
      onProgress: (done, of) => {
        working.value = `Recording: ${count(done)} of ${drafts(of)}…`
        progress.value = { done, total: of }
      },
    })
  }

  /** Sends the drafts the list released (those without errors) again; what the outcome says of it, if any. */
  async function sendAgain(result: Reconciled, place: string): Promise<string | undefined> {
    const toSend = result.released.length - result.withErrors
    if (toSend <= 0) return undefined
    working.value = `Queuing ${drafts(toSend)} to send again…`
    // Exactly those drafts, in a run of their own to the same destination; the old items stay
    // in the history as they ended. The run takes those of them without errors.
    const runId = await sync.start('skus', { ids: result.released })
    return resentLine(toSend, !!runId, place)
  }

  return { confirm }
}

/** A list's decisions run by run, for the team workspace: the listed drafts created, the released sent again. */
function teamDecisions(
  listed: readonly UndecidedDraft[],
  resend: readonly UndecidedDraft[],
  { released }: Reconciled,
): RunDecision[] {
  const freed = new Set(released)
  const byRun = new Map<string, { created: string[]; resend: string[] }>()
  const add = (draft: UndecidedDraft, to: 'created' | 'resend') => {
    const run = byRun.get(draft.run.id) ?? { created: [], resend: [] }
    run[to].push(draft.id)
    byRun.set(draft.run.id, run)
  }
  for (const draft of listed) add(draft, 'created')
  for (const draft of resend) if (freed.has(draft.id)) add(draft, 'resend')
  return [...byRun].flatMap(([runId, { created, resend: again }]) => [
    { runId, decision: 'created' as const, keys: created },
    { runId, decision: 'resend' as const, keys: again },
  ])
}
