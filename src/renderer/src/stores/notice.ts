import { shallowRef } from 'vue'

/** A message for the snackbar; `undo` names what its Undo puts back, when it has one. */
export interface Notice {
  /** New for every message, so the same words twice still count as a new message. */
  id: number
  message: string
  tone: 'info' | 'error'
  undo?: string
}

/** A store's current notice, and how to say and dismiss one. */
export function useNotice() {
  const notice = shallowRef<Notice>()
  let lastId = 0
  return {
    notice,
    tell(message: string, tone: Notice['tone'] = 'info', undo?: string) {
      notice.value = { id: ++lastId, message, tone, undo }
    },
    dismiss() {
      notice.value = undefined
    },
  }
}
