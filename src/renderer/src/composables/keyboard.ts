import { useEventListener } from './use-event-listener.ts'

/** Where typing a key means text, not a command. Checkboxes, radios and buttons are not that. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button'].includes(target.type)
  return target.closest('textarea, select, [contenteditable="true"]') !== null
}

/** Ctrl+Z (Cmd+Z on a Mac), without Shift (that is redo). */
export function isUndoKey(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey
}

/**
 * Ctrl+Z runs the page's undo while the calling component is mounted, except while typing in a
 * field, where it is the field's own undo of what is being typed.
 */
export function useUndoShortcut(undo: () => unknown): void {
  useEventListener(window, 'keydown', (event) => {
    if (!isUndoKey(event) || typingIn(event.target)) return
    event.preventDefault()
    void undo()
  })
}
