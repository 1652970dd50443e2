import { computed, shallowRef } from 'vue'

/**
 * A yes-or-no question put to the person in a ConfirmDialog ("Stop the import?", "Leave without
 * saving?"), as a promise of the answer: `ask` opens it, `answer` closes it with what the person
 * (or the page, when the question no longer stands) said.
 */
export function useQuestion() {
  const pending = shallowRef<(answer: boolean) => void>()
  return {
    /** Whether the question is open: the dialog's `open`. */
    open: computed(() => pending.value !== undefined),
    ask: () =>
      new Promise<boolean>((resolve) => {
        pending.value = (answer) => {
          pending.value = undefined
          resolve(answer)
        }
      }),
    /** Closes the question with `answer`; nothing when none is open. */
    answer: (answer: boolean) => pending.value?.(answer),
  }
}
