import type { SheetFormat } from './import-protocol.ts'

/** Bytes read from the start of a file to tell what it holds (an XML feed may start with blank lines). */
export const SNIFF_BYTES = 64

/** A file the importer refuses, with a message that says why and what to do instead. */
export class UnreadableFile extends Error {
  override name = 'UnreadableFile'
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((byte, i) => bytes[i] === byte)

/** An XML feed's start, after any byte order mark and white space: `<?xml`, `<rss` or `<feed`. */
const looksXml = (head: Uint8Array) =>
  /^\uFEFF?\s*<(\?xml|rss|feed)/.test(new TextDecoder('utf-8', { ignoreBOM: true }).decode(head))

/**
 * Which reader a file goes to, from its first bytes and then its name: a file can be dropped
 * whatever it is called. Text that is not CSV (binary, not UTF-8) is refused by the CSV reader
 * itself, with its own words; a .xml file that is no product feed, by the feed reader.
 */
export function fileKind(name: string, size: number, head: Uint8Array): SheetFormat {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''
  if (size === 0) throw new UnreadableFile('The file is empty.')
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx'
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0]))
    throw new UnreadableFile(
      'It is an old Excel workbook (.xls). Save it as .xlsx or CSV in Excel, then import that.',
    )
  if (extension === 'xlsx') throw new UnreadableFile('It is not an Excel workbook: the file may be damaged.')
  if (extension === 'json') return 'json'
  if (extension === 'xml' || looksXml(head)) return 'xml'
  return 'csv'
}
