import Papa from 'papaparse'
import { skuColumns } from './columns.ts'
import { textChunks } from './decode.ts'
import { SheetFileError } from './errors.ts'
import { escapeFormula } from './formula.ts'
import { columnHelpNote, isBlankRow, isColumnHelpRow } from './help-row.ts'
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_PENDING_CHARS } from './limits.ts'
import { lineOf } from './places.ts'

/**
 * CSV in and out. Reading: the delimiter is detected among comma, semicolon, tab and |; line
 * breaks may be CRLF, LF or CR, mixed in one file too (each becomes LF before parsing, inside
 * quoted cells as well); quoted cells may hold delimiters, quotes ("") and line breaks; a byte
 * order mark is dropped. Rows shorter than the header get empty cells; cells beyond the last
 * header are ignored, and said so once (in `notes`). Blank lines before the header are rows of the
 * sheet as a spreadsheet shows it: they are handed over as blank rows ahead of the data, so each
 * data row keeps its line (a WordPress export that begins with a line break has its header on
 * line 2), and a byte order mark after them is dropped from the header. A line of help for each
 * column above the header (Meta's catalog template: `isColumnHelpRow`) is read as those are.
 *
 * Papa Parse's own worker mode is not used: it builds a blob worker, which the app's Content
 * Security Policy forbids, and the app already runs this whole pipeline in its own worker.
 */

export interface ParsedSheet {
  headers: string[]
  rows: string[][]
  /** Things the user should know that did not stop the reading (cells beyond the header). */
  notes: string[]
}

const DELIMITERS = [',', ';', '\t', '|']
const SNIFF_CHARS = 64 * 1024

const count = (n: number) => n.toLocaleString('en-US')

/** The incremental core shared by the string and the streaming reader. */
function csvReader() {
  let pending = ''
  /** A CR that ended the last text: the next may start with the LF that completes it. */
  let heldCr = false
  let parser: Papa.Parser | null = null
  let headers: string[] | null = null
  let dataRows = 0
  /** Blank lines before the header, until it comes. */
  let blankBefore = 0
  let sawText = false
  const notes: string[] = []

  const checkCells = (cells: string[], row: number) => {
    for (let i = 0; i < cells.length; i++) {
      const length = cells[i]!.length
      if (length > MAX_CELL_CHARS) {
        const where = row === 0 ? 'The header' : `Line ${count(lineOf(row))}`
        const column = headers?.[i] ?? `column ${i + 1}`
        throw new SheetFileError(
          'huge-cell',
          `${where}, column "${column.slice(0, 60)}", holds ${(length / MAX_CELL_CHARS).toFixed(1)} MB of text; a cell may hold at most 1 MB. Is a quote (") left open?`,
        )
      }
    }
  }

  const takeHeader = (cells: string[]) => {
    if (cells.length > MAX_COLUMNS) throw tooManyColumns(cells.length)
    checkCells(cells, 0)
    if (cells.length === 1 && /[;:|\t,]/.test(cells[0]!)) throw oneColumn(cells[0]!)
    // The text's own byte order mark is gone already; one after blank lines or spaces is not text.
    cells[0] = cells[0]!.replace(/^\s*\uFEFF/, '')
    headers = cells
  }

  /** Feeds text; returns the data rows completed by it. `last` ends the file. */
  const push = (text: string, last: boolean): string[][] => {
    let lines = (heldCr ? '\r' : '') + text
    heldCr = !last && lines.endsWith('\r')
    if (heldCr) lines = lines.slice(0, -1)
    pending += lines.replace(/\r\n?/g, '\n')
    if (pending.length > 0) sawText = true
    if (!parser) {
      if (!last && pending.length < SNIFF_CHARS && !/\n[^]*\n/.test(pending)) return []
      const cut = pending.lastIndexOf('\n')
      const sample = last || cut < 0 ? pending : pending.slice(0, cut)
      const guess = Papa.parse<string[]>(sample.slice(0, SNIFF_CHARS), {
        delimitersToGuess: DELIMITERS,
        newline: '\n',
        preview: 20,
        // The empty "row" after a final line break would count against the right delimiter.
        skipEmptyLines: true,
      })
      parser = new Papa.Parser({ delimiter: guess.meta.delimiter || ',', newline: '\n' })
    }
    // The line break that ends the last line does not start another (empty) row.
    if (last && pending.endsWith('\n')) pending = pending.slice(0, -1)
    const result = parser.parse(pending, 0, !last) as Papa.ParseResult<string[]>
    pending = last ? '' : pending.slice(result.meta.cursor)
    if (last) {
      const unclosed = result.errors.find((error) => error.code === 'MissingQuotes')
      if (unclosed) throw unclosedQuote(unclosed.row ?? 0, result.data, { headers, dataRows, blankBefore })
    }
    if (pending.length > MAX_PENDING_CHARS) {
      throw new SheetFileError(
        'unclosed-quote',
        `Line ${count(lineOf(dataRows + 1))} is longer than ${MAX_PENDING_CHARS / MAX_CELL_CHARS} MB: a quote (") is not closed, or a cell is far too large.`,
      )
    }
    const out: string[][] = []
    for (const cells of result.data) {
      if (headers === null) {
        // Help for each column is read as blank lines are: rows of the sheet, so each data row
        // keeps its line.
        const help = isColumnHelpRow(cells)
        if (help || isBlankRow(cells)) {
          blankBefore++
          if (help) notes.push(columnHelpNote(blankBefore))
          continue
        }
        takeHeader(cells)
        out.push(...Array.from({ length: blankBefore }, () => (headers as string[]).map(() => '')))
        dataRows += blankBefore
        continue
      }
      dataRows++
      const width = (headers as string[]).length
      checkCells(cells, dataRows)
      if (cells.length > width) {
        const extra = cells.slice(width)
        if (notes.length === 0 && !isBlankRow(extra)) {
          notes.push(
            `Line ${count(lineOf(dataRows))} has ${count(cells.length)} cells but the header names ${count(width)} columns; cells beyond the last column are ignored.`,
          )
        }
        cells.length = width
      }
      while (cells.length < width) cells.push('')
      out.push(cells)
    }
    if (last && headers === null) {
      throw sawText
        ? new SheetFileError('no-header', 'The file has no header row: it holds only blank lines.')
        : new SheetFileError('empty', 'The file is empty.')
    }
    return out
  }

  return { push, headers: () => headers ?? [], notes }
}

