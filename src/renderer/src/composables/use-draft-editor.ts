import { computed, nextTick, onBeforeUnmount, ref, shallowRef, watch, type Ref } from 'vue'
import type { ValidationResult } from '#shared/validation/problem.ts'
import { plainCopy } from './plain-copy.ts'
import { holdDraft } from '../adapters/draft-lock.ts'
import { messageOf } from '#shared/error-message.ts'
import type { EditBase } from '#shared/team/draft-exchange.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { keepWhenThePageGoes } from '../adapters/unsaved-edits.ts'

export type SaveState = 'loading' | 'missing' | 'saved' | 'pending' | 'saving' | 'failed'

/** How long typing may pause before the draft is written: short enough that a crash loses little. */
export const AUTOSAVE_DELAY_MS = 400
/** How many saved versions undo can step back through. */
const UNDO_DEPTH = 50

export interface DraftStore<P, R extends { payload: P }> {
  get(id: string): Promise<R | undefined>
  /** `based`: the version the edit was made on (`EditBase`). */
  savePayload(id: string, payload: P, based?: EditBase): Promise<R>
}

/**
 * One draft under edit, whatever it holds (a SKU, an app): its payload as a reactive object,
 * validation as the user types, autosave (there is no save button to forget; an edit the page goes
 * before saving is saved at the next start: unsaved-edits.ts), and undo through the saved versions.
 */
export function useDraftEditor<
  P extends Record<string, unknown>,
  R extends { payload: P; team?: { rev: string } },
>(kind: SyncKind, id: string, store: DraftStore<P, R>, validate: (payload: P) => ValidationResult) {
  const record = shallowRef<R>()
  const payload = ref({}) as Ref<P>
  const state = ref<SaveState>('loading')
  const saveError = ref('')
  const validation = computed(() => validate(payload.value))
  let timer: ReturnType<typeof setTimeout> | undefined
  let saving: Promise<void> = Promise.resolve()
  const versions = savedVersions(payload, () => flush())
  // The version the editor shows, as its edits' base: its fields as loaded or last saved, and its
  // revision in the team workspace then (an arrival may replace the stored draft meanwhile).
  let shown: { payload: P; rev: string | undefined } = { payload: {} as P, rev: undefined }
  // Set while another desk's version replaces what the editor shows: taking it is not an edit.
  let following = false

  /** Shows a stored version; the caller keeps the watcher from taking it for an edit. */
  async function show(found: R) {
    payload.value = structuredClone(found.payload)
    shown = { payload: structuredClone(found.payload), rev: found.team?.rev }
    // Let the watcher see the payload before the caller says it may schedule saves again.
    await nextTick()
  }

  async function load() {
    const found = await store.get(id)
    record.value = found
    if (found) await show(found)
    state.value = found ? 'saved' : 'missing'
  }

  function schedule() {
    if (following || state.value === 'loading' || state.value === 'missing') return
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
    versions.keep(shown.payload)
    const based: EditBase = shown
    // Its revision stays: this desk's own share of it changes no field (`EditBase`).
    shown = { payload: snapshot, rev: shown.rev }
    saving = saving.then(async () => {
      try {
        record.value = await store.savePayload(id, snapshot, based)
        if (state.value === 'saving') state.value = 'saved'
        saveError.value = ''
        unsaved.saved()
      } catch (error) {
        state.value = 'failed'
        saveError.value = messageOf(error)
      }
    })
    return saving
  }

  /**
   * The drafts changed in the database (the team workspace's arrivals, a conflict settled): the
   * record is read again, and with nothing waiting to be saved, another desk's version replaces
   * what the editor shows. With an edit pending, the edit stays: saved on the version it was made
   * on (`EditBase`).
   */
  async function follow() {
    const found = await store.get(id)
    // A draft gone (another desk's deletion, or a deletion kept when settling a conflict) is
    // replaced too: with nothing waiting to be saved, the editor reads it again and says it is gone.
    const replaced = !found || JSON.stringify(found.payload) !== JSON.stringify(shown.payload)
    if (replaced && state.value === 'saved') {
      // In place: the form stays (with the conflict panel as a person left it, and the focus).
      record.value = found
      if (found) {
        following = true
        await show(found).finally(() => (following = false))
      } else state.value = 'missing'
      return
    }
    if (found) record.value = found
    // The version shown is the stored one (its revision changes as this desk's edit is shared);
    // with an edit pending on another, the edit keeps the version it was made on.
    if (found && !replaced) shown.rev = found.team?.rev
  }

  const canUndo = computed(() => versions.history.value.length > 0 || state.value === 'pending')

  // The page going (a reload, the window closed) with an edit not yet written: kept for the next
  // start to save.
  const unsaved = keepWhenThePageGoes(kind, id, () =>
    state.value === 'pending' || state.value === 'saving'
      ? { payload: plainCopy(payload.value), based: shown }
      : undefined,
  )

  // Held while open: another window's startup sweep of untouched new drafts leaves this one alone.
  const release = holdDraft(id)
  // Set up here, synchronously, so Vue stops the watcher with the component.
  watch(payload, schedule, { deep: true })
  onBeforeUnmount(unsaved.stop)
  onBeforeUnmount(() => void flush().finally(release))
  void load()

  return { record, payload, state, saveError, validation, flush, undo: versions.undo, canUndo, follow }
}

/**
 * Undo through the saved versions of an editor's `payload`: each save keeps the version it
 * replaces (`keep`); a save that an undo caused keeps nothing, or undoing twice would only flip
 * between two versions.
 */
function savedVersions<P>(payload: Ref<P>, flush: () => Promise<void>) {
  const history = shallowRef<P[]>([])
  let undoing = false
  return {
    history,
    keep(replaced: P) {
      if (!undoing) history.value = [...history.value, replaced].slice(-UNDO_DEPTH)
      undoing = false
    },
    /** Puts back the version saved before the last change, and saves it at once. */
    async undo() {
      // Pending edits are saved first, so they are what the undo takes back.
      await flush()
      const previous = history.value.at(-1)
      if (!previous) return
      history.value = history.value.slice(0, -1)
      undoing = true
      payload.value = structuredClone(previous)
      await nextTick()
      await flush()
    },
  }
}

/** The save state in words, for the editor's status line. */
export function saveStateText(state: SaveState, error: string): string {
  return {
    loading: 'Loading…',
    missing: '',
    pending: 'Unsaved changes…',
    saving: 'Saving…',
    saved: 'All changes saved',
    failed: `Not saved: ${error}`,
  }[state]
}
