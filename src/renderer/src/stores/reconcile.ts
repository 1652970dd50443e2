import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { readBarcodeList, type BarcodeList } from '#shared/sheet/barcode-list.ts'
import { messageOf } from '#shared/error-message.ts'
import { download } from '../adapters/download.ts'
import { syncReconcile } from '../db/index.ts'
import { planReconcile, undecidedFile, type ReconcilePlan } from '../db/sync-reconcile.ts'
import { idsOutcome } from '../words/platform-ids.ts'
import { count, counted, drafts } from '../words/counting.ts'
import { useProfilesStore } from './profiles.ts'
import { useSyncStore } from './sync.ts'

/** What a list of barcodes would do, shown to the person before anything changes. */
export interface ReconcilePreview {
  /** The list's file name. */
  file: string
  /** Where the drafts were sent, and the name the person knows it by. */
  destination: string
  place: string
  /** How many drafts were undecided there when the list was read. */
  undecided: number
  /** Distinct barcodes on the list. */
  listed: number
  /** For a list with ids: the heading of their column, and how many barcodes have one. */
  ids?: { column: string; listed: number }
  plan: ReconcilePlan
}

/** What the undecided drafts not on the list become: sent again by a new run, or left for later. */
export type RestChoice = 'resend' | 'leave'

/**
 * Reconciliation without a read endpoint, on the Sync page (issue #15): the SKU drafts undecided
 * at the active profile's destination exported to check on the platform, and a list of barcodes the
 * platform has turned into decisions, shown first and confirmed once. A list with ids also gives
 * the SKUs created there their platform id (issue #34), which is what they are updated by. The
 * decisions are written by `SyncReconciler`; a new run of the drafts to send again is the sync
 * store's, like any run.
 */
