import { computed, onBeforeUnmount, ref, shallowRef } from 'vue'
import {
  applyMappingFile,
  DEFAULT_SETTINGS,
  mappingFileOf,
  parseMappingFile,
  type MappingSettings,
  type SheetMapping,
} from '#shared/sheet/mapping.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { isOwnExport } from '#shared/sheet/app-columns.ts'
import { download } from '#renderer/adapters/download.ts'
import { mappingFileName } from './reading-words.ts'
import { markImportEnded, markImportStarted } from './interrupted-import.ts'
import type { FieldPath } from '#shared/sheet/types.ts'
import type { ContentReading } from '#shared/payload-fingerprint.ts'
import type { DuplicatePolicy } from '#renderer/db/sku-import-writes.ts'
import { useSkuImportStore } from '#renderer/stores/sku-import.ts'
import { useProfilesStore } from '#renderer/stores/profiles.ts'
import { DEFAULT_REQUIRED_FIELDS } from '#shared/sync/send-gates.ts'
import { takesSamples } from '#shared/sync/destination.ts'
import { ImportCancelled, ImportClient } from './import-client.ts'
import type { Analysis, DryRunGates, DryRunReport, ReadProgress } from './import-protocol.ts'
import { ImportResultTally, sentDraftsChange, type ImportResult } from './import-result.ts'
import { loadSavedMapping, saveMapping } from './saved-mappings.ts'
import { messageOf } from '#shared/error-message.ts'

/** The import's screens, in order. */
export type Step = 'choose' | 'reading' | 'mapping' | 'checking' | 'report' | 'importing' | 'done'

/** SKUs written per transaction: the repository's bulk chunk, a fraction of a second each. */
const CHUNK_SIZE = 500

const noProgress = (): ReadProgress => ({ rows: 0, bytes: 0, total: 0 })

/**
 * The import flow: a file is analysed, mapped, checked in a dry run, then imported a chunk at a
 * time. The worker does the reading; this writes what it hands over, and rolls it all back when
 * the import is cancelled or fails, so drafts are then exactly as they were.
 */
