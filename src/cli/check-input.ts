import { isAscii, isUtf8 } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { resolve } from 'node:path'
import { isRecord } from '#shared/is-record.ts'
import { nestsDeeperThan } from '#shared/json-depth.ts'
import { JsonItemReader, JsonReadError, type JsonRoot } from '#shared/json-items.ts'
import { headerAsData } from '#shared/sheet/header-as-data.ts'
import { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import { decodeText, looksBinary, notUtf8Message, textChunks } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import {
  isSkuShaped,
  jsonHeaders,
  MAX_PRODUCT_LIST_BYTES,
  productListOf,
  withGuessedColumns,
  type ProductList,
} from '#shared/sheet/json-table.ts'
import { applyMappingFile, mappingFileOf, type MappingFile } from '#shared/sheet/mapping.ts'
import { placeOf, sayPlace, type Place, type RowNumbering } from '#shared/sheet/places.ts'
import { combinationsAlone } from '#shared/sheet/prestashop-pair.ts'
import { readProductListRows, readSheetRows } from '#shared/sheet/read-rows.ts'
import type { CellProblem, RowResult } from '#shared/sheet/types.ts'
import { validateDocument, type DocumentKind } from '#shared/validation/document.ts'
import { validateSku } from '#shared/validation/validate.ts'
import { openInputFile, type InputFile } from './input-file.ts'
import { CliError } from './io.ts'
import { columnNotes, conversionNotes, productsNote, skippedNotes, suggestionNotes } from './sheet-notes.ts'
import { applyCommandLine, type SheetOptions } from './sheet-options.ts'
import type { LocatedProblem } from './validation-report.ts'
import { lineOf, type SheetProblem } from './sheet-report.ts'
import { SheetColumns } from './sheet-columns.ts'

/**
 * A file read and checked by the same pipeline as the app's importer, item by item as it streams:
 * what `validate` reports, `convert` writes and `push` sends. Each item is handed on as soon as it
 * is checked and kept by nobody here, so memory does not grow with the file; what is known only
 * at the end (the counts, the notes, the kind of a JSON document read whole) is returned then.
 *
 * A sheet's rows go through the pipeline the app's import reads them with
 * (src/shared/sheet/read-rows.ts): CSV streams a quarter of a megabyte at a time (a WooCommerce
 * export twice: its parents first), an XML feed as a CSV does (xml-feed.ts), and an XLSX workbook
 * is read whole, up to a size (input-file.ts), then checked a stretch of rows at a time; what is
 * the CLI's own is its files on disk, the shop's ids and the notes (sheet-columns.ts). JSON streams
 * a quarter of a megabyte at a time (json-items.ts), except a file of at most 4 MB, parsed whole.
 */

/** `json-products`: a JSON product list that is not SKUs, read as a table through a mapping (json-table.ts). */
export type InputKind = DocumentKind | 'csv' | 'xlsx' | 'xml' | 'json-products'

/** One item of the file, checked: a SKU (or the one app) with its problems, in file order. */
export type CheckedItem =
  | {
      /** 0-based position in the file: the list position, or the SKU's place among the sheet's. */
      index: number
      payload: unknown
      row?: undefined
      errors: LocatedProblem[]
      warnings: LocatedProblem[]
    }
  | {
      index: number
      payload: unknown
      /** The data row it came from (the first row under the header is 1). */
      row: number
      /** Where a person finds the row: its line in the spreadsheet, or its item (places.ts). */
      place: Place
      errors: SheetProblem[]
      warnings: SheetProblem[]
      /** The shop's own id of the row (shop-id.ts), when the sheet has one. */
      shopId?: string
    }

/** Called with each item as it is checked, and the kind of file it is in (known by then). */
export type OnItem = (item: CheckedItem, kind: InputKind) => void

/** What is known once the whole file is read. */
export interface CheckedFile {
  kind: InputKind
  items: number
  valid: number
  invalid: number
  warnings: number
  /** Problems of the file itself, before any item's (a bulk request whose skus is not a list). */
  fileErrors: LocatedProblem[]
  /** Whether the file holds no items: a warning (NO_SKUS), counted in `warnings`. */
  empty: boolean
  /** For a sheet: what the reader and the column matching want the user to know. */
  notes: string[]
  /** For a sheet: the mapping used, as a mapping file (what --show-mapping prints). */
  mapping?: MappingFile & { format: string }
  /** For a sheet: its columns whose header looks like a typo of a field, said (`push` prints them). */
  suggestions?: string[]
  /** For a sheet: where the shop's own id of each row is read, as the report says it (shop-id.ts), if anywhere. */
  shopIdColumn?: string
  /** For a sheet: how its rows are said to a person (places.ts): lines, items, a pair's two files. */
  numbering?: RowNumbering
}

/** Whether anything was an error: an item, or the file itself. */
export function hasErrors(file: CheckedFile): boolean {
  return file.invalid > 0 || file.fileErrors.length > 0
}

/**
 * Whether a push would send the whole file: it has items, none invalid, none of the valid held
 * back (`heldBack`, the verdict's). `validate` and `convert` exit 0 only then. A file that holds
 * nothing passed every check, where `push` refuses it ("holds nothing to send"), so a script's
 * `validate && push` went on with a failed export.
 */
export function isReadyToSend(file: CheckedFile, heldBack: number): boolean {
  return !hasErrors(file) && !file.empty && heldBack === 0
}

/** An item's first error, in one line (what `push` says of an item it does not send). */
export function firstError(item: CheckedItem): string | undefined {
  if (item.row === undefined) {
    const first = item.errors[0]
    if (!first) return undefined
    return first.path ? `${first.path}: ${first.message}` : first.message
  }
  const first = item.errors[0]
  if (!first) return undefined
  return `${sayPlace(item.place)}, ${first.column ? `column "${first.column}": ` : ''}${first.message}`
}

/** Counts kept as items pass. */
class Tally {
  items = 0
  invalid = 0
  warnings = 0

  count(item: CheckedItem) {
    this.items++
    if (item.errors.length > 0) this.invalid++
    this.warnings += item.warnings.length
  }

  /** What the file came to, an empty one's warning (NO_SKUS) counted. */
  file(kind: InputKind, empty: boolean, fileErrors: LocatedProblem[], notes: string[]): CheckedFile {
    const { items, invalid } = this
    const warnings = this.warnings + (empty ? 1 : 0)
    return { kind, items, valid: items - invalid, invalid, warnings, fileErrors, empty, notes }
  }
}

/** How items are read beyond the sheet options. */
export interface ReadOptions {
  /**
   * False: a JSON list's items are handed on unchecked (no errors, no warnings, all counted
   * valid), for a command that reads SKUs for something else (`check-assets`) and would pay the
   * contract's checks for nothing. A sheet's rows are checked as they are converted, either way.
   */
  validate?: boolean
}

export async function checkInput(
  file: string,
  cwd: string,
  options: SheetOptions,
  onItem: OnItem,
  read: ReadOptions = {},
): Promise<CheckedFile> {
  const input = await openInputFile(file, cwd)
  const combinations =
    options.combinations === undefined ? undefined : await pairOf(input, options.combinations, cwd)
  try {
    return input.format === 'json'
      ? await checkJson(input, resolve(cwd, file), onItem, read.validate !== false, options)
      : await checkSheet(input, options, onItem, combinations)
  } catch (error) {
    if (error instanceof SheetFileError) {
      const message =
        error.code === 'not-utf8' && input.format === 'json'
          ? notUtf8Message('json')
          : error.code === 'needs-products'
            ? combinationsAlone(`(validate products_import.csv --combinations ${file})`)
            : error.message
      throw new CliError(`Cannot read ${file}: ${message}`)
    }
    if (error instanceof JsonReadError) {
      if (error.code === 'empty' || error.code === 'syntax')
        throw new CliError(`Cannot parse ${file} as JSON: ${error.message}`)
      throw new CliError(`Cannot use ${file}: ${error.message}`)
    }
    throw error
  }
}

/**
 * Bytes of a file read and checked at a time: what is alive at once is a stretch's items, a few
 * thousand at most (a quarter of a megabyte of short rows), whatever the size of the file.
 */
const CHUNK_BYTES = 256 * 1024

const UNCHECKED: ReturnType<typeof validateSku> = { errors: [], warnings: [] }

async function checkJson(
  input: InputFile,
  path: string,
  onItem: OnItem,
  validate: boolean,
  options: SheetOptions,
): Promise<CheckedFile> {
  const products = (list: ProductList) => checkProductList(input, list, options, onItem)
  // A mapping maps columns: SKUs have none, and one given for them is said, never silently ignored.
  const skus = () => {
    if (options.mapping)
      throw new CliError(
        `${input.name} holds SKUs, which are read as they are: --mapping is for sheets and JSON product lists; leave it out.`,
      )
  }
  const reader = new JsonItemReader()
  const tally = new Tally()
  const check = (
    payload: unknown,
    index: number,
    result: ReturnType<typeof validateSku>,
    kind: DocumentKind,
  ) => {
    const item: CheckedItem = {
      index,
      payload,
      errors: result === UNCHECKED ? [] : result.errors.map((problem) => ({ index, ...problem })),
      warnings: result === UNCHECKED ? [] : result.warnings.map((problem) => ({ index, ...problem })),
    }
    tally.count(item)
    onItem(item, kind)
  }
  const whole = input.blob.size <= WHOLE_JSON_BYTES ? parsedWhole(path) : undefined
  if (whole) {
    const list = productListOf(whole.root.shape === 'whole' ? whole.root.document : whole.items)
    if (list && whole.root.shape !== 'wrapped') return products(list)
    skus()
    const kind = whole.root.shape === 'list' ? 'sku-list' : 'bulk-request'
    for (const payload of whole.items)
      check(payload, tally.items, validate ? validateSku(payload) : UNCHECKED, kind)
  } else {
    for await (const chunk of jsonText(input, path)) {
      const items = reader.push(chunk.text, chunk.last)
      if (items.length === 0) continue
      // A list's first items tell SKUs from a product list, which is read whole, up to a size.
      if (tally.items === 0 && reader.root?.shape === 'list' && !isSkuShaped(items)) {
        const list = productListOf(items) && productListOf(wholeProductList(input, path))
        if (list) return products(list)
      }
      if (tally.items === 0) skus()
      const kind = reader.root?.shape === 'list' ? 'sku-list' : 'bulk-request'
      for (const payload of items)
        check(payload, tally.items, validate ? validateSku(payload) : UNCHECKED, kind)
    }
  }
  const root = whole ? whole.root : reader.root!
  const list = root.shape === 'whole' ? productListOf(root.document) : undefined
  if (list) return products(list)
  if (tally.items === 0) skus()
  let kind: DocumentKind = root.shape === 'list' ? 'sku-list' : 'bulk-request'
  const fileErrors: LocatedProblem[] = []
  if (root.shape === 'whole') {
    // One SKU, an app, or a bulk request whose skus is no list: small, and checked as a whole.
    const report = validateDocument(root.document)
    kind = report.kind
    fileErrors.push(...report.documentErrors.map((problem) => ({ index: null, ...problem })))
    for (const item of report.reports) check(report.items[item.index], item.index, item, kind)
  }
  const empty = kind !== 'sku' && kind !== 'app-request' && tally.items === 0 && fileErrors.length === 0
  return tally.file(kind, empty, fileErrors, [])
}

/**
 * JSON files up to this size are parsed whole (`parsedWhole`), larger ones as they stream: a few
 * thousand SKUs, tens of megabytes parsed at most.
 */
const WHOLE_JSON_BYTES = 4 * 1024 * 1024

/**
 * A small JSON file parsed whole by one `JSON.parse`, when that gives what the streaming reader
 * (json-items.ts) would: its items (a list's, or a bulk request's `skus`) or the document. Else
 * undefined, and the file is read as it streams, which says what is wrong and where (not UTF-8,
 * not JSON, too deep) or refuses a second "skus" list, which one parse would silently take.
 *
 * Why: 1,000 SKUs (1.2 MB) cost the streaming reader 5–6 ms, finding each SKU's end in the text
 * and parsing it on its own, and one parse with the depth walk 3.5–4; check-assets pays it on the
 * thread that validates the models (docs/benchmarks.md: `assets`).
 */
function parsedWhole(path: string): { root: JsonRoot; items: unknown[] } | undefined {
  // Read on this thread: nothing else is under way before the first SKU is read, and an
  // asynchronous read's four trips to the thread pool (open, stat, read, close) took longer.
  const bytes = readFileSync(path)
  if (bytes.length > WHOLE_JSON_BYTES) return undefined
  const ascii = isAscii(bytes)
  if (utf16Mark(bytes, bytes.length) || looksBinary(bytes) || !(ascii || isUtf8(bytes))) return undefined
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  // ASCII, as most files of SKUs are, is the same text read as Latin-1, which copies each byte:
  // half the time of UTF-8's decoder, which reads them all again (1,000 SKUs: 0.3 ms against 0.7).
  const text = ascii ? bytes.toString('latin1') : bytes.toString('utf8', from)
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    return undefined
  }
  if (nestsDeeperThan(document)) return undefined
  if (Array.isArray(document)) return { root: { shape: 'list' }, items: document }
  if (!isRecord(document)) return { root: { shape: 'whole', document }, items: [] }
  // A key is "skus" as written, or spelled with \u escapes: one of neither, and no second list.
  const first = skusAt(text, 0)
  if ((first >= 0 && skusAt(text, first + 1) >= 0) || text.includes('\\u')) return undefined
  if (Array.isArray(document.skus)) return { root: { shape: 'wrapped' }, items: document.skus }
  return { root: { shape: 'whole', document }, items: [] }
}

