import { computed, nextTick, onBeforeUnmount, ref, shallowRef, watch } from 'vue'
import type { Sku } from '../../../../shared/schema/sku.ts'
import { validateSku } from '../../../../shared/validation/validate.ts'
import { skuDrafts } from '../../db/index.ts'
import type { SkuDraftRecord } from '../../db/records.ts'
import { plainCopy } from '../../ui/plain-copy.ts'

export type SaveState = 'loading' | 'missing' | 'saved' | 'pending' | 'saving' | 'failed'

/** How long typing may pause before the draft is written: short enough that a crash loses little. */
const AUTOSAVE_DELAY_MS = 400
/** How many saved versions undo can step back through. */
const UNDO_DEPTH = 50

/**
 * One SKU draft under edit: the payload as a reactive object, its validation as the user types,
 * autosave to IndexedDB (there is no save button to forget), and undo through the saved versions.
 */
export function useSkuEditor(id: string) {
  const record = shallowRef<SkuDraftRecord>()
  const payload = ref<Sku>({})
  const state = ref<SaveState>('loading')
  const saveError = ref('')
  const validation = computed(() => validateSku(payload.value))
  let timer: ReturnType<typeof setTimeout> | undefined
  let saving: Promise<void> = Promise.resolve()
  // Undo steps back through what was saved: each save keeps the version it replaces. A save that
  // an undo caused keeps nothing, or undoing twice would only flip between two versions.
  const history = shallowRef<Sku[]>([])
  let lastSaved: Sku = {}
  let undoing = false

  async function load() {
    const found = await skuDrafts.get(id)
    record.value = found
    if (!found) {
      state.value = 'missing'
      return
    }
    payload.value = structuredClone(found.payload)
    lastSaved = structuredClone(found.payload)
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
    if (!undoing) history.value = [...history.value, lastSaved].slice(-UNDO_DEPTH)
    undoing = false
    lastSaved = snapshot
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

  /** Puts back the version saved before the last change, and saves it at once. */
  async function undo() {
    // Pending edits are saved first, so they are what the undo takes back.
    await flush()
    const previous = history.value.at(-1)
    if (!previous) return
    history.value = history.value.slice(0, -1)
    undoing = true
    payload.value = structuredClone(previous)
    await nextTick()
    await flush()
  }

  const canUndo = computed(() => history.value.length > 0 || state.value === 'pending')

  // Set up here, synchronously, so Vue stops the watcher with the component.
  watch(payload, schedule, { deep: true })
  onBeforeUnmount(() => void flush())
  void load()

  return { record, payload, state, saveError, validation, flush, undo, canUndo }
}
