import type { ParsedSheet } from '#shared/sheet/csv.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/json-depth.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import type { RowNumbering } from '#shared/sheet/places.ts'
import { isBlankRow, isHelpRow } from '#shared/sheet/help-row.ts'
import { jsonHeaders, productListOf, type ProductList } from '#shared/sheet/json-table.ts'
import type { SheetMapping } from '#shared/sheet/mapping.ts'
import type { ProductCounts } from '#shared/sheet/products.ts'
import {
  readProductListRows,
  readSheetRows,
  ROWS_AT_A_TIME,
  streamSheet,
  type SheetSource,
} from '#shared/sheet/read-rows.ts'
import { documentToResults, type DocumentResults } from '#shared/sheet/rows.ts'
import type { RowResult } from '#shared/sheet/types.ts'
import { UnreadableFile } from './unreadable-file.ts'
import { SAMPLE_ROWS, type ReadProgress, type SheetFormat } from './import-protocol.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * Reading a file's rows in the worker, whatever its format, by the pipeline the CLI reads them
 * with (src/shared/sheet/read-rows.ts): CSV is streamed a stretch at a time, and so is an XML feed
 * (read into the same headers and rows, xml-feed.ts); an .xlsx workbook is a zip that has to be
 * read whole (its size is the limit). What is the page's own: JSON parsed whole, the samples of
 * the mapping screen, the person's words for a file that cannot be read, and the cancel.
 */

/** Called with each stretch of rows; awaited, so a slow reader (the database) holds the file back. */
export type OnResults = (results: RowResult[], progress: ReadProgress) => void | Promise<void>

export interface SheetRead {
  progress: ReadProgress
  documentErrors: string[]
  /** A sheet's products and variants. */
  products?: ProductCounts
  /** How its rows are said to a person: a sheet's lines, a JSON file's or a feed's items, a pair's files. */
  numbering: RowNumbering
  /** What the reader said of the file as a whole (read-rows.ts): a workbook's other sheets, cells past the header. */
  notes: string[]
}

/** Header and every data row as text cells: an .xlsx workbook's first sheet. */
export async function readWorkbook(file: Blob): Promise<ParsedSheet> {
  try {
    return await readXlsx(new Uint8Array(await file.arrayBuffer()))
  } catch (error) {
    throw new UnreadableFile(`It could not be read as an Excel workbook: ${messageOf(error)}`)
  }
}

/**
 * What a JSON file holds: SKUs (read as they are), or a product list that is not SKUs, read as a
 * table whose headers are its JSON paths, mapped as a sheet is (json-table.ts).
 */
export type JsonContent =
  { kind: 'document'; document: unknown } | { kind: 'products'; list: ProductList; headers: string[] }

export async function readJsonContent(file: File): Promise<JsonContent> {
  const document = await parseJson(file)
  const list = productListOf(document)
  return list
    ? { kind: 'products', list, headers: jsonHeaders(list.products) }
    : { kind: 'document', document }
}

/** A JSON file's SKUs, checked, or why it cannot be imported. */
export async function readJson(file: File): Promise<DocumentResults> {
  const content = await readJsonContent(file)
  if (content.kind === 'products')
    throw new UnreadableFile('It is a list of products that are not SKUs: it needs a mapping.')
  return jsonSkus(content.document)
}

/** A JSON file parsed, strictly decoded, or why it cannot be read. */
async function parseJson(file: File): Promise<unknown> {
  let document: unknown
  try {
    // Strictly decoded, as sheets are: `file.text()` would turn bytes that are not UTF-8 into "�".
    document = JSON.parse(decodeText(new Uint8Array(await file.arrayBuffer()), 'json'))
  } catch (error) {
    if (error instanceof SheetFileError) throw new UnreadableFile(error.message)
    throw new UnreadableFile(`It is not valid JSON: ${messageOf(error)}`)
  }
  if (nestsDeeperThan(document)) {
    throw new UnreadableFile(`It nests objects or lists more than ${MAX_JSON_DEPTH} levels deep.`)
  }
  return document
}

/** The SKUs of a JSON document of SKUs, checked; an app request is refused. */
export function jsonSkus(document: unknown): DocumentResults {
  const read = documentToResults(document)
  if (read.kind === 'app-request')
    throw new UnreadableFile(
      'It is an app creation request, not SKUs. Import a SKU, a list of SKUs or a bulk upload request.',
    )
  return read
}

/**
 * Data rows read for them: a column empty in the first rows may be filled further down (a Wix
 * export's `sku` is on its variant rows, after each product's row), and shows "(empty)" only when
 * it is empty this far.
 */
