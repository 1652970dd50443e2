import { readXlsx } from '#shared/sheet/xlsx.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/json-depth.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { streamCsv } from '#shared/sheet/csv.ts'
import { isBlankRow, isHelpRow } from '#shared/sheet/help-row.ts'
import type { SheetMapping } from '#shared/sheet/mapping.ts'
import type { ProductCounts } from '#shared/sheet/products.ts'
import {
  documentToResults,
  parentIndexFor,
  readSheet,
  SheetConverter,
  type DocumentResults,
} from '#shared/sheet/rows.ts'
import type { RowResult } from '#shared/sheet/types.ts'
import { UnreadableFile } from './file-kind.ts'
import type { ReadProgress, SheetFormat } from './import-protocol.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * Reading a file's rows in the worker, whatever its format. CSV is streamed a stretch at a time;
 * an .xlsx workbook is a zip that has to be read whole (its size is the limit); JSON is parsed whole.
 */

/** Bytes of CSV parsed at a time: a few thousand rows, and a progress step a person can see. */
const CSV_CHUNK_BYTES = 256 * 1024
/** Rows of an already-read file (xlsx, JSON) converted and handed on at a time. */
const ROWS_AT_A_TIME = 500

/** Called with each stretch of rows; awaited, so a slow reader (the database) holds the file back. */
export type OnResults = (results: RowResult[], progress: ReadProgress) => void | Promise<void>

export interface SheetRead {
  progress: ReadProgress
  documentErrors: string[]
  /** A sheet's products and variants. */
  products?: ProductCounts
}

/** Header and every data row as text cells: an .xlsx workbook's first sheet. */
export async function readWorkbook(file: File): Promise<{ headers: string[]; rows: string[][] }> {
  try {
    return await readXlsx(new Uint8Array(await file.arrayBuffer()))
  } catch (error) {
    throw new UnreadableFile(`It could not be read as an Excel workbook: ${messageOf(error)}`)
  }
}

/** A JSON file's SKUs, checked, or why it cannot be imported. */
export async function readJson(file: File): Promise<DocumentResults> {
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
  const read = documentToResults(document)
  if (read.kind === 'app-request')
    throw new UnreadableFile(
      'It is an app creation request, not SKUs. Import a SKU, a list of SKUs or a bulk upload request.',
    )
  return read
}

/** The header row and the first `count` data rows, reading no more of the file than that. */
export async function readHead(
  file: File,
  format: Exclude<SheetFormat, 'json'>,
  count: number,
): Promise<{ headers: string[]; rows: string[][] }> {
  if (format === 'xlsx') {
    const { headers, rows } = await readWorkbook(file)
    return { headers, rows: rows.filter(isSample).slice(0, count) }
  }
  const stop = new AbortController()
  let headers: string[] = []
  const rows: string[][] = []
  try {
    await streamCsv(
      file,
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

/**
 * Converts and hands on every row of the file, checked against the contract. A format whose
 * variants may come before their product (WooCommerce) is read twice: once for the parents.
 */
export async function readResults(
  file: File,
  format: SheetFormat,
  mapping: SheetMapping,
  signal: AbortSignal,
  onResults: OnResults,
): Promise<SheetRead> {
  if (format === 'json') {
    const { results, documentErrors } = await readJson(file)
    const progress = await handOn(results, file.size, signal, onResults)
    return { progress, documentErrors: documentErrors.map((problem) => problem.message) }
  }
  if (format === 'xlsx') {
    const workbook = await readWorkbook(file)
    signal.throwIfAborted()
    const { results, products } = readSheet(workbook, mapping)
    const progress = await handOn(results, file.size, signal, onResults)
    return { progress, documentErrors: [], products }
  }
  const { headers } = await readHead(file, 'csv', 0)
  const parents = parentIndexFor(headers)
  if (parents) {
    await streamCsv(
      file,
      { onHeader: () => undefined, onRows: (rows) => rows.forEach((cells) => parents.add(cells)) },
      { signal, chunkBytes: CSV_CHUNK_BYTES },
    )
  }
  let converter: SheetConverter | undefined
  const progress: ReadProgress = { rows: 0, bytes: 0, total: file.size }
  await streamCsv(
    file,
    {
      onHeader: (cells) => {
        converter = new SheetConverter(cells, mapping, parents)
      },
      onRows: (rows, read) => {
        const results = converter!.convert(rows)
        Object.assign(progress, { rows: progress.rows + rows.length, bytes: read.bytes, total: read.total })
        return onResults(results, { ...progress })
      },
    },
    { signal, chunkBytes: CSV_CHUNK_BYTES },
  )
  signal.throwIfAborted()
  return {
    progress: { ...progress, bytes: file.size },
    documentErrors: [],
    products: converter?.productCounts,
  }
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
