import { onBeforeUnmount, onMounted } from 'vue'

/** Listens while the calling component is mounted: page-level shortcuts without leaks. */
export function useEventListener<K extends keyof WindowEventMap>(
  target: Window,
  type: K,
  listener: (event: WindowEventMap[K]) => void,
) {
  onMounted(() => target.addEventListener(type, listener))
  onBeforeUnmount(() => target.removeEventListener(type, listener))
}
