import { DRAFT_KINDS } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import type { EditBase } from '#shared/team/draft-exchange.ts'

/**
 * An editor saves a pause after the last keystroke (use-draft-editor.ts): a reload or a closed
 * window in that pause would lose the edit, and IndexedDB cannot be written as a page goes (its
 * transactions end with the page). So an edit still waiting when the page is hidden for good is
 * kept here (localStorage is written synchronously and survives the page, a crash of it too) and
 * saved when the app next starts, before anything shows or sends the drafts
 * (stores/interrupted-edits.ts).
 */

const PREFIX = 'catalog-desk:unsaved-edit:'

export interface UnsavedEdit {
  kind: SyncKind
  id: string
  payload: Record<string, unknown>
  based: EditBase
  /** When it was kept: the draft's last edit. */
  at: number
}

const keyOf = (kind: SyncKind, id: string) => `${PREFIX}${kind}:${id}`

/**
 * Keeps the editor's edit when the page goes with it unsaved (`unsaved` answers it, or nothing);
 * forgets it when the page comes back (the back-forward cache) or the save went through after all
 * (`saved`). `stop` as the editor closes.
 */
export function keepWhenThePageGoes(
  kind: SyncKind,
  id: string,
  unsaved: () => Pick<UnsavedEdit, 'payload' | 'based'> | undefined,
): { saved(): void; stop(): void } {
  let kept = false
  const forget = () => {
    if (!kept) return
    kept = false
    localStorage.removeItem(keyOf(kind, id))
  }
  const keep = () => {
    const edit = unsaved()
    if (!edit) return
    const entry: UnsavedEdit = { kind, id, ...edit, at: systemClock.now() }
    localStorage.setItem(keyOf(kind, id), JSON.stringify(entry))
    kept = true
  }
  const cameBack = (event: PageTransitionEvent) => {
    if (event.persisted) forget()
  }
  addEventListener('pagehide', keep)
  addEventListener('pageshow', cameBack)
  return {
    saved: forget,
    stop() {
      removeEventListener('pagehide', keep)
      removeEventListener('pageshow', cameBack)
    },
  }
}

/**
 * The edits the last page kept, each taken out as it is read (tried once: one that cannot be saved
 * is not tried at every start); a damaged entry is dropped.
 */
export function takeUnsavedEdits(): UnsavedEdit[] {
  const keys: string[] = []
  for (let index = 0; index < localStorage.length; index++) {
    const key = localStorage.key(index)
    if (key?.startsWith(PREFIX)) keys.push(key)
  }
  return keys.flatMap((key) => {
    const edit = readEdit(localStorage.getItem(key))
    localStorage.removeItem(key)
    return edit ? [edit] : []
  })
}

function readEdit(text: string | null): UnsavedEdit | undefined {
  try {
    const edit = JSON.parse(text ?? '') as Partial<UnsavedEdit> | null
    const isObject = (value: unknown) => typeof value === 'object' && value !== null
    return edit &&
      typeof edit.kind === 'string' &&
      Object.hasOwn(DRAFT_KINDS, edit.kind) &&
      typeof edit.id === 'string' &&
      typeof edit.at === 'number' &&
      isObject(edit.payload) &&
      isObject(edit.based)
      ? (edit as UnsavedEdit)
      : undefined
  } catch {
    // Not one of ours as written: nothing to save.
    return undefined
  }
}
