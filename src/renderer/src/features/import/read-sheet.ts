import { readXlsx } from '#shared/sheet/xlsx.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/json-depth.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { streamCsv, type CsvStreamOptions } from '#shared/sheet/csv.ts'
import { streamXmlFeed } from '#shared/sheet/xml-feed.ts'
import type { RowNumbering } from '#shared/sheet/places.ts'
import { streamPrestashopPair, type PairHandlers } from '#shared/sheet/prestashop-pair.ts'
import { isBlankRow, isHelpRow } from '#shared/sheet/help-row.ts'
import {
  jsonHeaders,
  jsonTable,
  productListOf,
  spreadListOf,
  type ProductList,
} from '#shared/sheet/json-table.ts'
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
import { UnreadableFile } from './unreadable-file.ts'
import type { ReadProgress, SheetFormat } from './import-protocol.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * Reading a file's rows in the worker, whatever its format. CSV is streamed a stretch at a time,
 * and so is an XML feed (read into the same headers and rows, xml-feed.ts); an .xlsx workbook is
 * a zip that has to be read whole (its size is the limit); JSON is parsed whole.
 */

/**
 * The reader of a format that streams: an XML feed's, or CSV's; or, given PrestaShop's
 * combinations file with its products file, the pair's, read as one sheet (prestashop-pair.ts).
 */
const streamerOf = (
  format: SheetFormat,
  combinations?: File,
): ((file: File, handlers: PairHandlers, options: CsvStreamOptions) => ReturnType<typeof streamCsv>) =>
  combinations
    ? (file, handlers, options) =>
        streamPrestashopPair(
          [
            { name: file.name, input: file },
            { name: combinations.name, input: combinations },
          ],
          handlers,
          options,
        )
    : format === 'xml'
      ? streamXmlFeed
      : streamCsv

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
  /** How its rows are said to a person: a sheet's lines, a JSON file's or a feed's items, a pair's files. */
  numbering: RowNumbering
}

/** Header and every data row as text cells: an .xlsx workbook's first sheet. */
export async function readWorkbook(file: File): Promise<{ headers: string[]; rows: string[][] }> {
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
    await streamerOf(format, combinations)(
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
 * variants may come before their product (WooCommerce, PrestaShop's pair) is read twice: once for
 * the parents. PrestaShop's `combinations` file is read with its products file, `file`.
 */
export async function readResults(
  file: File,
  format: SheetFormat,
  mapping: SheetMapping,
  signal: AbortSignal,
  onResults: OnResults,
  combinations?: File,
): Promise<SheetRead> {
  if (format === 'json') {
    const content = await readJsonContent(file)
    if (content.kind === 'products') return readProductList(content, file.size, mapping, signal, onResults)
    const { results, documentErrors } = jsonSkus(content.document)
    const progress = await handOn(results, file.size, signal, onResults)
    return { progress, documentErrors: documentErrors.map((problem) => problem.message), numbering: 'items' }
  }
  if (format === 'xlsx') {
    const workbook = await readWorkbook(file)
    signal.throwIfAborted()
    const { results, products } = readSheet(workbook, mapping)
    const progress = await handOn(results, file.size, signal, onResults)
    return { progress, documentErrors: [], products, numbering: 'lines' }
  }
  const stream = streamerOf(format, combinations)
  const { headers } = await readHead(file, format, 0, combinations)
  const parents = parentIndexFor(headers)
  if (parents) {
    await stream(
      file,
      { onHeader: () => undefined, onRows: (rows) => rows.forEach((cells) => parents.add(cells)) },
      { signal, chunkBytes: CSV_CHUNK_BYTES },
    )
  }
  let converter: SheetConverter | undefined
  const size = file.size + (combinations?.size ?? 0)
  const progress: ReadProgress = { rows: 0, bytes: 0, total: size }
  let numbering: RowNumbering = format === 'xml' ? 'items' : 'lines'
  await stream(
    file,
    {
      onFiles: (pair) => (numbering = { pair }),
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
    progress: { ...progress, bytes: size },
    documentErrors: [],
    products: converter?.productCounts,
    numbering,
  }
}

/**
 * A JSON product list's rows, by the mapping: the list whose fields it makes variant options
 * spreads into one SKU per element; converted as a sheet's rows are.
 */
async function readProductList(
  content: Extract<JsonContent, { kind: 'products' }>,
  bytes: number,
  mapping: SheetMapping,
  signal: AbortSignal,
  onResults: OnResults,
): Promise<SheetRead> {
  const spread = spreadListOf(content.headers, mapping.columns)
  if ('error' in spread) throw new UnreadableFile(`The mapping cannot be used: ${spread.error}.`)
  const table = jsonTable(content.list, content.headers, spread.list)
  const results = new SheetConverter(content.headers, mapping).convertSources(table.sources)
  const progress = await handOn(results, bytes, signal, onResults)
  return { progress, documentErrors: [], products: table.counts, numbering: 'items' }
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
