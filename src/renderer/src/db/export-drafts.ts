import {
  bulkRequestJson,
  MEDIA_TYPES,
  skusToCsv,
  skusToXlsx,
  type ExportFormat,
  type HeaderStyle,
  type SheetData,
} from '#shared/sheet/export.ts'
import { DRAFT_COLUMN, PROBLEMS_COLUMN, syncStateColumn } from '#shared/sheet/app-columns.ts'
import { stateAt } from '#shared/sync/standing.ts'
import { validateSku } from '#shared/validation/validate.ts'
import { SYNC_STATE_WORDS } from '#renderer/words/sync-states.ts'
import { db } from './index.ts'
import type { SkuDraftRecord } from './records.ts'

/** Reads in slices so a large selection never holds two copies of every record at once. */
const READ_SLICE = 2_000

/** What the person chose to export, beside the drafts. */
export interface ExportChoices {
  format: ExportFormat
  /** How a spreadsheet's field columns are headed. */
  headers: HeaderStyle
  /** Destinations whose sync state gets a column (spreadsheets), named as the app names them. */
  syncStates: readonly { destination: string; name: string }[]
  /** A column with each draft's problems (spreadsheets). */
  problems: boolean
}

/** The given drafts, in the given order. */
export async function exportedDrafts(ids: readonly string[]): Promise<SkuDraftRecord[]> {
  const out: SkuDraftRecord[] = []
  for (let start = 0; start < ids.length; start += READ_SLICE) {
    const records = await db.skuDrafts.bulkGet(ids.slice(start, start + READ_SLICE) as string[])
    for (const record of records) if (record) out.push(record)
  }
  return out
}

/** "Error: Intensity must be a number…; Warning: Brand is missing": errors first, in the editor's words. */
export function problemsText(record: Pick<SkuDraftRecord, 'payload'>): string {
  const { errors, warnings } = validateSku(record.payload)
  return [
    ...errors.map((problem) => `Error: ${problem.message}`),
    ...warnings.map((problem) => `Warning: ${problem.message}`),
  ].join('; ')
}

/**
 * The app's own columns of a spreadsheet: the draft (always: with it the importer knows its own
 * export), then the sync states and the problems asked for. Never read back on import.
 */
function appColumns(records: readonly SkuDraftRecord[], choices: ExportChoices): SheetData {
  return {
    headers: [
      DRAFT_COLUMN,
      ...choices.syncStates.map((place) => syncStateColumn(place.name)),
      ...(choices.problems ? [PROBLEMS_COLUMN] : []),
    ],
    rows: records.map((record) => [
      record.id,
      ...choices.syncStates.map((place) => SYNC_STATE_WORDS[stateAt(record.sync, place.destination)]),
      ...(choices.problems ? [problemsText(record)] : []),
    ]),
  }
}

/** The file for the drafts: the bulk request exactly as sync sends it, or a spreadsheet of it. */
export async function exportFile(
  records: readonly SkuDraftRecord[],
  choices: ExportChoices,
  now = new Date(),
): Promise<File> {
  const { format } = choices
  const stamp = now.toISOString().slice(0, 16).replace(/[-:T]/g, '')
  const name = `catalog-desk-skus-${stamp}.${format}`
  const skus = records.map((record) => record.payload)
  const sheet = { headers: choices.headers, extra: appColumns(records, choices) }
  const content =
    format === 'json'
      ? bulkRequestJson(skus)
      : format === 'csv'
        ? skusToCsv(skus, sheet)
        : await skusToXlsx(skus, sheet)
  return new File([content as BlobPart], name, { type: MEDIA_TYPES[format] })
}
