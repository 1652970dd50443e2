import { computed, ref, shallowRef } from 'vue'
import { useProfilesStore } from '#renderer/stores/profiles.ts'
import { DEFAULT_REQUIRED_FIELDS } from '#shared/sync/send-gates.ts'
import { takesSamples } from '#shared/sync/destination.ts'
import { messageOf } from '#shared/error-message.ts'
import { ImportCancelled, type ImportClient } from './import-client.ts'
import type { DryRunGates, DryRunReport } from './import-protocol.ts'
import { sentDraftsChange } from './import-result.ts'
import type { ImportState } from './import-state.ts'
import type { ColumnMapping } from './use-column-mapping.ts'

/**
 * The dry run: the rows checked by the worker against the active profile's gates, nothing written,
 * and what importing them would take and change (with or without the rows that have errors). Apart
 * from the run, which reads its report to know the barcodes and drafts it meets.
 */
export function useDryRun(state: ImportState, client: ImportClient, columns: ColumnMapping) {
  const profiles = useProfilesStore()
  const { step, file, analysis, isJson } = state
  const report = shallowRef<DryRunReport>()
  const includeInvalid = ref(false)

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
      named: counts?.named ?? 0,
      namedLikeDrafts: counts?.namedLikeDrafts ?? 0,
      likeDraft: counts?.likeDraft,
      // A row without a barcode that names a draft you have is matched to it all the same.
      withoutBarcode: (barcodes.value?.without ?? 0) - (counts?.namedWithoutBarcode ?? 0),
    }
  })
  const toImport = computed(() =>
    report.value ? (includeInvalid.value ? report.value.rows : report.value.valid) : 0,
  )

  /**
   * The gates the rows are judged by: the active profile's, as the Sync page will judge their
   * drafts (the same defaults as the editor's when no profile is active).
   */
  async function gates(): Promise<DryRunGates> {
    if (!profiles.active) await profiles.load()
    const active = profiles.active
    const barcodeAt = columns.mapping.value.indexOf('barcode')
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

  async function check() {
    if (!file.value) return
    state.clearMessages()
    state.startProgress()
    step.value = 'checking'
    try {
      report.value = await client.dryRun(
        file.value,
        columns.sheetMapping(),
        await gates(),
        (read) => (state.progress.value = read),
        state.combinations.value,
      )
      step.value = 'report'
    } catch (error) {
      step.value = isJson.value ? 'choose' : 'mapping'
      if (error instanceof ImportCancelled) state.notice.value = 'Check cancelled.'
      else state.failure.value = messageOf(error)
    }
  }

  /** The last file's report and choices about its rows gone: they are not the next file's. */
  function forget() {
    report.value = undefined
    includeInvalid.value = false
  }

  return { report, includeInvalid, barcodes, taken, toImport, check, forget }
}

export type DryRun = ReturnType<typeof useDryRun>