export function useImport(onImported: (outcome: ImportResult) => void) {
  const imports = useSkuImportStore()
  const profiles = useProfilesStore()
  const client = new ImportClient()
  onBeforeUnmount(() => client.dispose())

  const step = ref<Step>('choose')
  const file = shallowRef<File>()
  /** PrestaShop's combinations file, read with `file` (its products file) as one sheet. */
  const combinations = shallowRef<File>()
  /** The file's name, or both names for PrestaShop's pair. */
  const fileNames = computed(() =>
    combinations.value ? `${file.value?.name} with ${combinations.value.name}` : (file.value?.name ?? ''),
  )
  /** Bytes the import reads: both files of a pair. */
  const bytes = () => (file.value?.size ?? 0) + (combinations.value?.size ?? 0)
  const analysis = shallowRef<Analysis>()
  const mapping = ref<(FieldPath | null)[]>([])
  /** Fixed values, defaults, decimals and options: the mapping beyond its columns. */
  const settings = ref<MappingSettings>(structuredClone(DEFAULT_SETTINGS))
  const report = shallowRef<DryRunReport>()
  const progress = shallowRef<ReadProgress>(noProgress())
  const duplicates = ref<DuplicatePolicy>('skip')
  const includeInvalid = ref(false)
  const outcome = shallowRef<ImportResult>()
  /** Why the last step did not go through (shown as an alert). */
  const failure = ref('')
  /** What just happened, said politely ("Mapping saved", "Import cancelled"). */
  const notice = ref('')

  /** A JSON file of SKUs, which needs no mapping (a JSON product list is mapped as a sheet is). */
  const isJson = computed(() => analysis.value?.documentKind !== undefined)
  /**
   * Why the file's rows are read as written, without the new-SKU defaults (the file's own
   * settings say so): it is Catalog Desk's export (its draft column), or every column it fills is
   * named by its contract path, as a file written from drafts is. Undefined for any other file:
   * a template filled in, a shop's sheet.
   */
  const readAsWritten = computed<'export' | 'paths' | undefined>(() => {
    const read = analysis.value
    if (read?.settings?.fillDefaults !== false) return undefined
    return isOwnExport(read.headers) ? 'export' : 'paths'
  })
  /** The mapping file applied last, and the columns it set that the person has not changed since. */
  const fromFile = shallowRef<{ name: string; columns: ReadonlySet<number> }>()
  const barcodes = computed(() =>
    includeInvalid.value ? report.value?.barcodes.all : report.value?.barcodes.valid,
  )
  const taken = computed(() => {
    const counts = includeInvalid.value ? report.value?.taken.all : report.value?.taken.valid
    return {
      existing: counts?.existing ?? 0,
      unchanged: counts?.unchanged ?? 0,
      inRun: counts?.inRun ?? 0,
      /** What updating does where drafts were created, a sentence a destination. */
      changedAt: (counts?.changedAt ?? []).map(({ destination, n }) =>
        sentDraftsChange(n, profiles.placeName(destination), 'will'),
      ),
      repeated: barcodes.value?.repeated ?? 0,
    }
  })
  const toImport = computed(() =>
    report.value ? (includeInvalid.value ? report.value.rows : report.value.valid) : 0,
  )

  /** How rows compare with drafts for "unchanged": a sheet's cells cannot say what JSON can. */
  const reading = (): ContentReading => (isJson.value ? 'exact' : 'cells')

  function reset() {
    client.cancel()
    step.value = 'choose'
    file.value = combinations.value = analysis.value = report.value = outcome.value = undefined
    mapping.value = []
    settings.value = structuredClone(DEFAULT_SETTINGS)
    fromFile.value = undefined
    // Choices about the last file's rows are not the next file's.
    includeInvalid.value = false
    duplicates.value = 'skip'
    failure.value = notice.value = ''
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
      mapping.value = analysis.value.matches.map((match) => match.path)
      settings.value = structuredClone(analysis.value.settings ?? DEFAULT_SETTINGS)
      if (isJson.value) await check()
      else step.value = 'mapping'
    } catch (error) {
      if (error instanceof ImportCancelled) return
      step.value = 'choose'
      file.value = combinations.value = undefined
      failure.value = messageOf(error)
    }
  }

  function setField(column: number, path: FieldPath | null) {
    mapping.value = mapping.value.map((current, i) => (i === column ? path : current))
    forgetFromFile([column])
  }

  /**
   * The column fills `path` at the person's word ("Use as barcode", "Use this column instead"); a
   * column that filled it before is dropped. Returns the columns dropped.
   */
  function takeField(column: number, path: FieldPath): number[] {
    const dropped = mapping.value.flatMap((current, i) => (i !== column && current === path ? [i] : []))
    mapping.value = mapping.value.map((current, i) =>
      i === column ? path : dropped.includes(i) ? null : current,
    )
    forgetFromFile([column, ...dropped])
    return dropped
  }

  function forgetFromFile(columns: number[]) {
    const loaded = fromFile.value
    if (!loaded || !columns.some((column) => loaded.columns.has(column))) return
    fromFile.value = { ...loaded, columns: new Set([...loaded.columns].filter((c) => !columns.includes(c))) }
  }

  /** Downloads the mapping as a mapping file, for this file's next export or for someone else. */
  function saveMappingFile() {
    if (!analysis.value || !file.value) return
    const content = mappingFileOf(analysis.value.headers, sheetMapping())
    download(
      new File([`${JSON.stringify(content, null, 2)}\n`], mappingFileName(file.value.name), {
        type: 'application/json',
      }),
    )
  }

  /**
   * Applies a mapping file: its columns by header (headers it does not name matched as usual) and
   * its settings. A file that cannot be used changes nothing and says why.
   */
  async function loadMappingFile(chosen: File) {
    const headers = analysis.value?.headers
    if (!headers) return
    failure.value = notice.value = ''
    try {
      const parsed = parseMappingFile(await chosen.text())
      const { mapping: applied } = applyMappingFile(headers, parsed, matchOptionsOf(productLayout(headers)))
      const { columns, ...rest } = applied
      mapping.value = columns
      settings.value = rest
      const named = new Set(Object.keys(parsed.columns))
      fromFile.value = {
        name: chosen.name,
        columns: new Set(headers.flatMap((header, i) => (named.has(header) ? [i] : []))),
      }
      const unnamed = headers.filter((header) => header.trim() && !named.has(header)).length
      notice.value =
        `Mapping file “${chosen.name}” applied.` +
        (unnamed
          ? ` It does not name ${unnamed === 1 ? 'one column' : `${unnamed} columns`}: matched as usual.`
          : '')
    } catch (error) {
      failure.value = `“${chosen.name}” cannot be used as a mapping file: ${messageOf(error)}`
    }
  }

  /** The mapping as the worker reads it: plain JSON data, copied (a Vue proxy, even nested, cannot be posted). */
  function sheetMapping(): SheetMapping {
    return JSON.parse(JSON.stringify({ ...settings.value, columns: mapping.value })) as SheetMapping
  }

  /**
   * The gates the rows are judged by: the active profile's, as the Sync page will judge their
   * drafts (the same defaults as the editor's when no profile is active).
   */
  async function gates(): Promise<DryRunGates> {
    if (!profiles.active) await profiles.load()
    const active = profiles.active
    const barcodeAt = mapping.value.indexOf('barcode')
    return {
      required: [...(active?.requiredFields ?? DEFAULT_REQUIRED_FIELDS)],
      requiredBy: active?.name ?? 'the active profile',
      holdBadCheckDigits: active?.holdBadCheckDigits ?? false,
      takesSamples: takesSamples(active?.destination ?? ''),
      // A JSON file's problems are named by their path; a sheet's by the column's header.
      barcodeColumn: isJson.value
        ? 'barcode'
        : barcodeAt < 0
          ? ''
          : analysis.value?.headers[barcodeAt]?.trim() || `Column ${barcodeAt + 1}`,
    }
  }

  function save() {
    const headers = analysis.value?.headers ?? []
    saveMapping(headers.map((header, i) => ({ header, path: mapping.value[i] ?? null })))
    notice.value = 'Mapping saved: files with these headers will be mapped this way next time.'
  }

  async function check() {
    if (!file.value) return
    failure.value = notice.value = ''
    progress.value = { ...noProgress(), total: bytes() }
    step.value = 'checking'
    try {
      report.value = await client.dryRun(
        file.value,
        sheetMapping(),
        await gates(),
        (read) => (progress.value = read),
        combinations.value,
      )
      step.value = 'report'
    } catch (error) {
      step.value = isJson.value ? 'choose' : 'mapping'
      if (error instanceof ImportCancelled) notice.value = 'Check cancelled.'
      else failure.value = messageOf(error)
    }
  }

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
    if (!file.value || !report.value) return
    failure.value = notice.value = ''
    progress.value = { ...noProgress(), total: bytes() }
    step.value = 'importing'
    let batch: string | undefined
    const tally = new ImportResultTally(new Set(report.value.groups.flatMap((group) => group.rows)))
    try {
      // The worker looks up the drafts holding these when it begins: they may have changed since
      // the dry run.
      await client.run(
        file.value,
        sheetMapping(),
        {
          includeInvalid: includeInvalid.value,
          chunkSize: CHUNK_SIZE,
          duplicates: duplicates.value,
          reading: reading(),
          barcodes: barcodes.value?.distinct ?? [],
          drafts: report.value.fingerprints.flatMap((row) => (row.draft ? [row.draft] : [])),
        },
        (begun) => {
          batch = begun
          markImportStarted(begun)
        },
        (chunk) => {
          tally.add(chunk)
          progress.value = chunk.progress
        },
        combinations.value,
      )
      markImportEnded()
      outcome.value = tally.result(batch!)
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
    fileNames,
    analysis,
    mapping,
    settings,
    readAsWritten,
    fromFile,
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
    takeField,
    saveMappingFile,
    loadMappingFile,
    save,
    check,
    run,
    stop,
    cancel,
    reset,
  }
}
