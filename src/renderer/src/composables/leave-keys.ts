import { useRouter, type Router } from 'vue-router'
import { typingIn } from './keyboard.ts'
import { useEventListener } from './use-event-listener.ts'

/**
 * Something open that Escape closes first (and that a page change would leave hanging): a modal
 * dialog, a popover, an open menu or suggestion list.
 */
const OPEN_LAYER =
  'dialog[open], :popover-open, [aria-haspopup][aria-expanded="true"], [role="combobox"][aria-expanded="true"]'
/** Controls that use Escape themselves: a search box empties on it, a combobox or menu closes. */
const USES_ESCAPE =
  'input[type="search"], [role="combobox"], [role="menu"], [role="menubar"], [role="listbox"], [role="dialog"], dialog'

const onMac = /Mac/.test(navigator.userAgent)

function somethingOpen(): boolean {
  return document.querySelector(OPEN_LAYER) !== null
}

/**
 * A plain Escape nothing else on the page has a use for: no dialog, menu, popover or suggestion
 * list open, and focus in no control that uses Escape itself. (A datalist's suggestions and a
 * select's options are drawn by Chromium, which takes the Escape that closes them: the page never
 * sees it.)
 */
export function escapeIsFree(event: KeyboardEvent): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return false
  if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return false
  if (event.target instanceof Element && event.target.closest(USES_ESCAPE)) return false
  return !somethingOpen()
}

/** Alt+← and Alt+→, the browser's Back and Forward: -1, 1, or 0 for any other key. */
function historyStep(event: KeyboardEvent): -1 | 0 | 1 {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return 0
  return event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0
}

/**
 * Alt+← goes back and Alt+→ forward, on every page, as in a browser (Electron's window has no
 * such keys of its own). Within the app's own history only: the first page a window opens on has
 * nothing before it. Not while a dialog or menu is open, and not while typing on a Mac, where
 * Option+← moves the cursor by a word. Installed once, by the layout.
 */
export function useHistoryKeys(): void {
  const router = useRouter()
  useEventListener(window, 'keydown', (event) => {
    const step = historyStep(event)
    if (step === 0 || event.defaultPrevented || somethingOpen()) return
    if (onMac && typingIn(event.target)) return
    event.preventDefault()
    const { back, forward } = router.options.history.state
    if (step < 0 && back) router.back()
    else if (step > 0 && forward) router.forward()
  })
}

/**
 * Back to `list` (an editor's list): by going back when that is the page before, so the list is
 * the one the person left (its place kept) and Back does not return to the editor; else by
 * opening it.
 */
export function leaveTo(router: Router, list: string): Promise<unknown> {
  if (router.options.history.state.back === list) {
    router.back()
    return Promise.resolve()
  }
  return router.push(list)
}

/**
 * Escape leaves an editor for its list while the calling component is mounted, when the key is
 * free (`escapeIsFree`). The editor's own leave guard writes any pending edit first.
 */
export function useEscapeTo(list: string): void {
  const router = useRouter()
  useEventListener(window, 'keydown', (event) => {
    // A held key leaves once: its repeats would go back past the list while the edit is saved.
    if (!escapeIsFree(event) || event.repeat) return
    event.preventDefault()
    void leaveTo(router, list)
  })
}
