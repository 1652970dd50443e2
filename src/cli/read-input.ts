import { readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { parseCsvText, type ParsedSheet } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { CliError } from './io.ts'
import { READ_ERRORS, readJsonFile } from './read-json.ts'

/** What an input file held: a JSON document, or a sheet read from CSV or XLSX. */
export type InputFile = { format: 'json'; document: unknown } | { format: 'csv' | 'xlsx'; sheet: ParsedSheet }

const BY_EXTENSION: Record<string, 'json' | 'csv' | 'xlsx'> = {
  '.json': 'json',
  '.csv': 'csv',
  '.tsv': 'csv',
  '.xlsx': 'xlsx',
  '.xls': 'xlsx',
}

/** The format by the name's extension, else by the first bytes: a ZIP (or old OLE) workbook, JSON, or CSV. */
function sniff(bytes: Uint8Array): 'json' | 'csv' | 'xlsx' {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'xlsx'
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf) return 'xlsx'
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  while (at < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[at]!)) at++
  return bytes[at] === 0x7b || bytes[at] === 0x5b ? 'json' : 'csv'
}

/** Reads FILE (relative to `cwd`) as JSON, CSV or XLSX. Failures are CliErrors naming the file and why. */
export async function readInputFile(file: string, cwd: string): Promise<InputFile> {
  let format = BY_EXTENSION[extname(file).toLowerCase()]
  // JSON by its name goes through the JSON reader exactly as before sheets were accepted.
  if (format === 'json') return { format, document: await readJsonFile(file, cwd) }
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await readFile(resolve(cwd, file)))
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    throw new CliError(`Cannot read ${file}: ${READ_ERRORS[code] ?? (error as Error).message}`)
  }
  format ??= sniff(bytes)
  if (format === 'json') return { format, document: await readJsonFile(file, cwd) }
  try {
    const sheet = format === 'xlsx' ? await readXlsx(bytes) : parseCsvText(decodeText(bytes))
    return { format, sheet }
  } catch (error) {
    if (error instanceof SheetFileError) throw new CliError(`Cannot read ${file}: ${error.message}`)
    throw error
  }
}
