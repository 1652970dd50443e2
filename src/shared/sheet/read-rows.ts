import { streamCsv, type CsvStreamOptions, type ParsedSheet } from './csv.ts'
import { SheetFileError } from './errors.ts'
import { fileKind, SNIFF_BYTES, type FileKind } from './file-kind.ts'
import { jsonTable, spreadListOf, type JsonTable, type ProductList } from './json-table.ts'
import type { SheetMapping } from './mapping.ts'
import type { RowNumbering } from './places.ts'
import { streamPrestashopPair, type PairHandlers } from './prestashop-pair.ts'
import { productLayout, type ProductCounts, type ProductLayout } from './products.ts'
import { parentIndexFor, SheetConverter } from './rows.ts'
import type { RowResult } from './types.ts'
import { readXlsx } from './xlsx.ts'
import { streamXmlFeed } from './xml-feed.ts'

/**
 * The one pipeline of a file's rows, shared by the import's worker (the page's read-sheet.ts) and
 * the CLI (check-input.ts), so that a file reads the same in both: its kind told by its first
 * bytes and its name, its rows read (streamed, or a workbook whole), the mapping chosen once the
 * header is known, and every row converted and checked against the contract, handed on a stretch
 * at a time. Each side keeps only what differs: the worker its progress, its cancel and the drafts
 * it writes; the CLI its files on disk, the shop's ids, its notes and its report.
 */

/** Which reader a file goes to (file-kind.ts), from its name and its first bytes. */
export async function kindOf(name: string, file: Blob): Promise<FileKind> {
  return fileKind(name, new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()))
}

/** Bytes of text parsed at a time: a few thousand rows, and a progress step a person can see. */
export const CHUNK_BYTES = 256 * 1024
/** Rows already in memory (a workbook's, a JSON product list's) converted and handed on at a time. */
export const ROWS_AT_A_TIME = 500

/** A file, named for messages. */
export interface NamedFile {
  name: string
  input: Blob
}

/** A file read as a sheet: a CSV, a Merchant Center feed or a workbook. */
export interface SheetSource {
  format: Exclude<FileKind, 'json'>
  file: NamedFile
  /** PrestaShop's combinations file, read with `file` (its products file) as one sheet (prestashop-pair.ts). */
  combinations?: NamedFile
}

/** Rows read of the file so far, and how far through its bytes that is. */
export interface RowsProgress {
  rows: number
  bytes: number
  total: number
}

/** A stretch of the sheet's rows, read and converted. */
export interface Stretch {
  /** The rows as read, in file order, the template's help row and blank rows too. */
  cells: string[][]
  /** The data row the first of them is (the first row under the header is 1). */
  first: number
  /** Their SKUs, checked: a result's `row` less `first` is its place in `cells`. */
  results: RowResult[]
  progress: RowsProgress
  /** How its rows are said so far: a pair's is known file by file. */
  numbering: RowNumbering
}

export interface SheetRowsHandlers {
  /** The mapping of the rows under these headers, asked once, when the converting pass reaches them. */
  mapping(headers: string[], layout: ProductLayout): SheetMapping
  /** Each stretch; awaited, so a slow reader (the database) holds the file back. */
  onStretch(stretch: Stretch): void | Promise<void>
}

export interface SheetRowsOptions {
  signal?: AbortSignal
  /** How a workbook is read whole: readXlsx, or the page's own, which says its failures its way. */
  readWorkbook?: (input: Blob) => Promise<ParsedSheet>
}

/** What is known once the whole sheet is read. */
export interface SheetRows {
  /** The reader's notes: a pair's files, cells it had to mend. */
  notes: string[]
  /** The sheet's products and variants; undefined if it had no header. */
  products?: ProductCounts
  /** How its rows are said to a person: a sheet's lines, a feed's items, a pair's files. */
  numbering: RowNumbering
  progress: RowsProgress
}

/**
 * Reads, maps and converts every row of a sheet, handing each stretch on. A format whose variants
 * may come before their product (WooCommerce's, a PrestaShop pair's) is read twice: the first pass
 * finds the parents, the second converts.
 */
export async function readSheetRows(
  source: SheetSource,
  handlers: SheetRowsHandlers,
  options: SheetRowsOptions = {},
): Promise<SheetRows> {
  return source.format === 'xlsx'
    ? readWorkbookRows(source, handlers, options)
    : streamSheetRows(source, handlers, options.signal)
}

/**
 * Streams a sheet of text: a CSV, a feed, or PrestaShop's pair read as one sheet. Throws
 * SheetFileError for a file it cannot read, or the signal's reason when aborted.
 */
export function streamSheet(
  source: SheetSource,
  handlers: PairHandlers,
  options: CsvStreamOptions,
): Promise<{ rows: number; notes: string[] }> {
  const { file, combinations } = source
  if (combinations) return streamPrestashopPair([file, combinations], handlers, options)
  return (source.format === 'xml' ? streamXmlFeed : streamCsv)(file.input, handlers, options)
}

/** The converting pass of a sheet, one stretch at a time, counting its rows as it goes. */
class Conversion {
  converter: SheetConverter | undefined
  readonly progress: RowsProgress
  private readonly handlers: SheetRowsHandlers
  private taken = 0

  constructor(handlers: SheetRowsHandlers, progress: RowsProgress) {
    this.handlers = handlers
    this.progress = progress
  }

