import { computed, ref, shallowRef, watch } from 'vue'
import type { ContentReading } from '#shared/payload-fingerprint.ts'
import type { DuplicatePolicy } from '#renderer/db/sku-import-writes.ts'
import { useSkuImportStore } from '#renderer/stores/sku-import.ts'
import { messageOf } from '#shared/error-message.ts'
import { ImportCancelled, type ImportClient } from './import-client.ts'
import { ImportResultTally, type ImportResult } from './import-result.ts'
import type { ImportState } from './import-state.ts'
import { markImportEnded, markImportStarted } from './interrupted-import.ts'
import type { ColumnMapping } from './use-column-mapping.ts'
import type { DryRun } from './use-dry-run.ts'

/** SKUs written per transaction: the repository's bulk chunk, a fraction of a second each. */
const CHUNK_SIZE = 500

/**
 * The import itself, once the dry run has reported: the worker writes the drafts a chunk at a
 * time, and this notes the import (for a rollback after a crash), tallies what became of each row,
 * and rolls it all back when it is cancelled or fails, so drafts are then exactly as they were.
 */
export function useImportRun(
  state: ImportState,
  client: ImportClient,
  columns: ColumnMapping,
  dryRun: DryRun,
  onImported: (outcome: ImportResult) => void,
) {
  const imports = useSkuImportStore()
  const { step, file } = state
  const { duplicates, policy, forgetChoice } = duplicateChoice(dryRun)
  const outcome = shallowRef<ImportResult>()

  /** How rows compare with drafts for "unchanged": a sheet's cells cannot say what JSON can. */
  const reading = (): ContentReading => (state.isJson.value ? 'exact' : 'cells')

  /** The import under way, settled once it has ended: done, or rolled back. */
  let running: Promise<void> | undefined

  async function run() {
    if (running) return
    running = imports.whileRunning(importFile)
    try {
      await running
    } finally {
      running = undefined
    }
  }

  /**
   * Stops the import under way, if any, and settles once it has ended: rolled back (drafts as they
   * were), or done if it finished first.
   */
  async function stop(): Promise<void> {
    if (!running) return
    client.cancel()
    await running
  }

  async function importFile() {
    const report = dryRun.report.value
    if (!file.value || !report) return
    state.clearMessages()
    state.startProgress()
    step.value = 'importing'
    let batch: string | undefined
    const tally = new ImportResultTally(new Set(report.groups.flatMap((group) => group.rows)))
    try {
      // The worker looks up the drafts holding these when it begins: they may have changed since
      // the dry run.
      await client.run(
        file.value,
        columns.sheetMapping(),
        {
          includeInvalid: dryRun.includeInvalid.value,
          chunkSize: CHUNK_SIZE,
          duplicates: policy.value,
          reading: reading(),
          barcodes: dryRun.barcodes.value?.distinct ?? [],
          drafts: report.fingerprints.flatMap((row) => (row.draft ? [row.draft] : [])),
        },
        (begun) => {
          batch = begun
          markImportStarted(begun)
        },
        (chunk) => {
          tally.add(chunk)
          state.progress.value = chunk.progress
        },
        state.combinations.value,
      )
      markImportEnded()
      outcome.value = tally.result(batch!)
      step.value = 'done'
      onImported(outcome.value)
    } catch (error) {
      await rollBack(imports, state, batch, error)
      step.value = 'report'
    }
  }

  /** The last file's outcome and duplicate choice gone: they are not the next file's. */
  function forget() {
    outcome.value = undefined
    forgetChoice()
  }

  return { duplicates, outcome, run, stop, forget }
}

/**
 * What to do with drafts already there, as the person chose it, else as the file suggests: the
 * app's own export coming back names drafts you have, and what it brings is its changes (filled
 * barcodes, fixed names), which "Skip them" would drop. Until the person chooses, each check of
 * the rows starts on "Update existing" for such a file, on "Skip them" for any other; the import
 * can be undone.
 */
function duplicateChoice(dryRun: DryRun) {
  const policy = ref<DuplicatePolicy>('skip')
  let chosen = false
  const duplicates = computed<DuplicatePolicy>({
    get: () => policy.value,
    set: (value) => {
      chosen = true
      policy.value = value
    },
  })
  watch(dryRun.report, (report) => {
    if (report && !chosen) policy.value = report.taken.all.named > 0 ? 'update' : 'skip'
  })
  /** The next file's choice is its own. */
  function forgetChoice() {
    policy.value = 'skip'
    chosen = false
  }
  return { duplicates, policy, forgetChoice }
}

/** Undoes what a cancelled or failed import wrote, and says so. */
async function rollBack(
  imports: ReturnType<typeof useSkuImportStore>,
  state: ImportState,
  batch: string | undefined,
  error: unknown,
) {
  try {
    if (batch) await imports.abort(batch)
    markImportEnded()
    if (error instanceof ImportCancelled)
      state.notice.value = 'Import cancelled. Nothing was changed: the drafts are as they were.'
    else
      state.failure.value = `The import stopped and was rolled back, so nothing was changed: ${messageOf(error)}`
  } catch (rollback) {
    state.failure.value = `The import stopped and could not be rolled back: ${messageOf(rollback)}`
  }
}
