import { openAsBlob } from 'node:fs'
import { open } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { messageOf } from '#shared/error-message.ts'
import { CliError } from './io.ts'

/**
 * An input file opened to be read as it streams: its format, by the name's extension or else by
 * its first bytes, and the file as a Blob, whose stretches are read from the disk when asked for
 * (`fs.openAsBlob`: the app's CSV reader takes the same Blob it takes in the page).
 */

export type InputFormat = 'json' | 'csv' | 'xlsx' | 'xml'

export interface InputFile {
  /** As the person typed it, for messages. */
  name: string
  format: InputFormat
  blob: Blob
}

/** Why a file could not be opened, in words. */
export const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a folder',
}

export function readError(error: unknown): string {
  return READ_ERRORS[(error as { code?: string }).code ?? ''] ?? messageOf(error)
}

/**
 * The largest workbook read. An XLSX is a zip of XML that read-excel-file unpacks and reads whole:
 * measured on full-column rows, 40,000 rows (an 8.2 MB file) took the CLI to 484 MB, 10,000 rows
 * (2.1 MB) to 252 MB, so 8 MB (about 40,000 such rows) keeps it within 500 MB. CSV and JSON are
 * read as they stream, at any size.
 */
export const MAX_XLSX_BYTES = 8 * 1024 * 1024

const BY_EXTENSION: Record<string, InputFormat> = {
  '.json': 'json',
  '.csv': 'csv',
  '.tsv': 'csv',
  '.xlsx': 'xlsx',
  '.xls': 'xlsx',
  '.xml': 'xml',
}

const SNIFF_BYTES = 64 * 1024

/** Opens FILE (relative to `cwd`); failures are CliErrors naming the file and why. */
export async function openInputFile(name: string, cwd: string): Promise<InputFile> {
  const path = resolve(cwd, name)
  try {
    // Opened once here so that a missing, unreadable or folder path is said plainly: a Blob
    // would only fail when read, in words of its own.
    const handle = await open(path, 'r')
    try {
      if ((await handle.stat()).isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' })
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw new CliError(`Cannot read ${name}: ${readError(error)}`)
  }
  const blob = await openAsBlob(path)
  const format = BY_EXTENSION[extname(name).toLowerCase()] ?? (await sniff(blob))
  if (format === 'xlsx' && blob.size > MAX_XLSX_BYTES) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
    throw new CliError(
      `Cannot read ${name}: the workbook is ${mb(blob.size)}, and a workbook is read whole, up to ${mb(MAX_XLSX_BYTES)} (about 40,000 rows of every column). Save it as CSV UTF-8, which is read as it streams, whatever its size.`,
    )
  }
  return { name, format, blob }
}

/**
 * The format by the first bytes: a ZIP (or old OLE) workbook; after any BOM and spaces, JSON, an
 * XML feed (`<?xml`, `<rss`, `<feed`), or else CSV.
 */
async function sniff(blob: Blob): Promise<InputFormat> {
  for (let at = 0; at < blob.size; at += SNIFF_BYTES) {
    const bytes = new Uint8Array(await blob.slice(at, at + SNIFF_BYTES).arrayBuffer())
    let i = 0
    if (at === 0) {
      if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'xlsx'
      if (bytes[0] === 0xd0 && bytes[1] === 0xcf) return 'xlsx'
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3
    }
    while (i < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[i]!)) i++
    if (i < bytes.length) {
      if (bytes[i] === 0x7b || bytes[i] === 0x5b) return 'json'
      const start = new TextDecoder().decode(bytes.subarray(i, i + 5))
      return /^<(\?xml|rss|feed)/.test(start) ? 'xml' : 'csv'
    }
  }
  return 'csv'
}
