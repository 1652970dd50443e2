import { onBeforeUnmount, onMounted } from 'vue'
import { typingIn } from '#renderer/composables/keyboard.ts'

export interface ListShortcuts {
  newDraft(): void
  duplicate(): void
  remove(): void
  focusSearch(): void
  selectAll(): void
  undo(): void
  clear(): void
}

/**
 * The list page's keyboard shortcuts: N or Ctrl+N new draft, Ctrl+D duplicate, Delete, / or
 * Ctrl+F search, Ctrl+A select all matching, Ctrl+Z undo, Escape clear the selection. Letters
 * and Delete do nothing while typing in a field; nothing here acts while a dialog is open.
 */
export function useListShortcuts(actions: ListShortcuts) {
  function onKeydown(event: KeyboardEvent) {
    if (event.defaultPrevented || event.isComposing || event.altKey) return
    if (document.querySelector('dialog[open]')) return
    const typing = typingIn(event.target)
    const key = event.key.toLowerCase()
    const command = event.ctrlKey || event.metaKey
    let action: (() => void) | undefined
    if (command && key === 'f') action = actions.focusSearch
    else if (command && !typing && !event.shiftKey) {
      action = { n: actions.newDraft, d: actions.duplicate, a: actions.selectAll, z: actions.undo }[key]
    } else if (!command && !typing) {
      action = {
        n: actions.newDraft,
        '/': actions.focusSearch,
        delete: actions.remove,
        escape: actions.clear,
      }[key]
    }
    if (!action) return
    event.preventDefault()
    action()
  }

  onMounted(() => document.addEventListener('keydown', onKeydown))
  onBeforeUnmount(() => document.removeEventListener('keydown', onKeydown))
}