export const useReconcileStore = defineStore('reconcile', () => {
  const profiles = useProfilesStore()
  const sync = useSyncStore()
  const preview = shallowRef<ReconcilePreview>()
  /** The long work under way (reading a list, writing the decisions, building a file), in words. */
  const working = ref('')
  /** While decisions are written: drafts recorded so far, of how many (the panel's progress bar). */
  const progress = shallowRef<{ done: number; total: number }>()
  const error = ref('')
  /** What the last confirmed list did, until the next action or a dismissal. */
  const outcome = ref('')

  /** Undecided SKU drafts at the active destination, as the pre-flight counts them on the index. */
  const undecided = computed(() => {
    const summary = sync.preflights.skus
    return { unknown: summary?.unknown ?? 0, failed: summary?.failed ?? 0 }
  })
  const total = computed(() => undecided.value.unknown + undecided.value.failed)
  /**
   * SKU drafts created at the active destination whose platform id is unknown, counted on the
   * `standing` index: they cannot be updated until a list gives them one. Counted again whenever
   * the sync store reads its pre-flights (after a run, a decision, a change of profile).
   */
  const withoutIds = ref(0)
  let counting = 0
  async function countWithoutIds() {
    const destination = profiles.active?.destination
    const asked = ++counting
    const found = destination === undefined ? 0 : await syncReconcile.withoutIds(destination).catch(() => 0)
    // A later count (another profile, a newer refresh) has the last word.
    if (asked === counting) withoutIds.value = found
  }
  watch(
    () => [sync.preflights, profiles.active?.destination],
    () => void countWithoutIds(),
    { immediate: true },
  )

  function begin(what: string) {
    working.value = what
    progress.value = undefined
    error.value = ''
    outcome.value = ''
  }

  /** Downloads the undecided drafts at the active destination as a sheet to check on the platform. */
  async function exportUndecided(format: 'csv' | 'xlsx') {
    const destination = profiles.active?.destination
    if (!destination || working.value) return
    begin('Preparing the file…')
    try {
      const found = await syncReconcile.undecided(destination)
      download(await undecidedFile(found, format))
    } catch (failure) {
      error.value = `The file could not be made: ${messageOf(failure)}`
    } finally {
      working.value = ''
    }
  }

  /**
   * Reads a list of barcodes the platform has (and ids, when it has a column of them) and works
   * out what it would do. Nothing is written: a file that cannot be read, or that lists a barcode
   * with two ids, says why, by name.
   */
  async function readList(file: File) {
    const active = profiles.active
    if (!active || working.value) return
    begin(`Reading ${file.name}…`)
    preview.value = undefined
    try {
      let list: BarcodeList
      try {
        list = await readBarcodeList(new Uint8Array(await file.arrayBuffer()))
      } catch (failure) {
        error.value = `“${file.name}” was refused: ${messageOf(failure)} Nothing was changed.`
        return
      }
      const { barcodes, ids } = list
      working.value = `Comparing ${counted(barcodes.length, 'barcode')} with the drafts sent to ${active.name}…`
      const found = await syncReconcile.undecided(active.destination)
      const created = ids ? await syncReconcile.created(active.destination, ids.byBarcode.keys()) : []
      const shown: ReconcilePreview = {
        file: file.name,
        destination: active.destination,
        place: active.name,
        undecided: found.length,
        listed: barcodes.length,
        plan: planReconcile(found, barcodes, ids && { byBarcode: ids.byBarcode, created }),
      }
      if (ids) shown.ids = { column: ids.column, listed: ids.byBarcode.size }
      preview.value = shown
    } catch (failure) {
      error.value = `“${file.name}” could not be compared: ${messageOf(failure)} Nothing was changed.`
    } finally {
      working.value = ''
    }
  }

  function dismiss() {
    preview.value = undefined
  }

  /**
   * The person's one confirmation: the listed drafts are marked created, the rest sent again by a
   * new run (or left undecided). Refused while a run is being sent (its outbox writes the same
   * standings), or when the active profile now leads elsewhere than where the list was read for.
   */
  async function confirm(rest: RestChoice) {
    const shown = preview.value
    if (!shown || working.value) return
    if (sync.sending || sync.busy) {
      error.value = 'A run is being sent: confirm once it has ended.'
      return
    }
    if (profiles.active?.destination !== shown.destination) {
      preview.value = undefined
      error.value = `The active profile no longer sends to ${shown.place}: read the list again. Nothing was changed.`
      return
    }
    const resend = rest === 'resend' ? shown.plan.rest : []
    const all = shown.plan.listed.length + resend.length + shown.plan.ids.length
    begin(`Recording: 0 of ${drafts(all)}…`)
    progress.value = { done: 0, total: all }
    preview.value = undefined
    try {
      const result = await syncReconcile.decide(shown.destination, {
        created: shown.plan.listed,
        resend,
        ids: shown.plan.ids,
        source: shown.file,
        onProgress: (done, of) => {
          working.value = `Recording: ${count(done)} of ${drafts(of)}…`
          progress.value = { done, total: of }
        },
      })
      progress.value = undefined
      const lines: string[] = []
      // A list that only gave ids marked nothing: it says what it did instead.
      if (shown.plan.listed.length > 0 || shown.plan.ids.length === 0)
        lines.push(`${drafts(result.created)} marked as created: on the platform's list ${shown.file}.`)
      const named = idsOutcome(result, shown.place)
      if (named) lines.push(named)
      if (result.movedOn > 0)
        lines.push(
          `${drafts(result.movedOn)} had been decided or taken by a run meanwhile and were left as they are.`,
        )
      await sync.refresh()
      const released = result.released.length
      const toSend = released - result.withErrors
      if (toSend > 0) {
        working.value = `Queuing ${drafts(toSend)} to send again…`
        // Exactly those drafts, in a run of their own to the same destination; the old items stay
        // in the history as they ended. The run takes those of them without errors.
        const runId = await sync.start('skus', { ids: result.released })
        lines.push(
          runId
            ? `${drafts(toSend)} not on the list ${toSend === 1 ? 'is' : 'are'} sent again by a new run to ${shown.place}.`
            : `${drafts(toSend)} not on the list went back to draft and ${toSend === 1 ? 'was' : 'were'} not sent (see the log): sync them from here when ready.`,
        )
      }
      if (result.withErrors > 0)
        lines.push(
          `${drafts(result.withErrors)} not on the list ${result.withErrors === 1 ? 'has' : 'have'} errors since ${result.withErrors === 1 ? 'it was' : 'they were'} edited: back to draft, ${result.withErrors === 1 ? 'it is' : 'they are'} sent once fixed.`,
        )
      outcome.value = lines.join(' ')
    } catch (failure) {
      error.value = `Recording the list failed: ${messageOf(failure)} What was recorded before stays; read the list again for the rest.`
      await sync.refresh().catch(() => {})
    } finally {
      working.value = ''
      progress.value = undefined
    }
  }

  function clearOutcome() {
    outcome.value = ''
  }

  return {
    undecided,
    total,
    withoutIds,
    preview,
    working,
    progress,
    error,
    outcome,
    exportUndecided,
    readList,
    dismiss,
    confirm,
    clearOutcome,
  }
})
