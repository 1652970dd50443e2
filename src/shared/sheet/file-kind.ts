import { SheetFileError } from './errors.ts'

/**
 * Which reader a file goes to, told the same way in the import's worker and the CLI: by its first
 * bytes where they are sure (a zip is a workbook, whatever its name), then by its name, then by its
 * first bytes again. Shops export "Excel" files that are not: an .xls may be CSV text, an HTML
 * table, or a real old BIFF workbook, and only the bytes tell them apart.
 */

export type FileKind = 'csv' | 'xlsx' | 'json' | 'xml'

/** Bytes read from the start of a file to tell what it holds (a feed may start with blank lines). */
export const SNIFF_BYTES = 4096

/** An old .xls workbook, and an encrypted .xlsx, are both OLE compound files. */
export const OLD_XLS_MESSAGE =
  'The file is an old Excel workbook (.xls) or a password-protected one. Save it as .xlsx (Excel Workbook) or CSV UTF-8.'

export const NOT_XLSX_MESSAGE = 'The file is not an XLSX workbook. Choose an .xlsx, a .csv or a .json file.'

const WEB_PAGE_MESSAGE =
  'The file is a web page (HTML), whatever its name says: some shops export a table so. Open it in Excel and save it as .xlsx (Excel Workbook) or CSV UTF-8.'

const ZIP = [0x50, 0x4b, 0x03, 0x04]
const OLE = [0xd0, 0xcf, 0x11, 0xe0]

/** Names that say "a sheet of text": read as CSV unless the bytes say otherwise. */
const TEXT_SHEET = new Set(['csv', 'tsv', 'txt', 'xls'])

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((byte, i) => bytes[i] === byte)

/** The head as text, from its first character that is not a byte order mark or white space. */
const leadingText = (head: Uint8Array) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(head).replace(/^\uFEFF?\s*/, '')

/**
 * The reader for a file called NAME whose first bytes (up to SNIFF_BYTES) are HEAD. Throws a
 * SheetFileError for what no reader takes: an old or encrypted workbook, a web page, a file named
 * .xlsx that is no zip. Text that is not CSV after all is refused by the CSV reader in its words.
 */
export function fileKind(name: string, head: Uint8Array): FileKind {
  if (startsWith(head, ZIP)) return 'xlsx'
  if (startsWith(head, OLE)) throw new SheetFileError('old-xls', OLD_XLS_MESSAGE)
  const text = leadingText(head)
  if (/^<(!doctype\s+html|html)[\s>]/i.test(text)) throw new SheetFileError('web-page', WEB_PAGE_MESSAGE)
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''
  if (extension === 'xlsx')
    throw head.length === 0
      ? new SheetFileError('empty', 'The file is empty.')
      : new SheetFileError('not-xlsx', NOT_XLSX_MESSAGE)
  if (extension === 'json') return 'json'
  if (extension === 'xml' || /^<(\?xml|rss|feed)/.test(text)) return 'xml'
  if (TEXT_SHEET.has(extension)) return 'csv'
  return /^[[{]/.test(text) ? 'json' : 'csv'
}