function tooManyColumns(columns: number): SheetFileError {
  return new SheetFileError(
    'too-many-columns',
    `The file has ${count(columns)} columns; the contract has ${skuColumns().length} and at most ${count(MAX_COLUMNS)} are read. Is it a SKU sheet?`,
  )
}

/** A header of one cell that holds what would separate columns: they were not told apart. */
function oneColumn(header: string): SheetFileError {
  return new SheetFileError(
    'one-column',
    `1 column found, headed "${header.slice(0, 80)}": the columns could not be told apart. Separate them with commas, semicolons, tabs or |, the same number in every row.`,
  )
}

/**
 * A quote never closed, at Papa's row `at` of the file's last batch, said with its line. Papa counts
 * that batch's rows from 0: from the blank lines before the header not yet counted and the header
 * when they are in the batch, from the next data row otherwise. The lines before the header count
 * as rows (see above).
 */
function unclosedQuote(
  at: number,
  batch: readonly string[][],
  read: { headers: string[] | null; dataRows: number; blankBefore: number },
): SheetFileError {
  const row =
    read.headers !== null
      ? read.dataRows + at + 1
      : at === batch.findIndex((cells) => !isBlankRow(cells))
        ? 0
        : read.blankBefore + at
  return new SheetFileError(
    'unclosed-quote',
    `A quote (") opened in ${row === 0 ? 'the header' : `line ${count(lineOf(row))}`} is never closed, so the rest of the file would be one cell.`,
  )
}

/** A whole CSV text at once (small files, tests, the CLI). */
export function parseCsvText(text: string): ParsedSheet {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  if (source.includes('\0')) {
    throw new SheetFileError(
      'binary',
      'The file is not text: it looks like a binary file (a workbook or an image).',
    )
  }
  const reader = csvReader()
  const rows = reader.push(source, true)
  return { headers: reader.headers(), rows, notes: reader.notes }
}

export interface CsvHandlers {
  onHeader(headers: string[]): void
  onRows(rows: string[][], progress: { bytes: number; total: number }): void | Promise<void>
}

export interface CsvStreamOptions {
  signal?: AbortSignal
  /** Bytes read at a time (default 1 MB). */
  chunkBytes?: number
}

/**
 * Reads a CSV in chunks, handing over rows as they complete, so a file of 100,000 rows never sits
 * in memory whole. `onRows` may return a promise; reading waits for it. Throws SheetFileError for a
 * file it cannot read (see errors.ts), or the signal's reason when aborted.
 */
export async function streamCsv(
  input: string | Blob,
  handlers: CsvHandlers,
  options: CsvStreamOptions = {},
): Promise<{ rows: number; notes: string[] }> {
  const reader = csvReader()
  let announced = false
  let rows = 0
  for await (const chunk of textChunks(input, options.chunkBytes ?? 1024 * 1024, options.signal)) {
    const completed = reader.push(chunk.text, chunk.last)
    if (!announced && reader.headers().length > 0) {
      announced = true
      handlers.onHeader(reader.headers())
    }
    if (completed.length > 0) {
      rows += completed.length
      await handlers.onRows(completed, { bytes: chunk.bytes, total: chunk.total })
    }
    options.signal?.throwIfAborted()
  }
  return { rows, notes: reader.notes }
}

/**
 * RFC 4180 CSV: comma-separated, CRLF line ends, cells quoted when they hold a quote, comma or
 * line break. It starts with a UTF-8 byte order mark, without which Excel reads UTF-8 as the
 * local code page and mangles accented names. Cells are escaped against formula injection
 * (formula.ts).
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return CSV_START + [headers, ...rows].map(csvLine).join(CSV_LINE_END) + CSV_LINE_END
}

/** How toCsv's text starts (the byte order mark) and ends each line, for a writer that streams. */
export const CSV_START = '\uFEFF'
export const CSV_LINE_END = '\r\n'

/** One line of toCsv's text, without its end. */
export function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => quote(escapeFormula(cell))).join(',')
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell
}
