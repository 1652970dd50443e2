import { messageOf } from '#shared/error-message.ts'
import { appDrafts } from '../../db/app-drafts.ts'
import type { AppDraftRecord } from '../../db/records.ts'
import type { useNotice } from '../notice.ts'
import { appLabel } from '../../words/app-label.ts'

// The app drafts store's delete and its Undo. App drafts have no undo history (they are few): the
// last deleted draft is kept in memory until the next delete, so the snackbar's Undo can put it
// back exactly. A part of its own, as that draft is state nothing else reads.

/** What deleting needs of its store: its notice, and the list read again. */
export interface AppDeletionNeeds extends Pick<ReturnType<typeof useNotice>, 'notice' | 'tell' | 'dismiss'> {
  load: () => Promise<void>
}

export function useAppDeletion({ notice, tell, dismiss, load }: AppDeletionNeeds) {
  /** The last deleted draft, as it was: what Undo restores. */
  let deleted: AppDraftRecord | undefined

  return {
    async remove(id: string) {
      try {
        deleted = await appDrafts.delete(id)
        tell(`${appLabel(deleted)} deleted.`, 'info', deleted.id)
      } catch (error) {
        tell(`Nothing was deleted: ${messageOf(error)}`, 'error')
      }
      await load()
    },

    /** Puts back the draft the current notice reports deleted. */
    async undo() {
      const record = deleted
      if (!record || notice.value?.undo !== record.id) return
      dismiss()
      deleted = undefined
      try {
        await appDrafts.restore(record)
        tell(`${appLabel(record)} restored.`)
      } catch (error) {
        tell(`Could not undo: ${messageOf(error)}`, 'error')
      }
      await load()
    },
  }
}
