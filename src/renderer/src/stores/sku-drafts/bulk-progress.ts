import type { ShallowRef } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import type { useNotice } from '../notice.ts'

// A bulk action's progress bar, shared by the SKU drafts store's bulk actions and its undo: both
// show one for long actions only, and read the list again when they end.

/** A bulk action under way: what it does and how far it is. */
export interface Progress {
  label: string
  done: number
  total: number
  /** Whether it can be stopped (the bar offers Cancel), and whether it was asked to. */
  stop?: 'offered' | 'stopping'
}

/** Below this many drafts a bulk action is over before a progress bar could be read. */
export const SHOW_PROGRESS_FROM = 500

/** What running a bulk action needs of its store: the bar, the notice, and the list read again. */
export interface BulkRunNeeds {
  progress: ShallowRef<Progress | undefined>
  tell: ReturnType<typeof useNotice>['tell']
  /** Makes the list read again what it shows. */
  changed: () => void
}

/** Runs one bulk action with progress, reporting a failure as "nothing changed". */
export async function runBulk<T>(
  { progress, tell, changed }: BulkRunNeeds,
  label: string,
  ids: readonly string[],
  action: (report: (done: number) => void) => Promise<T>,
): Promise<T | undefined> {
  const total = ids.length
  if (total >= SHOW_PROGRESS_FROM) progress.value = { label, done: 0, total }
  try {
    return await action((done) => {
      if (progress.value) progress.value = { label, done, total }
    })
  } catch (error) {
    tell(`Nothing was changed: ${messageOf(error)}`, 'error')
    return undefined
  } finally {
    progress.value = undefined
    changed()
  }
}
