import { onBeforeUnmount } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import { ImportCancelled, ImportClient } from './import-client.ts'
import type { ImportResult } from './import-result.ts'
import { importState } from './import-state.ts'
import { loadSavedMapping } from '#renderer/stores/saved-mappings.ts'
import { useColumnMapping } from './use-column-mapping.ts'
import { useDryRun } from './use-dry-run.ts'
import { useImportRun } from './use-import-run.ts'

export type { Step } from './import-state.ts'

/**
 * The import flow: a file is analysed, mapped, checked in a dry run, then imported a chunk at a
 * time. The worker does the reading; each step is its own composable (the mapping,
 * use-column-mapping.ts; the dry run, use-dry-run.ts; the run and its rollback,
 * use-import-run.ts) over the state they share (import-state.ts), and this composes them: choosing
 * a file, starting over, and the one surface the page uses.
 */
export function useImport(onImported: (outcome: ImportResult) => void) {
  const client = new ImportClient()
  onBeforeUnmount(() => client.dispose())

  const state = importState()
  const { step, file, combinations, analysis, failure } = state
  const columns = useColumnMapping(state)
  const dryRun = useDryRun(state, client, columns)
  const importRun = useImportRun(state, client, columns, dryRun, onImported)

  function reset() {
    client.cancel()
    step.value = 'choose'
    file.value = combinations.value = analysis.value = undefined
    columns.start()
    dryRun.forget()
    importRun.forget()
    state.clearMessages()
  }

  /** A file, or PrestaShop's products and combinations files together (in either order). */
  async function choose(files: readonly File[]) {
    reset()
    if (files.length > 2) {
      failure.value = `${files.length} files were given: import one file at a time, or PrestaShop’s products and combinations files together.`
      return
    }
    file.value = files[0]
    combinations.value = files[1]
    step.value = 'reading'
    try {
      analysis.value = await client.analyse(files[0]!, loadSavedMapping(), files[1])
      if (analysis.value.pairSwapped) [file.value, combinations.value] = [files[1], files[0]]
      columns.start(analysis.value)
      if (state.isJson.value) await dryRun.check()
      else step.value = 'mapping'
    } catch (error) {
      if (error instanceof ImportCancelled) return
      step.value = 'choose'
      file.value = combinations.value = undefined
      failure.value = messageOf(error)
    }
  }

  return {
    step,
    file,
    fileNames: state.fileNames,
    analysis,
    mapping: columns.mapping,
    settings: columns.settings,
    readAsWritten: columns.readAsWritten,
    fromFile: columns.fromFile,
    report: dryRun.report,
    progress: state.progress,
    duplicates: importRun.duplicates,
    includeInvalid: dryRun.includeInvalid,
    outcome: importRun.outcome,
    failure,
    notice: state.notice,
    isJson: state.isJson,
    taken: dryRun.taken,
    toImport: dryRun.toImport,
    choose,
    setField: columns.setField,
    takeField: columns.takeField,
    saveMappingFile: columns.saveMappingFile,
    loadMappingFile: columns.loadMappingFile,
    save: columns.save,
    check: dryRun.check,
    run: importRun.run,
    stop: importRun.stop,
    cancel: () => client.cancel(),
    reset,
  }
}

/** The import flow as its page and the page's steps use it. */
export type ImportFlow = ReturnType<typeof useImport>