/**
 * Where `skus"` is first written in `text` from `from` on, or -1. Found by its tail `kus"`, which
 * is rare: a search for the whole stops at every "s" of the text (0.28 ms on 1,000 SKUs, against
 * 0.01), since a pattern this short is searched for by its first character.
 */
function skusAt(text: string, from: number): number {
  for (let at = text.indexOf('kus"', from + 1); at >= 0; at = text.indexOf('kus"', at + 1)) {
    if (text.charCodeAt(at - 1) === 0x73) return at - 1
  }
  return -1
}

/**
 * A JSON file's text, `CHUNK_BYTES` at a time: what `textChunks` gives of the file's Blob, read
 * faster. A Blob's stretches and a streaming TextDecoder cost three and a half times what plain
 * reads of the file and a whole decode of each stretch do (1.2 MB: 3.7 ms against 1.0; validating
 * 53 MB of SKUs took 1.02 s, now 0.88). Each stretch is cut after its last whole character, the
 * rest carried over to the next, so every decode is of whole characters, and a byte that is not
 * UTF-8 is refused as textChunks refuses it. A file that starts with a UTF-16 mark or looks binary
 * in its first bytes is left to textChunks, which reads and refuses those.
 */
async function* jsonText(input: InputFile, path: string): AsyncGenerator<{ text: string; last: boolean }> {
  const file = await open(path, 'r')
  try {
    const bytes = Buffer.allocUnsafe(CHUNK_BYTES + 4)
    let carried = 0
    for (let first = true; ; first = false) {
      const { bytesRead } = await file.read(bytes, carried, CHUNK_BYTES)
      const end = carried + bytesRead
      if (first && (utf16Mark(bytes, end) || looksBinary(bytes.subarray(0, end)))) {
        yield* textChunks(input.blob, CHUNK_BYTES)
        return
      }
      const last = bytesRead === 0
      const whole = last ? end : wholeCharacters(bytes, end)
      if (!isUtf8(bytes.subarray(0, whole))) throw new SheetFileError('not-utf8', notUtf8Message('json'))
      // A UTF-8 mark is dropped, as TextDecoder drops it; one anywhere else is text.
      const from = first && whole >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
      yield { text: bytes.toString('utf8', from, whole), last }
      if (last) return
      bytes.copyWithin(0, whole, end)
      carried = end - whole
    }
  } finally {
    await file.close()
  }
}

