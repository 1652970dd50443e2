import { onBeforeRouteLeave } from 'vue-router'
import { useUndoShortcut } from './keyboard.ts'
import { useEscapeTo } from './leave-keys.ts'

/** What an editor page does as it is left, given by the page (from its editor and its store). */
export interface EditorLeave {
  /** Writes pending edits. */
  flush(): Promise<void>
  /** Deletes the draft if it is a "New …" left as it came (`isUntouchedNew`). */
  discardIfUntouched(): Promise<void>
  /** Asks the list to give the draft's row focus again. */
  refocusList(): void
  /** Undoes the draft's last saved change. */
  undo(): unknown
}

/**
 * The keys and the leaving of an editor page, a SKU's and an app's alike. Leaving, pending edits
 * are written first, so a draft typed into is never taken for untouched; a new draft left as it
 * came is discarded (nothing to undo); back on `list`, its row has focus. Escape leaves for `list`
 * (Alt+← is Back everywhere, App.vue; the guard saves first); Ctrl+Z undoes the last saved change.
 */
export function useEditorLeave(list: string, leave: EditorLeave): void {
  onBeforeRouteLeave(async (to) => {
    await leave.flush()
    await leave.discardIfUntouched()
    if (to.path === list) leave.refocusList()
  })
  useEscapeTo(list)
  useUndoShortcut(() => leave.undo())
}
