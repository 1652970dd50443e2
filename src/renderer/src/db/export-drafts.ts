import {
  bulkRequestJson,
  MEDIA_TYPES,
  skusToCsv,
  skusToXlsx,
  type ExportFormat,
} from '#shared/sheet/export.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { db } from './index.ts'

/** Reads in slices so a large selection never holds two copies of every record at once. */
const READ_SLICE = 2_000

/** The payloads of the given drafts, in the given order, exactly as they would be sent. */
export async function draftPayloads(ids: readonly string[]): Promise<Sku[]> {
  const payloads: Sku[] = []
  for (let start = 0; start < ids.length; start += READ_SLICE) {
    const records = await db.skuDrafts.bulkGet(ids.slice(start, start + READ_SLICE) as string[])
    for (const record of records) if (record) payloads.push(record.payload)
  }
  return payloads
}

/** The file for the drafts: the bulk request exactly as sync sends it, or a spreadsheet of it. */
export async function exportFile(skus: Sku[], format: ExportFormat, now = new Date()): Promise<File> {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:T]/g, '')
  const name = `catalog-desk-skus-${stamp}.${format}`
  const content =
    format === 'json' ? bulkRequestJson(skus) : format === 'csv' ? skusToCsv(skus) : await skusToXlsx(skus)
  return new File([content as BlobPart], name, { type: MEDIA_TYPES[format] })
}
