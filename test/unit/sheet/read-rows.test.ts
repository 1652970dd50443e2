import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkInput, type CheckedItem } from '#cli/check-input.ts'
import { csvLine } from '#shared/sheet/csv.ts'
import { applyMappingFile } from '#shared/sheet/mapping.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { kindOf, readSheetRows, type Stretch } from '#shared/sheet/read-rows.ts'
import type { RowResult } from '#shared/sheet/types.ts'
import { writeXlsx } from '#shared/sheet/xlsx.ts'

/**
 * The one pipeline of a file's rows (src/shared/sheet/read-rows.ts): the CLI reads a file into the
 * SKUs the pipeline hands the import's worker, row for row, whatever its format (the worker's side
 * is test/unit/renderer/read-*.test.ts); and what the pipeline hands on, stretch by stretch, is what
 * each side builds on (the CLI's shop ids by `first` and `cells`, the page's progress bar by
 * `progress`).
 */

const ROOT = join(import.meta.dirname, '../../..')
const REAL = 'test/fixtures/sheets/exports/real'
const bytesOf = (path: string) => readFileSync(join(ROOT, path))
const fileOf = (path: string) => new File([new Uint8Array(bytesOf(path))], path.split('/').at(-1)!)

/** The mapping the CLI applies without a mapping file, which the page's analysis starts from too. */
const automatic = (headers: string[]) =>
  applyMappingFile(headers, undefined, matchOptionsOf(productLayout(headers))).mapping

/**
 * A file read as the import's worker reads it (read-sheet.ts: the pipeline, its mapping handed
 * over whole by the page), here with the mapping the CLI applies without a mapping file.
 */
async function pageRows(path: string, combinations?: string): Promise<RowResult[]> {
  const file = fileOf(path)
  const format = await kindOf(file.name, file)
  if (format === 'json') throw new Error('a sheet only')
  const other = combinations === undefined ? undefined : fileOf(combinations)
  const results: RowResult[] = []
  await readSheetRows(
    {
      format,
      file: { name: file.name, input: file },
      ...(other && { combinations: { name: other.name, input: other } }),
    },
    { mapping: automatic, onStretch: (stretch) => void results.push(...stretch.results) },
  )
  return results
}

async function cliItems(path: string, combinations?: string): Promise<CheckedItem[]> {
  const items: CheckedItem[] = []
  await checkInput(path, ROOT, { ...(combinations && { combinations }) }, (item) => void items.push(item))
  return items
}

describe('the import’s worker and the CLI', () => {
  it.each<[string, string, string?]>([
    ['a WooCommerce export, read twice for its parents', `${REAL}/woocommerce-sample-products.csv`],
    ['a Shopify export', `${REAL}/shopify-lavie-cosmetics-products.csv`],
    ['a Merchant Center feed', `${REAL}/google-merchant-example-feed.rss.xml`],
    [
      'PrestaShop’s pair',
      `${REAL}/prestashop-9.1-products-import.csv`,
      `${REAL}/prestashop-9.1-combinations-import.csv`,
    ],
  ])('read %s into the same SKUs, row for row, with the same problems', async (_, path, combinations) => {
    const page = await pageRows(path, combinations)
    const cli = await cliItems(path, combinations)
    expect(page.length).toBeGreaterThan(3)
    expect(cli.map((item) => [item.row, item.payload])).toEqual(
      page.map((result) => [result.row, result.sku]),
    )
    expect(cli.map((item) => item.errors.map((problem) => problem.message))).toEqual(
      page.map((result) => result.errors.map((problem) => problem.message)),
    )
  })
})

describe('the pipeline’s stretches', () => {
  /** A CSV of `rows` rows, each barcode its row's number, long enough to stream in several stretches. */
  const longCsv = (rows: number) =>
    new Blob([
      csvLine(['Barcode', 'Product name', 'Brand', 'Description']),
      '\r\n',
      ...Array.from(
        { length: rows },
        (_, i) => `${csvLine([String(1_000_000 + i + 1), `Aviator ${i + 1}`, 'Rayo', 'x'.repeat(200)])}\r\n`,
      ),
    ])

  it('hand each SKU on beside the cells of its own row, and progress up to the whole file', async () => {
    const input = longCsv(3000)
    const stretches: Stretch[] = []
    const read = await readSheetRows(
      { format: 'csv', file: { name: 'long.csv', input } },
      { mapping: automatic, onStretch: (stretch) => void stretches.push(stretch) },
    )
    expect(stretches.length).toBeGreaterThan(1)
    for (const { cells, first, results } of stretches)
      for (const result of results) expect(cells[result.row - first]?.[0]).toBe(result.sku.barcode)
    expect(stretches.flatMap((stretch) => stretch.results).map((result) => result.row)).toEqual(
      Array.from({ length: 3000 }, (_, i) => i + 1),
    )
    const bytes = stretches.map((stretch) => stretch.progress.bytes)
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b))
    expect(read.progress).toEqual({ rows: 3000, bytes: input.size, total: input.size })
  })

  it('read a workbook a stretch of rows at a time, the same way', async () => {
    const rows = [['Barcode', 'Product name', 'Brand']]
    for (let i = 1; i <= 1200; i++) rows.push([String(2_000_000 + i), `Hoop ${i}`, 'Rayo'])
    const input = new Blob([new Uint8Array(await writeXlsx(rows))])
    const stretches: Stretch[] = []
    await readSheetRows(
      { format: 'xlsx', file: { name: 'hoops.xlsx', input } },
      { mapping: automatic, onStretch: (stretch) => void stretches.push(stretch) },
    )
    expect(stretches.map((stretch) => [stretch.first, stretch.cells.length])).toEqual([
      [1, 500],
      [501, 500],
      [1001, 200],
    ])
    for (const { cells, first, results } of stretches)
      for (const result of results) expect(cells[result.row - first]?.[0]).toBe(result.sku.barcode)
  })

  it('stop with the signal’s reason when the reader cancels', async () => {
    const stop = new AbortController()
    let stretches = 0
    const reading = readSheetRows(
      { format: 'csv', file: { name: 'long.csv', input: longCsv(3000) } },
      {
        mapping: automatic,
        onStretch: () => {
          stretches++
          stop.abort(new Error('Cancelled'))
        },
      },
      { signal: stop.signal },
    )
    await expect(reading).rejects.toThrow('Cancelled')
    expect(stretches).toBe(1)
  })
})
