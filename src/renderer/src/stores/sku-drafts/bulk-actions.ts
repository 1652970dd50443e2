import type { ShallowRef } from 'vue'
import { bulkField } from '#shared/validation/bulk-fields.ts'
import type { Replacement } from '#shared/values/replace-text.ts'
import { messageOf } from '#shared/error-message.ts'
import { skuBulkEdits } from '../../db/index.ts'
import type { ReplacePreview, Skipped } from '../../db/sku-bulk-edits.ts'
import type { ExportChoices } from '../../db/export-drafts.ts'
import { download } from '../../adapters/download.ts'
import { drafts } from '../../words/counting.ts'
import { deletedText, duplicatedText, replacedText, setFieldText } from '../../words/bulk-results.ts'
import { runBulk, type BulkRunNeeds } from './bulk-progress.ts'
import { NOTHING, type Selection } from './selection.ts'

// The SKU drafts store's actions on many drafts at once: each runs with a progress bar, says what
// it did, and offers its undo. A part of its own: what they share is the selection and the bar.

/** The batch a result's snackbar may undo: none when the action changed nothing (it is not in the history). */
function undoable(result: { batch: string; count: number }): string | undefined {
  return result.count > 0 ? result.batch : undefined
}

/** A field's name as the bulk dialogs show it, or its path when it has none. */
function fieldTitle(path: string): string {
  return bulkField(path)?.title ?? path
}

/** What the bulk actions need of their store, beyond running one (`BulkRunNeeds`). */
export interface BulkActionNeeds extends BulkRunNeeds {
  selection: ShallowRef<Selection>
  /** The ids a selection stands for now. */
  resolve: (chosen: Selection) => Promise<string[]>
}

export function useSkuBulkActions(needs: BulkActionNeeds) {
  const { selection, resolve, tell } = needs

  async function setField(path: string, value: unknown, chosen = selection.value) {
    const ids = await resolve(chosen)
    const title = fieldTitle(path)
    const result = await runBulk(needs, `Setting ${title}`, ids, (report) =>
      skuBulkEdits.setField(ids, path, value, { onProgress: report }),
    )
    if (result) tell(setFieldText(title, value === undefined, result), 'info', undoable(result))
  }

  /** What a find-and-replace in `path` would change in `ids`: the dialog's preview. */
  function previewReplace(
    ids: readonly string[],
    path: string,
    replacement: Replacement,
  ): Promise<ReplacePreview> {
    return skuBulkEdits.previewReplace(ids, path, replacement)
  }

  /** What deleting `ids` would do: how many drafts go, and which stay (the question before it). */
  function previewDelete(ids: readonly string[]): Promise<{ count: number; skipped: Skipped }> {
    return skuBulkEdits.previewDelete(ids)
  }

  /** Replaces text in one field of `ids` (the selection, or the drafts matching), one undoable action. */
  async function replaceInField(ids: string[], path: string, replacement: Replacement) {
    const title = fieldTitle(path)
    const result = await runBulk(needs, `Replacing in ${title}`, ids, (report) =>
      skuBulkEdits.replaceInField(ids, path, replacement, { onProgress: report }),
    )
    if (result) tell(replacedText(title, result), 'info', undoable(result))
  }

  async function duplicate(ids?: string[]) {
    const chosen = ids ?? (await resolve(selection.value))
    const result = await runBulk(needs, 'Duplicating', chosen, (report) =>
      skuBulkEdits.duplicate(chosen, { onProgress: report }),
    )
    if (!result) return
    // The copies are what the user works on next (often a bulk edit of what tells them apart).
    selection.value = { kind: 'ids', ids: new Set(result.ids) }
    tell(duplicatedText(result), 'info', undoable(result))
  }

  async function remove(ids?: string | string[]) {
    const chosen = typeof ids === 'string' ? [ids] : (ids ?? (await resolve(selection.value)))
    const result = await runBulk(needs, 'Deleting', chosen, (report) =>
      skuBulkEdits.delete(chosen, { onProgress: report }),
    )
    if (!result) return
    selection.value = NOTHING
    tell(deletedText(result), 'info', undoable(result))
  }

  /** Downloads the selected drafts as the bulk request JSON or a spreadsheet, as chosen. */
  async function exportSelected(choices: ExportChoices) {
    const ids = await resolve(selection.value)
    try {
      // The sheet writers load with the first export, not at the window's start (issue #37).
      const { exportedDrafts, exportFile } = await import('../../db/export-drafts.ts')
      const file = await exportFile(await exportedDrafts(ids), choices)
      download(file)
      tell(`${drafts(ids.length)} exported to ${file.name}.`)
    } catch (error) {
      tell(`Export failed: ${messageOf(error)}`, 'error')
    }
  }

  return { setField, previewReplace, replaceInField, duplicate, previewDelete, remove, exportSelected }
}
