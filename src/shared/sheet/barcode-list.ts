import { pathParameter } from '../service/operations.ts'
import { matchColumns } from './columns.ts'
import { parseCsvText, type ParsedSheet } from './csv.ts'
import { decodeText } from './decode.ts'
import { SheetFileError } from './errors.ts'
import { unescapeFormula } from './formula.ts'
import { wordsOf } from './header-words.ts'
import { readXlsx } from './xlsx.ts'

/**
 * A list of barcodes someone took from the platform (the service has no read endpoint, so this is
 * how an app or a script learns what it holds): a CSV, a plain text file with one barcode a line,
 * or an XLSX workbook's first sheet; either one column of barcodes, or a sheet with a column the
 * importer would read as the barcode ("barcode", "EAN", "GTIN", …), other columns ignored. A file
 * exported from the app's own list of undecided drafts reads back as it is.
 *
 * Barcodes are text: leading zeros stay, surrounding spaces go, and a cell escaped against formula
 * injection on export (`'=…`) loses its escape. Blank cells are skipped and repeats counted once.
 *
 * A sheet whose barcode column is named may also carry the platform's id of each SKU, in a column
 * headed `_id`, `id`, `skuId`, "SKU id" or "platform id" (`ID_HEADINGS`): read as text the same
 * way, a blank id cell gives that barcode none. An id that could not travel in the update's path
 * (`pathParameter`), or a barcode listed with two ids, refuses the whole list by its row or its
 * barcode: the same id twice is the same SKU.
 */
export interface BarcodeList {
  /** Each barcode once, in the order first met. */
  barcodes: string[]
  /** The heading of the column read; absent for a plain list without one. */
  column?: string
  /** From a sheet with an id column: its heading, and the platform's id of each barcode that has one. */
  ids?: { column: string; byBarcode: ReadonlyMap<string, string> }
}

/**
 * Why a file is not a barcode list. Nothing is read from a file that raises it: a list read in
 * part would leave the rest to be sent again, and that is how duplicates are made.
 */
export class BarcodeListError extends Error {
  override name = 'BarcodeListError'
}

/** How a spreadsheet shows a long number it did not keep as text (as validation refuses it). */
const SHORTENED_NUMBER = /^\d(?:[.,]\d+)?E\+\d+$/i
/** A barcode is a code, not prose: longer than this, the file is not a list of them. */
const MAX_BARCODE_CHARS = 128
/**
 * The headings of a column of the platform's ids, as words (`wordsOf`: `_id` and `ID` read "id",
 * `skuId` and "SKU id" read "sku id"), the first found in this order when a sheet has several.
 */
const ID_HEADINGS = ['id', 'sku id', 'platform id', 'platform sku id']
/** An id longer than this is cut in a message: the row is named, the cell need not be shown whole. */
const SHOWN_ID_CHARS = 40

/** Reads a barcode list from a file's bytes; throws `BarcodeListError` saying what is wrong. */
export async function readBarcodeList(bytes: Uint8Array): Promise<BarcodeList> {
  const sheet = await readSheet(bytes)
  const { index, heading, withHeader } = barcodeColumn(sheet)
  const idAt = heading === undefined ? undefined : idColumn(sheet, index)
  // The header row is row 1 of the file, as a spreadsheet numbers it.
  const cells: Array<{ text: string; idText: string; row: number }> = sheet.rows.map((cells, i) => ({
    text: cells[index] ?? '',
    idText: idAt === undefined ? '' : (cells[idAt.index] ?? ''),
    row: i + 2,
  }))
  if (withHeader) cells.unshift({ text: sheet.headers[index] ?? '', idText: '', row: 1 })
  const seen = new Set<string>()
  /** Per barcode, its id and the row that gave it first. */
  const ids = new Map<string, { id: string; row: number }>()
  for (const { text, idText, row } of cells) {
    const barcode = unescapeFormula(text.trim())
    if (barcode === '') continue
    if (SHORTENED_NUMBER.test(barcode))
      throw new BarcodeListError(
        `Row ${row} holds "${barcode}": a barcode a spreadsheet shortened to a number, its digits lost. Format the column as text and paste the barcodes again.`,
      )
    if (barcode.length > MAX_BARCODE_CHARS || /[\r\n]/.test(barcode))
      throw new BarcodeListError(
        `Row ${row} holds ${barcode.length} characters of text, not a barcode. Is it a list of barcodes?`,
      )
    seen.add(barcode)
    if (idAt === undefined) continue
    const id = listedId(idText, row, idAt.heading)
    if (id === undefined) continue
    const first = ids.get(barcode)
    if (first === undefined) ids.set(barcode, { id, row })
    else if (first.id !== id)
      throw new BarcodeListError(
        `Barcode ${barcode} is listed with two ids: ${first.id} and ${id} (rows ${first.row} and ${row}). The platform keeps one SKU a barcode: keep the row of the right one.`,
      )
  }
  const list: BarcodeList = { barcodes: [...seen] }
  if (heading !== undefined) list.column = heading
  if (idAt !== undefined)
    list.ids = {
      column: idAt.heading,
      byBarcode: new Map([...ids].map(([barcode, { id }]) => [barcode, id])),
    }
  return list
}

