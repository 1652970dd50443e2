import type { Sku } from '#shared/schema/sku.ts'
import { CSV_LINE_END, CSV_START, csvLine } from '#shared/sheet/csv.ts'
import { numberColumns, SkuSheetBuilder } from '#shared/sheet/export.ts'
import { writeXlsx } from '#shared/sheet/xlsx.ts'
import { CliError } from './io.ts'
import { jsonAt } from './json-layout.ts'
import type { OutputFile } from './output-file.ts'
import { Spool } from './spool.ts'

/**
 * What `convert` writes, SKU by SKU as they are checked: the bulk request (JSON) straight to the
 * file; a sheet (CSV, XLSX) once every SKU is seen, since its columns (3D asset positions, extra
 * JSON columns) depend on all of them: meanwhile each SKU's cells wait in a spool. Headed by
 * contract paths: a sheet made here has no drafts behind it, and paths read back exactly. The
 * bytes are those of the app's whole-file writers (`bulkRequestJson`, `skusToCsv`, `skusToXlsx`).
 */
export interface SkuOutput {
  add(sku: Sku): void
  /** Writes what is left, once every SKU is added. */
  end(): Promise<void>
  close(): void
}

/**
 * The most SKUs written to an XLSX: write-excel-file builds the workbook whole in memory, so the
 * CLI's peak grows some 20 KB a full-column row (measured: 10,000 rows 385 MB, 15,000 rows 441 MB,
 * 20,000 rows 592 MB); 15,000 keeps it within 500 MB.
 */
export const MAX_XLSX_SKUS = 15_000

export function skuOutput(format: 'json' | 'csv' | 'xlsx', file: OutputFile, name: string): SkuOutput {
  return format === 'json' ? bulkRequest(file) : sheet(format, file, name)
}

function bulkRequest(file: OutputFile): SkuOutput {
  let count = 0
  return {
    add(sku) {
      file.write((count++ === 0 ? '{\n  "skus": [\n' : ',\n') + jsonAt(sku, 2))
    },
    async end() {
      file.write(count === 0 ? '{\n  "skus": []\n}\n' : '\n  ]\n}\n')
    },
    close() {},
  }
}

function sheet(format: 'csv' | 'xlsx', file: OutputFile, name: string): SkuOutput {
  const builder = new SkuSheetBuilder()
  const cells = new Spool()
  let count = 0
  const rows = function* (paths: string[]) {
    for (const line of cells.lines()) yield builder.row(JSON.parse(line) as (string | null)[], paths)
  }
  return {
    add(sku) {
      // Refused as soon as it is known, not after reading the rest of a large file.
      if (format === 'xlsx' && ++count > MAX_XLSX_SKUS) {
        throw new CliError(
          `Cannot write ${name}: an XLSX written here holds at most ${MAX_XLSX_SKUS.toLocaleString('en-US')} SKUs (a workbook is built whole in memory), and there are more. Write a .csv or .json file instead.`,
        )
      }
      cells.write(JSON.stringify(builder.add(sku)) + '\n')
    },
    async end() {
      const paths = builder.paths()
      if (format === 'csv') {
        file.write(CSV_START + csvLine(paths) + CSV_LINE_END)
        for (const row of rows(paths)) file.write(csvLine(row) + CSV_LINE_END)
      } else {
        file.writeBytes(await writeXlsx([paths, ...rows(paths)], { numberColumns: numberColumns(paths) }))
      }
    },
    close: () => cells.close(),
  }
}