const utf16Mark = (bytes: Uint8Array, length: number) =>
  length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))

/**
 * Bytes of `bytes[0, end)` up to the end of their last whole UTF-8 character: a character cut by
 * the end of the stretch (a lead byte followed by fewer continuation bytes than it announces) is
 * left for the next. Anything else (invalid bytes included) is taken, for the check to refuse.
 */
function wholeCharacters(bytes: Uint8Array, end: number): number {
  for (let back = 1; back <= 3 && back <= end; back++) {
    const byte = bytes[end - back]!
    if ((byte & 0xc0) === 0x80) continue
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return length > back ? end - back : end
  }
  return end
}

/** A JSON file read whole, once its first items showed it is a product list, not SKUs. */
function wholeProductList(input: InputFile, path: string): unknown {
  if (input.blob.size > MAX_PRODUCT_LIST_BYTES) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
    throw new CliError(
      `Cannot read ${input.name}: it is a list of products that are not SKUs (${mb(input.blob.size)}), and such a list is read whole, up to ${mb(MAX_PRODUCT_LIST_BYTES)}. Split it, or convert it to SKUs first.`,
    )
  }
  let document: unknown
  try {
    document = JSON.parse(decodeText(readFileSync(path), 'json'))
  } catch (error) {
    if (error instanceof SyntaxError) throw new JsonReadError('syntax', error.message)
    throw error
  }
  if (nestsDeeperThan(document)) throw new JsonReadError('too-deep', 'it nests objects or lists too deeply')
  return document
}

