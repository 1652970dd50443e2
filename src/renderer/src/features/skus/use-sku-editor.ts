import { computed, nextTick, onBeforeUnmount, ref, shallowRef, watch } from 'vue'
import type { Sku } from '../../../../shared/schema/sku.ts'
import { validateSku } from '../../../../shared/validation/validate.ts'
import { skuDrafts } from '../../db/index.ts'
import type { SkuDraftRecord } from '../../db/records.ts'
import { plainCopy } from '../../ui/plain-copy.ts'

export type SaveState = 'loading' | 'missing' | 'saved' | 'pending' | 'saving' | 'failed'

/** How long typing may pause before the draft is written: short enough that a crash loses little. */
const AUTOSAVE_DELAY_MS = 400

/**
 * One SKU draft under edit: the payload as a reactive object, its validation as the user types,
 * and autosave to IndexedDB (there is no save button to forget).
 */
export function useSkuEditor(id: string) {
  const record = shallowRef<SkuDraftRecord>()
  const payload = ref<Sku>({})
  const state = ref<SaveState>('loading')
  const saveError = ref('')
  const validation = computed(() => validateSku(payload.value))
  let timer: ReturnType<typeof setTimeout> | undefined
  let saving: Promise<void> = Promise.resolve()

  async function load() {
    const found = await skuDrafts.get(id)
    record.value = found
    if (!found) {
      state.value = 'missing'
      return
    }
    payload.value = structuredClone(found.payload)
    // Let the watcher see the loaded payload while still 'loading', so loading is not an edit.
    await nextTick()
    state.value = 'saved'
  }

  function schedule() {
    if (state.value === 'loading' || state.value === 'missing') return
    state.value = 'pending'
    clearTimeout(timer)
    timer = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS)
  }

  /** Writes now whatever is pending; callers may await it before leaving the page. */
  function flush(): Promise<void> {
    clearTimeout(timer)
    if (state.value !== 'pending') return saving
    state.value = 'saving'
    // A plain copy: IndexedDB cannot store Vue's proxies, and the stored draft must not change
    // under the editor's feet.
    const snapshot = plainCopy(payload.value)
    saving = saving.then(async () => {
      try {
        record.value = await skuDrafts.savePayload(id, snapshot)
        if (state.value === 'saving') state.value = 'saved'
        saveError.value = ''
      } catch (error) {
        state.value = 'failed'
        saveError.value = error instanceof Error ? error.message : String(error)
      }
    })
    return saving
  }

  // Set up here, synchronously, so Vue stops the watcher with the component.
  watch(payload, schedule, { deep: true })
  onBeforeUnmount(() => void flush())
  void load()

  return { record, payload, state, saveError, validation, flush }
}
