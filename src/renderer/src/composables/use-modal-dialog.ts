import { nextTick, onBeforeUnmount, ref, watch } from 'vue'

export interface ModalDialogOptions {
  /** Whether the parent has the dialog open (its component's `open` prop). */
  open: () => boolean
  /** The element that takes focus once the dialog shows. */
  focus: (dialog: HTMLDialogElement) => HTMLElement | null | undefined
  /** Called just before it shows: a form's fields back to how they start. */
  reset?: () => void
  /** The browser closed it (Escape) while the parent still has it open: the dialog's Cancel. */
  dismiss: () => void
}

/**
 * A native modal `<dialog>` driven by its parent's `open`: shown with `showModal()` (the browser
 * keeps focus inside and closes it on Escape) with focus where `focus` says, closed when `open`
 * turns false, and however it closed, focus goes back to the control that opened it, if that is
 * still on the page. Bind `dialog` as the element's ref; the composable listens to it.
 */
export function useModalDialog({ open, focus, reset, dismiss }: ModalDialogOptions) {
  const dialog = ref<HTMLDialogElement>()
  /** Where focus was when the dialog opened. */
  let opener: HTMLElement | undefined

  // Escape fires `cancel` at once, closes the dialog and gives focus back, but its `close` event
  // comes a task later: a key pressed in between (Enter on the button that opened it) would find
  // the question still open. So the parent hears the Cancel now.
  function onCancel() {
    if (open()) dismiss()
  }

  function onClose() {
    // A late close from before the dialog was opened again: it concerns the old question only.
    if (dialog.value?.open) return
    if (opener?.isConnected) opener.focus()
    opener = undefined
    if (open()) dismiss()
  }

  watch(dialog, (element, previous) => {
    previous?.removeEventListener('cancel', onCancel)
    previous?.removeEventListener('close', onClose)
    element?.addEventListener('cancel', onCancel)
    element?.addEventListener('close', onClose)
  })

  watch(
    open,
    async (isOpen) => {
      await nextTick()
      const element = dialog.value
      if (!element) return
      if (isOpen && !element.open) {
        opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined
        reset?.()
        element.showModal()
        await nextTick()
        focus(element)?.focus()
      } else if (!isOpen && element.open) {
        element.close()
      }
    },
    { immediate: true },
  )

  onBeforeUnmount(() => dialog.value?.close())

  return { dialog }
}