/** The column of the platform's ids beside a named barcode column, if the sheet has one. */
function idColumn(sheet: ParsedSheet, barcodeAt: number): { index: number; heading: string } | undefined {
  const words = sheet.headers.map(wordsOf)
  for (const heading of ID_HEADINGS) {
    const index = words.findIndex((found, i) => i !== barcodeAt && found === heading)
    if (index >= 0) return { index, heading: sheet.headers[index]!.trim() }
  }
  return undefined
}

/** A row's id cell as text (blank: none), or why it cannot be the platform's id of a SKU. */
function listedId(cell: string, row: number, column: string): string | undefined {
  const id = unescapeFormula(cell.trim())
  if (id === '') return undefined
  if (pathParameter().safeParse(id).success) return id
  const shown = id.length > SHOWN_ID_CHARS ? `${id.slice(0, SHOWN_ID_CHARS)}…` : id
  const why = SHORTENED_NUMBER.test(id)
    ? 'a number a spreadsheet shortened, its digits lost: format the column as text and paste the ids again'
    : 'an id goes into the address of its update, so it holds letters, digits, "-" and "_" only, at most 128'
  throw new BarcodeListError(`Row ${row} holds the id "${shown}" in the column "${column}": ${why}.`)
}

async function readSheet(bytes: Uint8Array): Promise<ParsedSheet> {
  if (bytes.length === 0) throw new BarcodeListError('The file is empty.')
  try {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) return await readXlsx(bytes)
    if (bytes[0] === 0xd0 && bytes[1] === 0xcf)
      throw new BarcodeListError(
        'It is an old Excel workbook (.xls). Save it as .xlsx or CSV, then use that.',
      )
    const text = decodeText(bytes)
    // A JSON file read as CSV would give a column of fragments that match nothing: say what it is.
    if (/^\uFEFF?\s*[[{]/.test(text))
      throw new BarcodeListError('It is JSON, not a list of barcodes: use a CSV, XLSX or text file.')
    return parseCsvText(text)
  } catch (error) {
    if (error instanceof SheetFileError) throw new BarcodeListError(error.message)
    throw error
  }
}

/**
 * Which column holds the barcodes. A column the importer would map to the barcode wins; else a
 * sheet of one column is the list, and its first cell is a barcode too unless it holds no digit
 * (then it is a heading, such as "Codes").
 */
function barcodeColumn(sheet: ParsedSheet): { index: number; heading?: string; withHeader: boolean } {
  const named = matchColumns(sheet.headers).find((match) => match.path === 'barcode')
  if (named) return { index: named.column, heading: named.header, withHeader: false }
  if (sheet.headers.length === 1) {
    const first = sheet.headers[0]!.trim()
    return /\d/.test(first) ? { index: 0, withHeader: true } : { index: 0, heading: first, withHeader: false }
  }
  throw new BarcodeListError(
    `It has ${sheet.headers.length} columns and none is headed "barcode": use one column of barcodes, or head the column that holds them "barcode".`,
  )
}
