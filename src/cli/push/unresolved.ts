import { writeFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { isRecord } from '#shared/is-record.ts'
import { toCsv } from '#shared/sheet/csv.ts'
import { writeXlsx } from '#shared/sheet/xlsx.ts'
import { textOf } from '#shared/text-of.ts'
import type { Journal } from './journal-outbox.ts'
import type { PushInput } from './push-input.ts'
import type { ReportEntry } from './push-report.ts'

/**
 * `push --unresolved PATH`: the SKUs of the input whose creation the journal leaves unknown or
 * failed (an update left so is sent again by the next push by itself), as a sheet a person
 * checks against the platform (the service cannot be asked). Written with the app's sheet writers,
 * so cells a spreadsheet would run as formulas are escaped and XLSX keeps barcodes as text. Its
 * barcode column is what `--platform-has` reads, so the rows found on the platform can be passed
 * back as they are.
 */

export type UnresolvedFormat = 'csv' | 'xlsx'

export function unresolvedFormat(path: string): UnresolvedFormat | undefined {
  const extension = extname(path).toLowerCase()
  return extension === '.csv' ? 'csv' : extension === '.xlsx' ? 'xlsx' : undefined
}

/** The rows: one an unknown or failed creation, in input order, with what the journal kept of its request. */
export function unresolvedSheet(
  input: PushInput,
  journal: Pick<Journal, 'record'>,
  entries: readonly ReportEntry[],
): { headers: string[]; rows: string[][] } {
  const sheet = input.rowOf(0) !== undefined
  const headers = [
    'index',
    ...(sheet ? ['row'] : []),
    'barcode',
    'product name',
    'state',
    'message',
    'request id',
    'time sent',
  ]
  const rows: string[][] = []
  for (const { index, state, action } of entries) {
    if ((state !== 'unknown' && state !== 'failed') || action !== 'create') continue
    const detail = { ...journal.record(input.keyOf(index))?.last, state }
    const payload = input.payloadOf(index)
    const field = (name: string) => (isRecord(payload) ? textOf(payload[name]) : '')
    rows.push([
      String(index),
      ...(sheet ? [String(input.rowOf(index) ?? '')] : []),
      field('barcode'),
      field('productName'),
      detail.state,
      detail.message ?? '',
      detail.requestId ?? '',
      detail.sentAt === undefined ? '' : new Date(detail.sentAt).toISOString(),
    ])
  }
  return { headers, rows }
}

/** Writes the sheet by the path's format; returns how many items it lists. */
export async function writeUnresolved(
  path: string,
  format: UnresolvedFormat,
  input: PushInput,
  journal: Pick<Journal, 'record'>,
  entries: readonly ReportEntry[],
): Promise<number> {
  const { headers, rows } = unresolvedSheet(input, journal, entries)
  const bytes =
    format === 'csv' ? toCsv(headers, rows) : await writeXlsx([headers, ...rows], { sheet: 'Unresolved' })
  await writeFile(path, bytes)
  return rows.length
}