export const SAMPLE_SCAN = 200

/**
 * Of `rows`, those that give some column one of its first {@link SAMPLE_ROWS} values that are not
 * empty, in order: what the mapping screen shows of each column, in few rows.
 */
export function sampleRows(rows: readonly string[][]): string[][] {
  const seen: number[] = []
  return rows.filter((row) => {
    let gives = false
    row.forEach((cell, column) => {
      if (cell.trim() === '' || (seen[column] ?? 0) >= SAMPLE_ROWS) return
      seen[column] = (seen[column] ?? 0) + 1
      gives = true
    })
    return gives
  })
}

/**
 * The header row and the first `count` data rows, reading no more of the file than that (with
 * PrestaShop's `combinations` file: of the pair, read as one sheet).
 */
export async function readHead(
  file: File,
  format: Exclude<SheetFormat, 'json'>,
  count: number,
  combinations?: File,
): Promise<{ headers: string[]; rows: string[][] }> {
  if (format === 'xlsx') {
    const { headers, rows } = await readWorkbook(file)
    return { headers, rows: rows.filter(isSample).slice(0, count) }
  }
  const stop = new AbortController()
  let headers: string[] = []
  const rows: string[][] = []
  try {
    await streamSheet(
      sourceOf(file, format, combinations),
      {
        onHeader: (cells) => {
          headers = cells
        },
        onRows: (cells) => {
          rows.push(...cells.filter(isSample).slice(0, count - rows.length))
          if (rows.length >= count) stop.abort()
        },
      },
      { signal: stop.signal, chunkBytes: 64 * 1024 },
    )
  } catch (error) {
    if (!stop.signal.aborted) throw error
  }
  return { headers, rows }
}

/** The file (with PrestaShop's `combinations` file: the pair) as the pipeline reads a sheet. */
const sourceOf = (file: File, format: Exclude<SheetFormat, 'json'>, combinations?: File): SheetSource => ({
  format,
  file: { name: file.name, input: file },
  ...(combinations && { combinations: { name: combinations.name, input: combinations } }),
})

/**
 * Converts and hands on every row of the file, checked against the contract. PrestaShop's
 * `combinations` file is read with its products file, `file`.
 */
export async function readResults(
  file: File,
  format: SheetFormat,
  mapping: SheetMapping,
  signal: AbortSignal,
  onResults: OnResults,
  combinations?: File,
): Promise<SheetRead> {
  if (format === 'json') return readJsonResults(file, mapping, signal, onResults)
  const { progress, products, numbering, notes } = await readSheetRows(
    sourceOf(file, format, combinations),
    {
      mapping: () => mapping,
      onStretch: (stretch) => onResults(stretch.results, stretch.progress),
    },
    { signal, readWorkbook },
  )
  return { progress, documentErrors: [], products, numbering, notes }
}

/**
 * A JSON file's rows: its SKUs as they are, or a product list's by the mapping, converted as a
 * sheet's rows are (the list whose fields it makes variant options spreads into one SKU per element).
 */
async function readJsonResults(
  file: File,
  mapping: SheetMapping,
  signal: AbortSignal,
  onResults: OnResults,
): Promise<SheetRead> {
  const content = await readJsonContent(file)
  if (content.kind === 'document') {
    const { results, documentErrors } = jsonSkus(content.document)
    const progress = await handOn(results, file.size, signal, onResults)
    const errors = documentErrors.map((problem) => problem.message)
    return { progress, documentErrors: errors, numbering: 'items', notes: [] }
  }
  // A mapping that cannot be used is refused in words the page shows as they are (read-rows.ts).
  const { table, progress } = await readProductListRows(content, mapping, onResults, {
    signal,
    bytes: file.size,
  })
  return { progress, documentErrors: [], products: table.counts, numbering: 'items', notes: [] }
}

/** Hands on rows already in memory a stretch at a time, with progress by rows. */
async function handOn(
  results: RowResult[],
  bytes: number,
  signal: AbortSignal,
  onResults: OnResults,
): Promise<ReadProgress> {
  for (let i = 0; i < results.length; i += ROWS_AT_A_TIME) {
    signal.throwIfAborted()
    const done = Math.min(results.length, i + ROWS_AT_A_TIME)
    await onResults(results.slice(i, done), {
      rows: done,
      bytes: Math.round((bytes * done) / results.length),
      total: bytes,
    })
  }
  signal.throwIfAborted()
  return { rows: results.length, bytes, total: bytes }
}

/** Rows worth showing as samples: not blank, not the template's help row. */
const isSample = (cells: string[]) => !isBlankRow(cells) && !isHelpRow(cells)
