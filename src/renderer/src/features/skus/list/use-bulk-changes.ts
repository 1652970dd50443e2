import { computed, ref, shallowRef, type Ref } from 'vue'
import type { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'
import { useQuestion } from '#renderer/composables/use-question.ts'
import { identityQuestion, isIdentityField } from '#renderer/words/bulk-edits.ts'
import { drafts } from '#renderer/words/counting.ts'
import type { Replacement } from '#shared/values/replace-text.ts'
import type { Skipped } from '#renderer/db/sku-bulk-edits.ts'
import type { ListSelection } from './use-list-selection.ts'
import type { SkuWindow } from './use-sku-window.ts'

/**
 * Duplicating or deleting more drafts than this asks first, naming how many. Up to five is what a
 * person picks one by one (Ctrl+click) and sees on screen: asking then would only train a reflexive
 * "yes". More is a range or "all matching", where a slip costs dozens or thousands of drafts.
 */
const CONFIRM_ABOVE = 5

export interface BulkChangeContext {
  store: ReturnType<typeof useSkuDraftsStore>
  picker: ListSelection
  list: SkuWindow
  /** The row the keyboard is on. */
  active: Ref<number>
  /** The grid, to give the focus back to a row after a delete. */
  grid: Ref<{ focusRow(position: number): Promise<void> } | undefined>
  /** Whether a search or a filter narrows the list. */
  narrowed: Ref<boolean>
}

/** The row the keyboard is on when the list has focus, or undefined when drafts are selected. */
function keyboardTarget({ picker, list, active }: BulkChangeContext): string[] | undefined {
  if (picker.count.value > 0) return undefined
  const inGrid = document.activeElement?.closest('[role="grid"]')
  const id = inGrid ? list.rowAt(active.value)?.id : undefined
  return id ? [id] : []
}

/**
 * The list's duplicate and delete of many drafts at once, asked first above a few drafts (or on a
 * Space), where a slip would cost dozens or thousands.
 */
export function useBulkCopies(context: BulkChangeContext) {
  const { store, active, grid } = context

  /**
   * The open question before a bulk duplicate or delete: what it does and to how many drafts; for a
   * delete, those it would go through with, and the ones it keeps (sent, being sent) said apart.
   */
  const bulkQuestion = shallowRef<{ action: 'duplicate' | 'remove'; count: number; skipped?: Skipped }>()
  const { open: askingBulk, ask, answer: answerBulk } = useQuestion()
  /** The question's action in words, its title and its button: "Delete 42 drafts". */
  const bulkAction = computed(() =>
    bulkQuestion.value
      ? `${bulkQuestion.value.action === 'remove' ? 'Delete' : 'Duplicate'} ${drafts(bulkQuestion.value.count)}`
      : '',
  )

  /**
   * The drafts a duplicate or delete acts on, once confirmed when they are many (or when `ask`: a
   * Space on the bulk bar's button, see BulkBar.vue): undefined when there is nothing or the person
   * said no.
   */
  async function chosenFor(
    action: 'duplicate' | 'remove',
    askAnyway: boolean,
  ): Promise<string[] | undefined> {
    const ids = keyboardTarget(context) ?? (await store.selectedIds())
    if (ids.length === 0) return undefined
    if (!askAnyway && ids.length <= CONFIRM_ABOVE) return ids
    if (action === 'duplicate') bulkQuestion.value = { action, count: ids.length }
    else {
      const { count, skipped } = await store.previewDelete(ids)
      // None would go: nothing to ask; the delete's own word says why each stays.
      if (count === 0) return ids
      bulkQuestion.value = { action, count, skipped }
    }
    const yes = await ask()
    return yes ? ids : undefined
  }

  async function duplicate(askAnyway = false) {
    if (askingBulk.value) return
    const ids = await chosenFor('duplicate', askAnyway)
    if (ids) await store.duplicate(ids)
  }

  async function remove(askAnyway = false) {
    if (askingBulk.value) return
    const ids = await chosenFor('remove', askAnyway)
    if (!ids) return
    await store.remove(ids)
    await grid.value?.focusRow(active.value)
  }

  return { bulkQuestion, bulkAction, askingBulk, answerBulk, duplicate, remove }
}

/**
 * The list's edits of a field over many drafts: set a field (asked first for a barcode or product
 * name), and find and replace (over the selection, or else the drafts the search and filters match).
 */
export function useBulkEdits({ store, picker, narrowed }: BulkChangeContext) {
  const settingField = ref(false)

  function openSetField() {
    if (picker.count.value > 0) settingField.value = true
  }

  /** The question before a bulk set of a barcode or product name: its words, for how many drafts. */
  const identityAsked = shallowRef<ReturnType<typeof identityQuestion>>()
  const { open: askingIdentity, ask: askIdentity, answer: answerIdentity } = useQuestion()

  async function applyField(path: string, value: unknown) {
    settingField.value = false
    if (isIdentityField(path)) {
      // What tells products apart changes in bulk only once the person has read what is at risk.
      identityAsked.value = identityQuestion(path, picker.count.value, value === undefined)
      if (!(await askIdentity())) return
    }
    await store.setField(path, value)
  }

  /** Find and replace works over the selection, or over the drafts the search and filters match. */
  const replacing = shallowRef<{ ids: string[]; scope: string }>()

  async function openReplace() {
    const selected = picker.count.value
    const ids = selected > 0 ? await store.selectedIds() : await store.matchingIds()
    const scope =
      selected > 0
        ? `the ${drafts(ids.length)} selected`
        : narrowed.value
          ? `the ${drafts(ids.length)} matching the search and filters`
          : `all ${drafts(ids.length)} (select drafts or filter the list to narrow it)`
    replacing.value = { ids, scope }
  }

  function applyReplace(path: string, replacement: Replacement) {
    const ids = replacing.value?.ids ?? []
    replacing.value = undefined
    void store.replaceInField(ids, path, replacement)
  }

  return {
    settingField,
    openSetField,
    identityAsked,
    askingIdentity,
    answerIdentity,
    applyField,
    replacing,
    openReplace,
    applyReplace,
  }
}
