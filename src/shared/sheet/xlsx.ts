import { readSheet } from 'read-excel-file/universal'
import writeXlsxFile from 'write-excel-file/universal'
import type { Cell, Row } from 'write-excel-file/universal'
import { SheetFileError } from './errors.ts'
import { NOT_XLSX_MESSAGE, OLD_XLS_MESSAGE } from './file-kind.ts'
import { escapeFormula, isPlainNumber } from './formula.ts'
import { columnHelpNote, isBlankRow, isColumnHelpRow } from './help-row.ts'
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_XLSX_UNPACKED_BYTES } from './limits.ts'
import { lineOf, thousands } from './places.ts'
import type { ParsedSheet } from './csv.ts'
import { DamagedZipError, unpackedSize, type UnpackedSize } from './unpacked-size.ts'
import { andList } from '../and-list.ts'
import { formatBytes } from '../byte-size.ts'
import { messageOf } from '../error-message.ts'

/**
 * XLSX in and out, through the universal builds of read-excel-file and write-excel-file (no DOM,
 * no Node: they run in the app's worker, the renderer and the CLI alike).
 *
 * Reading takes the first sheet and turns every cell into the text the user sees, so the same
 * typed conversion as for CSV applies: numbers without binary float noise (15 significant digits,
 * as Excel shows them), booleans as TRUE/FALSE, dates as ISO text (YYYY-MM-DD when there is no
 * time of day).
 */

type Bytes = ArrayBuffer | Uint8Array | Blob

async function toInput(bytes: Bytes): Promise<ArrayBuffer> {
  if (bytes instanceof ArrayBuffer) return bytes
  if (bytes instanceof Uint8Array) return bytes.slice().buffer as ArrayBuffer
  return await bytes.arrayBuffer()
}

function numberText(raw: string): string {
  const number = Number(raw)
  if (!Number.isFinite(number)) return raw
  return String(Number(number.toPrecision(15)))
}

function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (typeof value === 'number') return numberText(String(value))
  if (value instanceof Date) return dateText(value)
  return String(value)
}

export async function readXlsx(bytes: Bytes): Promise<ParsedSheet> {
  const input = await toInput(bytes)
  const head = new Uint8Array(input, 0, Math.min(4, input.byteLength))
  if (input.byteLength === 0) throw new SheetFileError('empty', 'The file is empty.')
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) {
    throw new SheetFileError('old-xls', OLD_XLS_MESSAGE)
  }
  if (head[0] !== 0x50 || head[1] !== 0x4b) {
    throw new SheetFileError('not-xlsx', NOT_XLSX_MESSAGE)
  }
  const workbook = await refuseLargeUnpacked(new Uint8Array(input))
  let data: unknown[][]
  try {
    // Numbers come as the workbook stores them (text), so no float noise is added on the way.
    data = (await readSheet(input, {
      trim: false,
      parseNumber: (text: string) => numberText(text),
    })) as unknown[][]
  } catch (error) {
    const detail = messageOf(error)
    throw new SheetFileError(
      'not-xlsx',
      `The workbook cannot be read: it is damaged, cut short or not an XLSX file (${detail}).`,
    )
  }
  const cells = data.map((row) => row.map(cellText))
  // Blank rows above the header are rows of the sheet as the spreadsheet shows them: handed over as
  // blank rows ahead of the data (as csv.ts does), so each data row keeps its line. So is a row of
  // help for each column (Meta's catalog template).
  const header = cells.findIndex((row) => !isBlankRow(row) && !isColumnHelpRow(row))
  const headerCells = header < 0 ? undefined : cells[header]
  if (!headerCells) throw new SheetFileError('empty', 'The workbook’s first sheet is empty.')
  const rows = [...cells.slice(0, header).map((): string[] => []), ...cells.slice(header + 1)]
  // Empty columns at the right of the header are formatting, not columns.
  let width = headerCells.length
  while (width > 0 && headerCells[width - 1] === '') width--
  if (width > MAX_COLUMNS) {
    throw new SheetFileError(
      'too-many-columns',
      `The sheet has ${width.toLocaleString('en-US')} columns; at most ${MAX_COLUMNS.toLocaleString('en-US')} are read. Is it a SKU sheet?`,
    )
  }
  const notes = cells
    .slice(0, header)
    .flatMap((row, index) => (isBlankRow(row) ? [] : [columnHelpNote(index + 1)]))
  const headers = headerCells.slice(0, width)
  rows.forEach((cells, index) => {
    const huge = cells.findIndex((cell) => cell.length > MAX_CELL_CHARS)
    if (huge >= 0) {
      throw new SheetFileError(
        'huge-cell',
        `Line ${thousands(lineOf(index + 1))}, column "${headers[huge] ?? huge + 1}", holds more than 1 MB of text; a cell may hold at most 1 MB.`,
      )
    }
    if (cells.length > width) {
      if (notes.length === 0 && !isBlankRow(cells.slice(width))) {
        notes.push(
          `Line ${thousands(lineOf(index + 1))} has cells beyond the ${width} columns the header names; they are ignored.`,
        )
      }
      cells.length = width
    }
    while (cells.length < width) cells.push('')
  })
  // Trailing blank rows are formatting left behind, not data.
  while (rows.length > 0 && isBlankRow(rows[rows.length - 1]!)) rows.pop()
  const others = otherSheetsNote(sheetNames(workbook))
  if (others) notes.push(others)
  return { headers, rows, notes }
}

