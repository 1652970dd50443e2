import { computed, onBeforeUnmount, ref, shallowRef } from 'vue'
import { mappingOf } from '#shared/sheet/columns.ts'
import { markImportEnded, markImportStarted } from './interrupted-import.ts'
import type { FieldPath } from '#shared/sheet/types.ts'
import type { DraftByBarcode, DuplicatePolicy, ImportChunkResult } from '#renderer/db/sku-import-writes.ts'
import { useSkuImportStore } from '#renderer/stores/sku-import.ts'
import { ImportCancelled, ImportClient } from './import-client.ts'
import type { Analysis, DryRunReport, ReadProgress } from './import-protocol.ts'
import { loadSavedMapping, saveMapping } from './saved-mappings.ts'
import { messageOf } from '#shared/error-message.ts'

/** The import's screens, in order. */
export type Step = 'choose' | 'reading' | 'mapping' | 'checking' | 'report' | 'importing' | 'done'

/** SKUs written per transaction: the repository's bulk chunk, a fraction of a second each. */
const CHUNK_SIZE = 500

const noProgress = (): ReadProgress => ({ rows: 0, bytes: 0, total: 0 })

export interface ImportOutcome extends ImportChunkResult {
  batch: string
}

/**
 * The import flow: a file is analysed, mapped, checked in a dry run, then imported a chunk at a
 * time. The worker does the reading; this writes what it hands over, and rolls it all back when
 * the import is cancelled or fails, so drafts are then exactly as they were.
 */
export function useImport(onImported: (outcome: ImportOutcome) => void) {
  const imports = useSkuImportStore()
  const client = new ImportClient()
  onBeforeUnmount(() => client.dispose())

  const step = ref<Step>('choose')
  const file = shallowRef<File>()
  const analysis = shallowRef<Analysis>()
  const mapping = ref<(FieldPath | null)[]>([])
  const report = shallowRef<DryRunReport>()
  const existing = shallowRef<Map<string, DraftByBarcode>>(new Map())
  const progress = shallowRef<ReadProgress>(noProgress())
  const duplicates = ref<DuplicatePolicy>('skip')
  const includeInvalid = ref(false)
  const outcome = shallowRef<ImportOutcome>()
  /** Why the last step did not go through (shown as an alert). */
  const failure = ref('')
  /** What just happened, said politely ("Mapping saved", "Import cancelled"). */
  const notice = ref('')

  const isJson = computed(() => analysis.value?.format === 'json')
  const barcodes = computed(() =>
    includeInvalid.value ? report.value?.barcodes.all : report.value?.barcodes.valid,
  )
  const taken = computed(() => {
    const found = (barcodes.value?.distinct ?? []).map((barcode) => existing.value.get(barcode))
    return {
      existing: found.filter(Boolean).length,
      sent: found.filter((draft) => draft?.sent).length,
      repeated: barcodes.value?.repeated ?? 0,
    }
  })
  const toImport = computed(() =>
    report.value ? (includeInvalid.value ? report.value.rows : report.value.valid) : 0,
  )

  function reset() {
    client.cancel()
    step.value = 'choose'
    file.value = analysis.value = report.value = outcome.value = undefined
    mapping.value = []
    failure.value = notice.value = ''
  }

  async function choose(chosen: File) {
    reset()
    file.value = chosen
    step.value = 'reading'
    try {
      analysis.value = await client.analyse(chosen, loadSavedMapping())
      mapping.value = mappingOf(analysis.value.matches)
      if (isJson.value) await check()
      else step.value = 'mapping'
    } catch (error) {
      if (error instanceof ImportCancelled) return
      step.value = 'choose'
      file.value = undefined
      failure.value = messageOf(error)
    }
  }

  function setField(column: number, path: FieldPath | null) {
    mapping.value = mapping.value.map((current, i) => (i === column ? path : current))
  }

  function save() {
    const headers = analysis.value?.headers ?? []
    saveMapping(headers.map((header, i) => ({ header, path: mapping.value[i] ?? null })))
    notice.value = 'Mapping saved: files with these headers will be mapped this way next time.'
  }

  async function check() {
    if (!file.value) return
    failure.value = notice.value = ''
    progress.value = { ...noProgress(), total: file.value.size }
    step.value = 'checking'
    try {
      const checked = await client.dryRun(file.value, [...mapping.value], (read) => (progress.value = read))
      existing.value = await imports.draftsByBarcode(checked.barcodes.all.distinct)
      report.value = checked
      step.value = 'report'
    } catch (error) {
      step.value = isJson.value ? 'choose' : 'mapping'
      if (error instanceof ImportCancelled) notice.value = 'Check cancelled.'
      else failure.value = messageOf(error)
    }
  }

  async function run() {
    if (!file.value || !report.value) return
    failure.value = notice.value = ''
    progress.value = { ...noProgress(), total: file.value.size }
    step.value = 'importing'
    const policy = duplicates.value
    let batch: string | undefined
    const totals: ImportChunkResult = { created: 0, updated: 0, skippedDuplicates: 0, skippedNotDraft: 0 }
    try {
      // Read again now: drafts may have changed since the dry run.
      const existingByBarcode = await imports.draftsByBarcode(barcodes.value?.distinct ?? [])
      batch = await imports.begin()
      markImportStarted(batch)
      const session = batch
      await client.run(
        file.value,
        [...mapping.value],
        { includeInvalid: includeInvalid.value, chunkSize: CHUNK_SIZE },
        async (skus, columns, read) => {
          const result = await imports.writeChunk(session, skus, {
            duplicates: policy,
            existingByBarcode,
            columns,
          })
          for (const key of Object.keys(totals) as Array<keyof ImportChunkResult>) totals[key] += result[key]
          progress.value = read
        },
      )
      imports.finish(batch)
      markImportEnded()
      outcome.value = { batch, ...totals }
      step.value = 'done'
      onImported(outcome.value)
    } catch (error) {
      const cancelled = error instanceof ImportCancelled
      try {
        if (batch) await imports.abort(batch)
        markImportEnded()
        if (cancelled) notice.value = 'Import cancelled. Nothing was changed: the drafts are as they were.'
        else
          failure.value = `The import stopped and was rolled back, so nothing was changed: ${messageOf(error)}`
      } catch (rollback) {
        failure.value = `The import stopped and could not be rolled back: ${messageOf(rollback)}`
      }
      step.value = 'report'
    }
  }

  function cancel() {
    client.cancel()
  }

  return {
    step,
    file,
    analysis,
    mapping,
    report,
    progress,
    duplicates,
    includeInvalid,
    outcome,
    failure,
    notice,
    isJson,
    taken,
    toImport,
    choose,
    setField,
    save,
    check,
    run,
    cancel,
    reset,
  }
}