/**
 * A JSON product list (json-table.ts) read as a sheet whose headers are its JSON paths, through the
 * mapping file given, by the same converter as a sheet's rows: the defaults, conversions and notes
 * a sheet gets. Without a mapping it is refused, with the paths found as a mapping to start from:
 * its keys are not the contract's, and nothing is passed on under them.
 */
async function checkProductList(
  input: InputFile,
  list: ProductList,
  options: SheetOptions,
  onItem: OnItem,
): Promise<CheckedFile> {
  const kind = 'json-products'
  const headers = jsonHeaders(list.products)
  if (!options.mapping) {
    const { mapping } = applyMappingFile(headers, { columns: withGuessedColumns(headers) })
    const where = list.at
      ? `"${list.at}" holds ${list.products.length}`
      : `it is a list of ${list.products.length}`
    throw new CliError(
      `${input.name} needs a mapping: ${where} products whose fields are not the contract's, so it is read as a table whose columns are their JSON paths, mapped by a mapping file (--mapping FILE). The paths found, mapped as they would be without one (a field, an option "option:NAME" of each element of a list that spreads into one SKU per element, or null), as a mapping to save, edit and pass with --mapping:\n${JSON.stringify(mappingFileOf(headers, mapping), null, 2)}`,
    )
  }
  const { mapping, matches } = applyMappingFile(headers, {
    ...options.mapping,
    columns: withGuessedColumns(headers, options.mapping.columns),
  })
  applyCommandLine(mapping, options)
  const numbering = 'items'
  const tally = new Tally()
  const conversions = new ConversionTally()
  const { table, spread } = await readProductListRows(
    { list, headers },
    mapping,
    (results, _progress, { places }) => {
      conversions.add(results)
      for (const result of results) {
        const item = sheetItem(tally.items, result, numbering, undefined, places[result.row - 1])
        tally.count(item)
        onItem(item, kind)
      }
    },
  )
  const suggestions = suggestionNotes(matches, mapping)
  const notes = [
    productsNote(table.counts, numbering),
    ...(spread
      ? [`each element of "${spread}" is a SKU of its product, named by the product's name and its options`]
      : []),
    ...columnNotes(matches, mapping, new Set()),
    ...suggestions,
    ...Object.keys(options.mapping.columns)
      .filter((header) => !headers.includes(header))
      .map((header) => `the mapping names the path "${header}", which this file does not have`),
    ...conversionNotes(conversions, numbering),
  ]
  return {
    ...tally.file(kind, tally.items === 0, [], notes),
    mapping: mappingFileOf(headers, mapping),
    suggestions,
    numbering,
  }
}

