import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, toRaw, watch } from 'vue'
import type { Sku } from '#shared/schema/sku.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import type { HoldReason } from '#shared/sync/send-gates.ts'
import { bulkField } from '#shared/validation/bulk-fields.ts'
import { db, skuBulkEdits, skuDrafts, skuList, skuUndo } from '../db/index.ts'
import { saveDraftPayload } from '../db/stored-kinds.ts'
import type { SkuDraftRecord } from '../db/records.ts'
import type { ReplacePreview, SetFieldResult, Skipped } from '../db/sku-bulk-edits.ts'
import type { Replacement } from '#shared/values/replace-text.ts'
import type { FilterOptions } from '../db/sku-list-reader.ts'
import type { ListView } from '../db/sku-list-views.ts'
import { MAX_ACTIONS, UndoRefusal, type UndoneActions, type UndoResult } from '../db/sku-undo-log.ts'
import {
  defaultDirection,
  defaultListQuery,
  narrows,
  sameMatches,
  sameView,
  type FilterKey,
  type ListFilters,
  type ListQuery,
  type SortKey,
} from '../db/sku-list-query.ts'
import { NOTHING, withoutDrafts, type Selection } from './selection.ts'
import { count, drafts } from '../words/counting.ts'
import { namedActions, undoneActionsText, type NamedAction } from '../words/undo.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { download } from '../adapters/download.ts'
import { useNotice } from './notice.ts'
import { useProfilesStore } from './profiles.ts'
import type { ExportChoices } from '../db/export-drafts.ts'
import { messageOf } from '#shared/error-message.ts'

/** A bulk action under way: what it does and how far it is. */
export interface Progress {
  label: string
  done: number
  total: number
  /** Whether it can be stopped (the bar offers Cancel), and whether it was asked to. */
  stop?: 'offered' | 'stopping'
}

/** Below this many drafts a bulk action is over before a progress bar could be read. */
const SHOW_PROGRESS_FROM = 500

function plainQuery(query: ListQuery): ListQuery {
  const raw = toRaw(query)
  return { ...raw, filters: { ...toRaw(raw.filters) } }
}

/** The batch a result's snackbar may undo: none when the action changed nothing (it is not in the history). */
function undoable(result: { batch: string; count: number }): string | undefined {
  return result.count > 0 ? result.batch : undefined
}

function skippedText({ inRun, sent, missing }: Skipped): string {
  const parts: string[] = []
  if (inRun) parts.push(`${drafts(inRun)} skipped: they are being sent.`)
  if (sent) parts.push(`${drafts(sent)} skipped: sent drafts are kept, so they are never created twice.`)
  if (missing) parts.push(`${drafts(missing)} no longer existed.`)
  return parts.length ? ` ${parts.join(' ')}` : ''
}

/** Edited drafts sent before: where they stand now, and what the Sync page does with them. */
function changedSinceSentText({ changedSinceSent: n }: SetFieldResult): string {
  if (!n) return ''
  return ` ${drafts(n)} sent before ${n === 1 ? 'is' : 'are'} now changed since sent: the Sync page offers ${n === 1 ? 'it' : 'them'} as ${n === 1 ? 'an update' : 'updates'}.`
}

/**
 * The SKU list's state: what it shows (search, filters, order), what is selected, and the bulk
 * actions on the selection. Rows are not kept here: the list reads them a window at a time.
 */
