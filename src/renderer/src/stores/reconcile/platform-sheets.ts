import { readBarcodeList, type BarcodeList } from '#shared/sheet/barcode-list.ts'
import { messageOf } from '#shared/error-message.ts'
import type { ProfileView } from '#shared/profile.ts'
import { download } from '../../adapters/download.ts'
import { syncReconcile } from '../../db/index.ts'
import { planReconcile, undecidedFile } from '../../db/sync-reconcile.ts'
import { counted } from '../../words/counting.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { ReconcilePreview, useReconcileWork } from './work-state.ts'

/**
 * The two sheets exchanged with the platform: the undecided drafts exported to check there, and
 * the platform's list of barcodes (with ids, when it has a column of them) read back into a
 * preview of what it would do. Neither changes a draft.
 */
export function usePlatformSheets(
  profiles: ReturnType<typeof useProfilesStore>,
  work: ReturnType<typeof useReconcileWork>,
) {
  const { preview, working, error, begin } = work

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
      working.value = `Comparing ${counted(list.barcodes.length, 'barcode')} with the drafts sent to ${active.name}…`
      preview.value = await compare(file.name, list, active)
    } catch (failure) {
      error.value = `“${file.name}” could not be compared: ${messageOf(failure)} Nothing was changed.`
    } finally {
      working.value = ''
    }
  }

  return { exportUndecided, readList }
}

/** What the list read from `file` would do with the drafts undecided at `active`'s destination. */
async function compare(
  file: string,
  { barcodes, ids }: BarcodeList,
  active: ProfileView,
): Promise<ReconcilePreview> {
  const found = await syncReconcile.undecided(active.destination)
  const created = ids ? await syncReconcile.created(active.destination, ids.byBarcode.keys()) : []
  const shown: ReconcilePreview = {
    file,
    destination: active.destination,
    place: active.name,
    undecided: found.length,
    listed: barcodes.length,
    plan: planReconcile(found, barcodes, ids && { byBarcode: ids.byBarcode, created }),
  }
  if (ids) shown.ids = { column: ids.column, listed: ids.byBarcode.size }
  return shown
}