/** Other sheets named at most: a workbook of a sheet a month would say them all. */
const NAMED_SHEETS = 5

/**
 * Says that the sheets after the first were not read, naming them: a workbook of products and
 * variants on two sheets would otherwise be read without a word as its products alone.
 */
function otherSheetsNote(names: readonly string[]): string | undefined {
  if (names.length < 2) return undefined
  const others = names.slice(1)
  const named = others.slice(0, NAMED_SHEETS).map((name) => `“${name}”`)
  const more = others.length - named.length
  const list = more > 0 ? `${named.join(', ')} and ${thousands(more)} more` : andList(named)
  return `The workbook has ${thousands(names.length)} sheets: the first, “${names[0]}”, is read; ${list} ${others.length === 1 ? 'is' : 'are'} not. To import another, move it first, or save it alone as CSV.`
}

/**
 * The names of a workbook's sheets in their order (its `xl/workbook.xml`), the first being the one
 * read-excel-file reads. None when the part is missing or names none.
 */
export function sheetNames(workbookXml: Uint8Array | undefined): string[] {
  if (!workbookXml) return []
  const xml = new TextDecoder().decode(workbookXml)
  const names: string[] = []
  for (const [, attributes] of xml.matchAll(/<(?:[\w.-]+:)?sheet\s([^>]*)>/g)) {
    const name = /(?:^|\s)name\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(attributes!)
    if (name) names.push(xmlText(name[1] ?? name[2]!))
  }
  return names
}

/** An attribute's text with XML's five entities and its character references read. */
function xmlText(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return named[ref] ?? whole
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/** The workbook's part that lists its sheets (ECMA-376's usual name, which Excel and LibreOffice write). */
const WORKBOOK_PART = 'xl/workbook.xml'

/**
 * Refuses a workbook that unpacks to more than the limit, before read-excel-file unpacks any of it
 * (unpacked-size.ts: the sizes its entries declare, then what they really inflate to, counted and
 * stopped at the limit). The caller names the file. Answers the workbook part's bytes, kept on the way.
 */
async function refuseLargeUnpacked(zip: Uint8Array<ArrayBuffer>): Promise<Uint8Array | undefined> {
  let size: UnpackedSize
  try {
    size = await unpackedSize(zip, MAX_XLSX_UNPACKED_BYTES, WORKBOOK_PART)
  } catch (error) {
    if (!(error instanceof DamagedZipError)) throw error
    throw new SheetFileError(
      'not-xlsx',
      `The workbook cannot be read: it is damaged, cut short or not an XLSX file (${error.message}).`,
    )
  }
  if (size.within) return size.kept
  const limit = formatBytes(MAX_XLSX_UNPACKED_BYTES)
  const what =
    'inflatedPast' in size
      ? `unpacks to more than ${limit}, though its entries say ${formatBytes(size.declared)} (it is damaged, or made to mislead)`
      : `unpacks to ${formatBytes(size.declared)}`
  throw new SheetFileError(
    'too-large',
    `The workbook ${what}, and a workbook is read whole, up to ${limit} unpacked. Save it as CSV UTF-8, which is read as it streams, whatever its size.`,
  )
}

export interface XlsxOptions {
  /** Sheet name (default "SKUs"). */
  sheet?: string
  /** Rows at the top written bold and kept in view (default 1: the header). */
  headerRows?: number
  /**
   * Columns (by position) whose plain-number cells are written as numbers, so they stay numbers
   * in the spreadsheet and a negative one needs no escaping. Every other cell is text, escaped
   * against formula injection like CSV.
   */
  numberColumns?: ReadonlySet<number>
}

export async function writeXlsx(rows: string[][], options: XlsxOptions = {}): Promise<Uint8Array> {
  const headerRows = options.headerRows ?? 1
  const numbers = options.numberColumns ?? new Set<number>()
  const data: Row[] = rows.map((cells, rowIndex) =>
    cells.map((cell, column): Cell => {
      if (rowIndex < headerRows) return { value: escapeFormula(cell), type: String, fontWeight: 'bold' }
      if (cell === '') return null
      if (numbers.has(column) && isPlainNumber(cell.trim())) return { value: Number(cell), type: Number }
      return { value: escapeFormula(cell), type: String }
    }),
  )
  const blob = await writeXlsxFile(data, {
    sheet: options.sheet ?? 'SKUs',
    stickyRowsCount: headerRows,
  }).toBlob()
  return new Uint8Array(await blob.arrayBuffer())
}