export const useSkuDraftsStore = defineStore('skuDrafts', () => {
  const query = ref<ListQuery>(defaultListQuery())
  /** Bumped after every write, so the list reads again what it shows. */
  const revision = ref(0)
  const selection = shallowRef<Selection>(NOTHING)
  const { notice, tell, dismiss } = useNotice()
  const progress = shallowRef<Progress>()
  /**
   * Where the list was (active row and scroll), so coming back from the editor lands there. Not
   * reactive: it is written on every scroll frame and read once, when the list opens.
   */
  const place = markRaw({
    active: 0,
    scrollTop: 0,
    /** Set when the editor goes back to the list: the list gives the active row focus again. */
    refocus: false,
  })
  /** The undo history as last read, newest first, each action with its words (`loadHistory`). */
  const history = shallowRef<NamedAction[]>([])

  // The Sync and Held back filters read where the active profile leads and what it requires:
  // they follow the profile.
  const profiles = useProfilesStore()
  watch(
    () => profiles.active,
    (active) => {
      if (!active) return
      const { destination, requiredFields: required, holdBadCheckDigits } = active
      const current = query.value
      if (
        destination !== current.destination ||
        required.join() !== current.required.join() ||
        holdBadCheckDigits !== current.holdBadCheckDigits
      )
        query.value = { ...current, destination, required, holdBadCheckDigits }
    },
    { immediate: true },
  )
  void profiles.load().catch(() => {})

  /**
   * The query as the list's rows follow it: a new object only when what the list shows changes,
   * not when the active profile arriving at the start changes a destination no filter reads (the
   * list read its first rows twice, issue #37).
   */
  const shownQuery = computed<ListQuery>((previous) =>
    previous && sameView(previous, query.value) ? previous : query.value,
  )

  // A selection is of the drafts the user could see: another search or filter starts afresh.
  watch(query, (next, previous) => {
    if (!sameMatches(next, previous)) selection.value = NOTHING
  })

  function changed() {
    revision.value++
  }

  // `narrows` stays in db/sku-list-query.ts beside the indexes it names; the list asks this getter.
  /** Whether the list shows some of the drafts (a search or a filter), rather than all of them. */
  const narrowed = computed(() => narrows(query.value))

  /**
   * Opens a view of the drafts a query matches, with the count of all drafts when the query
   * narrows them (otherwise the view's own count is that).
   */
  async function openView(wanted: ListQuery): Promise<{ view: ListView; all: number | undefined }> {
    const [view, all] = await Promise.all([
      skuList.open(wanted),
      narrows(wanted) ? skuList.countAll() : undefined,
    ])
    return { view, all }
  }

  /** What the list's filters offer: the values the drafts hold. */
  function filterOptions(): Promise<FilterOptions> {
    return skuList.filterOptions()
  }

  /** One draft as stored. With `savePayload`, what the editor reads and autosaves through. */
  function get(id: string): Promise<SkuDraftRecord | undefined> {
    return skuDrafts.get(id)
  }

  function savePayload(id: string, payload: Sku): Promise<SkuDraftRecord> {
    return saveDraftPayload(db, 'skus', id, payload)
  }

  function search(text: string) {
    query.value = { ...query.value, search: text }
  }

  function filter(key: FilterKey, value: string | undefined) {
    const filters: ListFilters = { ...query.value.filters, [key]: value }
    if (value === undefined) delete filters[key]
    query.value = { ...query.value, filters }
  }

  function clearFilters() {
    query.value = { ...query.value, search: '', filters: {} }
  }

  /** Shows the drafts synced on `from` and never sent to the active profile's destination (a promotion). */
  function showPromotable(from: string) {
    query.value = { ...query.value, search: '', filters: { syncState: 'draft', syncedAt: from } }
  }

  /** Shows the drafts a run to the active profile's destination would hold back, for `reason` or any. */
  function showHeldBack(reason: HoldReason | 'any') {
    query.value = { ...query.value, search: '', filters: { heldBack: reason } }
  }

  /** Shows the drafts whose last asset check found errors (from the Sync page's warning). */
  function showAssetErrors() {
    query.value = { ...query.value, search: '', filters: { assets: 'error' } }
  }

  /** Sorts by a column; the column already sorted by turns around. */
  function sortBy(sort: SortKey) {
    const current = query.value
    const direction =
      current.sort === sort ? (current.direction === 'asc' ? 'desc' : 'asc') : defaultDirection(sort)
    query.value = { ...current, sort, direction }
  }

  /** The ids a selection stands for now. */
  async function resolve(chosen: Selection): Promise<string[]> {
    if (chosen.kind === 'ids') return [...chosen.ids]
    const ids = await (await skuList.open(chosen.query)).allIds()
    return chosen.except.size ? ids.filter((id) => !chosen.except.has(id)) : ids
  }

  /** The selected drafts' ids, for an action of another page (a sync of the selection). */
  function selectedIds(): Promise<string[]> {
    return resolve(selection.value)
  }

  /** Every draft the search and filters match, in the list's order (a sync of the filter). */
  async function matchingIds(): Promise<string[]> {
    const view = await skuList.open(plainQuery(query.value))
    return view.idsBetween(0, view.total - 1)
  }

  /** Runs one bulk action with progress, reporting a failure as "nothing changed". */
  async function run<T>(
    label: string,
    ids: string[],
    action: (report: (done: number) => void) => Promise<T>,
  ) {
    const total = ids.length
    if (total >= SHOW_PROGRESS_FROM) progress.value = { label, done: 0, total }
    try {
      return await action((done) => {
        if (progress.value) progress.value = { label, done, total }
      })
    } catch (error) {
      tell(`Nothing was changed: ${messageOf(error)}`, 'error')
      return undefined
    } finally {
      progress.value = undefined
      changed()
    }
  }

  async function create(): Promise<string> {
    const record = await skuDrafts.create(newSkuPayload(), systemClock.now())
    changed()
    return record.id
  }

  /**
   * Called as the editor is left: a draft made by `create` that was never changed (not even
   * typed into and cleared, which is a save) is deleted, with nothing to undo; any other is kept.
   * Known by its mark (`isUntouchedNew`), so one made before a reload of its editor is too.
   */
  async function discardIfUntouched(id: string): Promise<void> {
    if (await skuDrafts.discardUntouchedNew(id).catch(() => false)) changed()
  }

  async function setField(path: string, value: unknown, chosen = selection.value) {
    const ids = await resolve(chosen)
    const title = bulkField(path)?.title ?? path
    const result = await run(`Setting ${title}`, ids, (report) =>
      skuBulkEdits.setField(ids, path, value, { onProgress: report }),
    )
    if (!result) return
    const verb = value === undefined ? `${title} removed from` : `${title} set on`
    const unchanged = result.unchanged ? ` ${count(result.unchanged)} already had it.` : ''
    tell(
      `${verb} ${drafts(result.count)}.${unchanged}${changedSinceSentText(result)}${skippedText(result.skipped)}`,
      'info',
      undoable(result),
    )
  }

  /** What a find-and-replace in `path` would change in `ids`: the dialog's preview. */
  function previewReplace(
    ids: readonly string[],
    path: string,
    replacement: Replacement,
  ): Promise<ReplacePreview> {
    return skuBulkEdits.previewReplace(ids, path, replacement)
  }

  /** Replaces text in one field of `ids` (the selection, or the drafts matching), one undoable action. */
  async function replaceInField(ids: string[], path: string, replacement: Replacement) {
    const title = bulkField(path)?.title ?? path
    const result = await run(`Replacing in ${title}`, ids, (report) =>
      skuBulkEdits.replaceInField(ids, path, replacement, { onProgress: report }),
    )
    if (!result) return
    tell(
      `${title} changed on ${drafts(result.count)}.${changedSinceSentText(result)}${skippedText(result.skipped)}`,
      'info',
      undoable(result),
    )
  }

  async function duplicate(ids?: string[]) {
    const chosen = ids ?? (await resolve(selection.value))
    const result = await run('Duplicating', chosen, (report) =>
      skuBulkEdits.duplicate(chosen, { onProgress: report }),
    )
    if (!result) return
    // The copies are what the user works on next (often a bulk edit of what tells them apart).
    selection.value = { kind: 'ids', ids: new Set(result.ids) }
    tell(
      `${drafts(result.count)} duplicated; the ${result.count === 1 ? 'copy is' : 'copies are'} selected. ` +
        `Copies keep the barcode until you edit it.${skippedText(result.skipped)}`,
      'info',
      undoable(result),
    )
  }

  /**
   * Copies one draft as a new draft, for the banner of a sent one: the copy's id. Unlike
   * `duplicate`, no notice and no selection; a failure is the caller's to show.
   */
  async function duplicateAsDraft(id: string): Promise<string | undefined> {
    const { ids } = await skuBulkEdits.duplicate([id])
    return ids[0]
  }

  /** Downloads the selected drafts as the bulk request JSON or a spreadsheet, as chosen. */
  async function exportSelected(choices: ExportChoices) {
    const ids = await resolve(selection.value)
    try {
      // The sheet writers load with the first export, not at the window's start (issue #37).
      const { exportedDrafts, exportFile } = await import('../db/export-drafts.ts')
      const file = await exportFile(await exportedDrafts(ids), choices)
      download(file)
      tell(`${drafts(ids.length)} exported to ${file.name}.`)
    } catch (error) {
      tell(`Export failed: ${messageOf(error)}`, 'error')
    }
  }

  async function remove(ids?: string | string[]) {
    const chosen = typeof ids === 'string' ? [ids] : (ids ?? (await resolve(selection.value)))
    const result = await run('Deleting', chosen, (report) =>
      skuBulkEdits.delete(chosen, { onProgress: report }),
    )
    if (!result) return
    selection.value = NOTHING
    tell(`${drafts(result.count)} deleted.${skippedText(result.skipped)}`, 'info', undoable(result))
  }

  /** Reads the undo history again (the list's History dialog shows it). */
  async function loadHistory(): Promise<NamedAction[]> {
    history.value = namedActions(await skuUndo.history())
    return history.value
  }

  /**
   * Runs an undo of one or more actions with progress, then says what it did (or why it could
   * not) and reads the list and the history again.
   */
  async function undoing(
    work: (options: {
      onProgress: (done: number, total: number) => void
    }) => Promise<UndoneActions | undefined>,
  ) {
    dismiss()
    try {
      const undone = await work({
        onProgress: (done, total) => {
          if (total >= SHOW_PROGRESS_FROM) progress.value = { label: 'Undoing', done, total }
        },
      })
      if (!undone) tell('Nothing to undo.')
      else {
        // Drafts the undo removed (a duplicate's copies) are no longer there to act on.
        selection.value = withoutDrafts(selection.value, undone.removedIds)
        tell(undoneActionsText(undone.actions, undone.result))
      }
    } catch (error) {
      tell(error instanceof UndoRefusal ? error.message : `Could not undo: ${messageOf(error)}`, 'error')
    } finally {
      progress.value = undefined
      changed()
      await loadHistory().catch(() => undefined)
    }
  }

  /**
   * Undoes the newest action still in the undo history (Ctrl+Z), whether or not its snackbar is
   * still up: the history is in the database, across restarts. Again, and it walks back through the
   * older ones. Says so when there is nothing to undo.
   */
  function undo(): Promise<void> {
    return undoing((options) => skuUndo.undoLatest(options))
  }

  /** Undoes every action newer than `batch`, then `batch` (the history's "Undo back to here"). */
  function undoThrough(batch: string): Promise<void> {
    return undoing((options) => skuUndo.undoThrough(batch, options))
  }

  /**
   * The snackbar's Undo: its action, when that is still the newest (Ctrl+Z's). Never an older one
   * from under a newer action, and never a newer one than the snackbar named.
   */
  async function undoNotice(): Promise<void> {
    const batch = notice.value?.undo
    if (!batch) return
    if (batch === (await skuUndo.latestBatch().catch(() => undefined))) return undoThrough(batch)
    tell('That action can no longer be undone on its own: newer ones came since. See History.', 'error')
  }

  /**
   * Undoes a whole import from the import page, which tells the outcome itself: the list reads
   * again, and its notice offering the same undo goes. Only while it is the newest action: undoing
   * it from under newer ones is the history's, which says which ones go with it.
   */
  async function undoImport(batch: string): Promise<UndoResult> {
    if ((await skuUndo.latestBatch()) !== batch)
      throw new UndoRefusal('other actions came since. Undo them first from History in the SKU list.')
    const { result, removedIds } = await skuUndo.undoThrough(batch)
    selection.value = withoutDrafts(selection.value, removedIds)
    changed()
    dismiss()
    return result
  }

  return {
    query,
    shownQuery,
    showPromotable,
    showHeldBack,
    showAssetErrors,
    selectedIds,
    matchingIds,
    narrowed,
    revision,
    selection,
    notice,
    progress,
    place,
    plainQuery: () => plainQuery(query.value),
    openView,
    filterOptions,
    get,
    savePayload,
    exportSelected,
    search,
    filter,
    clearFilters,
    sortBy,
    resolve,
    create,
    discardIfUntouched,
    setField,
    previewReplace,
    replaceInField,
    duplicate,
    duplicateAsDraft,
    remove,
    undo,
    undoThrough,
    undoNotice,
    undoImport,
    history,
    /** How many actions the undo history keeps at most. */
    historyLimit: MAX_ACTIONS,
    loadHistory,
    dismiss,
    tell,
    /** Makes the list read again what it shows: after a write of another store (asset checks). */
    changed,
  }
})