/** PrestaShop's combinations file (`--combinations`), read with `input`, its products file: both CSV. */
async function pairOf(input: InputFile, name: string, cwd: string): Promise<InputFile> {
  const combinations = await openInputFile(name, cwd)
  for (const file of [input, combinations])
    if (file.format !== 'csv')
      throw new CliError(
        `Cannot read ${file.name} with --combinations: PrestaShop's products and combinations files are CSV, and this is ${file.format.toUpperCase()}.`,
      )
  return combinations
}

/**
 * A sheet (a CSV, a feed, a workbook, or PrestaShop's pair) read by the app's import's pipeline
 * (read-rows.ts), each row's SKU handed on as an item with the shop's id of its row; what the
 * reader, the column matching and the conversions want the user to know said in the notes.
 */
async function checkSheet(
  input: InputFile,
  options: SheetOptions,
  onItem: OnItem,
  combinations?: InputFile,
): Promise<CheckedFile> {
  const kind = input.format === 'xlsx' || input.format === 'xml' ? input.format : 'csv'
  const tally = new Tally()
  const conversions = new ConversionTally()
  const columns = new SheetColumns(options)
  const named = (file: InputFile) => ({ name: file.name, input: file.blob })
  const sheet = await readSheetRows(
    { format: kind, file: named(input), ...(combinations && { combinations: named(combinations) }) },
    {
      mapping: (headers, layout) => columns.prepare(headers, layout),
      onStretch({ cells, first, results, numbering }) {
        const shopIds = columns.take(cells)
        conversions.add(results)
        for (const result of results) {
          const item = sheetItem(tally.items, result, numbering, shopIds[result.row - first])
          tally.count(item)
          onItem(item, kind)
        }
      },
    },
  )
  const { headers, layout, mapping, matches, shopIds } = columns.read!
  const products = sheet.products!
  const suggestions = suggestionNotes(matches, mapping)
  const dataAsHeader = headerAsData(matches)
  const notes = [
    ...sheet.notes,
    ...(dataAsHeader
      ? [
          `${dataAsHeader}; if the file has none, add a row naming its columns (such as Product name, Barcode, Brand)`,
        ]
      : []),
    ...(layout.format === 'plain'
      ? []
      : [productsNote(products, sheet.numbering), ...skippedNotes(products)]),
    ...columnNotes(matches, mapping, columns.filled),
    ...suggestions,
    ...Object.keys(options.mapping?.columns ?? {})
      .filter((header) => !headers.includes(header))
      .map((header) => `the mapping names the column "${header}", which this file does not have`),
    ...conversionNotes(conversions, sheet.numbering),
  ]
  return {
    ...tally.file(kind, tally.items === 0, [], notes),
    mapping: mappingFileOf(headers, mapping),
    suggestions,
    ...(shopIds.column === undefined ? {} : { shopIdColumn: shopIds.column }),
    numbering: sheet.numbering,
  }
}

/**
 * A row's SKU as an item, its problems placed: a sheet's line beside its row (and a pair's file),
 * a JSON product list's place in the file (`item`: `[2].product_colors[1]`).
 */
function sheetItem(
  index: number,
  result: RowResult,
  numbering: RowNumbering,
  shopId: string | undefined,
  item?: string,
): CheckedItem {
  const line = lineOf(result.row, numbering)
  const placed = (problems: readonly CellProblem[]): SheetProblem[] =>
    problems.map(({ row, ...problem }) => ({ row, ...line, ...problem, ...(item !== undefined && { item }) }))
  return {
    index,
    payload: result.sku,
    row: result.row,
    place: placeOf(result.row, numbering),
    errors: placed(result.errors),
    warnings: placed(result.warnings),
    ...(shopId === undefined ? {} : { shopId }),
  }
}
