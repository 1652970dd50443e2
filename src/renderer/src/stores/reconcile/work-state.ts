import { ref, shallowRef } from 'vue'
import type { ReconcilePlan } from '../../db/sync-reconcile.ts'

/** What a list of barcodes would do, shown to the person before anything changes. */
export interface ReconcilePreview {
  /** The list's file name. */
  file: string
  /** Where the drafts were sent, and the name the person knows it by. */
  destination: string
  place: string
  /** How many drafts were undecided there when the list was read. */
  undecided: number
  /** Distinct barcodes on the list. */
  listed: number
  /** For a list with ids: the heading of their column, and how many barcodes have one. */
  ids?: { column: string; listed: number }
  plan: ReconcilePlan
}

/**
 * What the reconcile panel shows of its work: the list read and not yet confirmed, the long work
 * under way, and how the last action ended. One action at a time: each begins by clearing what
 * the last one said.
 */
export function useReconcileWork() {
  const preview = shallowRef<ReconcilePreview>()
  /** The long work under way (reading a list, writing the decisions, building a file), in words. */
  const working = ref('')
  /** While decisions are written: drafts recorded so far, of how many (the panel's progress bar). */
  const progress = shallowRef<{ done: number; total: number }>()
  const error = ref('')
  /** What the last confirmed list did, until the next action or a dismissal. */
  const outcome = ref('')

  function begin(what: string) {
    working.value = what
    progress.value = undefined
    error.value = ''
    outcome.value = ''
  }

  function dismiss() {
    preview.value = undefined
  }

  function clearOutcome() {
    outcome.value = ''
  }

  return { preview, working, progress, error, outcome, begin, dismiss, clearOutcome }
}
