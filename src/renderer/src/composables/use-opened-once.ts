import { ref, watch, type Ref } from 'vue'

/**
 * Whether a dialog has been open at least once: a page mounts its dialogs from then on (`v-if`)
 * and keeps them, so what they hold (a format chosen, a mapping file loaded) stays between
 * openings, and a page that opens without them does not build them first (issue #37: the SKU
 * list's five dialogs were a good part of its start).
 */
export function useOpenedOnce(open: () => boolean): Readonly<Ref<boolean>> {
  const opened = ref(open())
  if (!opened.value) {
    const stop = watch(open, (now) => {
      if (!now) return
      opened.value = true
      stop()
    })
  }
  return opened
}