  start(headers: string[], parents: ReturnType<typeof parentIndexFor>) {
    const layout = parents?.layout ?? productLayout(headers)
    this.converter = new SheetConverter(headers, this.handlers.mapping(headers, layout), parents)
  }

  take(cells: string[][], numbering: RowNumbering, read: { bytes: number; total: number }) {
    const first = this.taken + 1
    this.taken += cells.length
    const results = this.converter!.convert(cells)
    Object.assign(this.progress, { rows: this.taken, ...read })
    return this.handlers.onStretch({ cells, first, results, progress: { ...this.progress }, numbering })
  }
}

async function streamSheetRows(
  source: SheetSource,
  handlers: SheetRowsHandlers,
  signal: AbortSignal | undefined,
): Promise<SheetRows> {
  const total = source.file.input.size + (source.combinations?.input.size ?? 0)
  const conversion = new Conversion(handlers, { rows: 0, bytes: 0, total })
  // A feed's rows are its items; a pair's are said in their own file (onFiles).
  let numbering: RowNumbering = source.format === 'xml' ? 'items' : 'lines'
  const onFiles: PairHandlers['onFiles'] = (pair) => (numbering = { pair })
  const options = { signal, chunkBytes: CHUNK_BYTES }
  // WooCommerce names a variation's parent anywhere in the file: a first pass finds the parents.
  let parents: ReturnType<typeof parentIndexFor>
  let read = await streamSheet(
    source,
    {
      onFiles,
      onHeader(headers) {
        parents = parentIndexFor(headers)
        if (!parents) conversion.start(headers, undefined)
      },
      onRows(rows, at) {
        if (parents) for (const cells of rows) parents.add(cells)
        else return conversion.take(rows, numbering, at)
      },
    },
    options,
  )
  if (parents) {
    read = await streamSheet(
      source,
      {
        onFiles,
        onHeader: (headers) => conversion.start(headers, parents),
        onRows: (rows, at) => conversion.take(rows, numbering, at),
      },
      options,
    )
  }
  signal?.throwIfAborted()
  const progress = { ...conversion.progress, bytes: total, total }
  return { notes: read.notes, products: conversion.converter?.productCounts, numbering, progress }
}

/** A workbook, read whole (its size is the limit), its parents found, then converted a stretch at a time. */
async function readWorkbookRows(
  source: SheetSource,
  handlers: SheetRowsHandlers,
  { signal, readWorkbook = readXlsx }: SheetRowsOptions,
): Promise<SheetRows> {
  const sheet = await readWorkbook(source.file.input)
  signal?.throwIfAborted()
  const total = source.file.input.size
  const conversion = new Conversion(handlers, { rows: 0, bytes: 0, total })
  const parents = parentIndexFor(sheet.headers)
  if (parents) for (const cells of sheet.rows) parents.add(cells)
  conversion.start(sheet.headers, parents)
  for (let at = 0; at < sheet.rows.length; at += ROWS_AT_A_TIME) {
    signal?.throwIfAborted()
    const done = Math.min(sheet.rows.length, at + ROWS_AT_A_TIME)
    const bytes = Math.round((total * done) / sheet.rows.length)
    await conversion.take(sheet.rows.slice(at, done), 'lines', { bytes, total })
  }
  signal?.throwIfAborted()
  return {
    notes: sheet.notes,
    products: conversion.converter!.productCounts,
    numbering: 'lines',
    progress: { rows: sheet.rows.length, bytes: total, total },
  }
}

/** A JSON product list read as a sheet: its table, and the list whose elements spread into SKUs. */
export interface ProductListRows {
  table: JsonTable
  /** The list whose fields the mapping makes options, one SKU an element; undefined if none. */
  spread: string | undefined
  progress: RowsProgress
}

/**
 * A JSON product list's rows (json-table.ts), by the mapping: the list whose fields it makes
 * variant options spreads into one SKU per element; converted as a sheet's rows are and handed on
 * a stretch at a time, with progress by rows over the file's `bytes` and the table (where each
 * row is in the file: `table.places`). A mapping that spreads two lists is refused.
 */
export async function readProductListRows(
  content: { list: ProductList; headers: string[] },
  mapping: SheetMapping,
  onStretch: (results: RowResult[], progress: RowsProgress, table: JsonTable) => void | Promise<void>,
  { signal, bytes = 0 }: { signal?: AbortSignal; bytes?: number } = {},
): Promise<ProductListRows> {
  const spread = spreadListOf(content.headers, mapping.columns)
  if ('error' in spread)
    throw new SheetFileError('unusable-mapping', `The mapping cannot be used: ${spread.error}.`)
  const table = jsonTable(content.list, content.headers, spread.list)
  const converter = new SheetConverter(content.headers, mapping)
  const rows = table.sources.length
  for (let at = 0; at < rows; at += ROWS_AT_A_TIME) {
    signal?.throwIfAborted()
    const done = Math.min(rows, at + ROWS_AT_A_TIME)
    await onStretch(
      converter.convertSources(table.sources.slice(at, done)),
      {
        rows: done,
        bytes: Math.round((bytes * done) / rows),
        total: bytes,
      },
      table,
    )
  }
  signal?.throwIfAborted()
  return { table, spread: spread.list, progress: { rows, bytes, total: bytes } }
}
