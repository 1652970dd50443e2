import { shallowRef, type ShallowRef } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import { skuUndo } from '../../db/index.ts'
import { MAX_ACTIONS, UndoRefusal, type UndoneActions, type UndoResult } from '../../db/sku-undo-log.ts'
import { namedActions, undoneActionsText, type NamedAction } from '../../words/undo.ts'
import { SHOW_PROGRESS_FROM, type BulkRunNeeds } from './bulk-progress.ts'
import type { useNotice } from '../notice.ts'
import { withoutDrafts, type Selection } from './selection.ts'

// The SKU drafts store's undo: Ctrl+Z, the snackbar's Undo, the history and an import's undo.
// A part of its own: the history is the database's, across restarts, and every undo reads it again.

/** What undoing needs of its store: its notice, its bar, the list read again, and the selection. */
export interface UndoNeeds extends BulkRunNeeds, Pick<ReturnType<typeof useNotice>, 'notice' | 'dismiss'> {
  selection: ShallowRef<Selection>
}

export function useSkuUndo({ notice, tell, dismiss, progress, changed, selection }: UndoNeeds) {
  /** The undo history as last read, newest first, each action with its words (`loadHistory`). */
  const history = shallowRef<NamedAction[]>([])

  /** Reads the undo history again (the list's History dialog shows it). */
  async function loadHistory(): Promise<NamedAction[]> {
    history.value = namedActions(await skuUndo.history())
    return history.value
  }

  /**
   * Runs an undo of one or more actions with progress, then says what it did (or why it could
   * not) and reads the list and the history again.
   */
  async function undoing(
    work: (options: {
      onProgress: (done: number, total: number) => void
    }) => Promise<UndoneActions | undefined>,
  ) {
    dismiss()
    try {
      const undone = await work({
        onProgress: (done, total) => {
          if (total >= SHOW_PROGRESS_FROM) progress.value = { label: 'Undoing', done, total }
        },
      })
      if (!undone) tell('Nothing to undo.')
      else {
        // Drafts the undo removed (a duplicate's copies) are no longer there to act on.
        selection.value = withoutDrafts(selection.value, undone.removedIds)
        tell(undoneActionsText(undone.actions, undone.result))
      }
    } catch (error) {
      tell(error instanceof UndoRefusal ? error.message : `Could not undo: ${messageOf(error)}`, 'error')
    } finally {
      progress.value = undefined
      changed()
      await loadHistory().catch(() => undefined)
    }
  }

  /** Undoes every action newer than `batch`, then `batch` (the history's "Undo back to here"). */
  function undoThrough(batch: string): Promise<void> {
    return undoing((options) => skuUndo.undoThrough(batch, options))
  }

  return {
    history,
    /** How many actions the undo history keeps at most. */
    historyLimit: MAX_ACTIONS,
    loadHistory,
    undoThrough,
    /**
     * Undoes the newest action still in the undo history (Ctrl+Z), whether or not its snackbar is
     * still up: the history is in the database, across restarts. Again, and it walks back through
     * the older ones. Says so when there is nothing to undo.
     */
    undo(): Promise<void> {
      return undoing((options) => skuUndo.undoLatest(options))
    },
    /**
     * The snackbar's Undo: its action, when that is still the newest (Ctrl+Z's). Never an older one
     * from under a newer action, and never a newer one than the snackbar named.
     */
    async undoNotice(): Promise<void> {
      const batch = notice.value?.undo
      if (!batch) return
      if (batch === (await skuUndo.latestBatch().catch(() => undefined))) return undoThrough(batch)
      tell('That action can no longer be undone on its own: newer ones came since. See History.', 'error')
    },
    /**
     * Undoes a whole import from the import page, which tells the outcome itself: the list reads
     * again, and its notice offering the same undo goes. Only while it is the newest action: undoing
     * it from under newer ones is the history's, which says which ones go with it.
     */
    async undoImport(batch: string): Promise<UndoResult> {
      if ((await skuUndo.latestBatch()) !== batch)
        throw new UndoRefusal('other actions came since. Undo them first from History in the SKU list.')
      const { result, removedIds } = await skuUndo.undoThrough(batch)
      selection.value = withoutDrafts(selection.value, removedIds)
      changed()
      dismiss()
      return result
    },
  }
}
