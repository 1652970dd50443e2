import { openAsBlob } from 'node:fs'
import { open } from 'node:fs/promises'
import { resolve } from 'node:path'
import { messageOf } from '#shared/error-message.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import type { FileKind } from '#shared/sheet/file-kind.ts'
import { kindOf } from '#shared/sheet/read-rows.ts'
import { CliError } from './io.ts'

/**
 * An input file opened to be read as it streams: its format, told by file-kind.ts as the import's
 * worker tells it, and the file as a Blob, whose stretches are read from the disk when asked for
 * (`fs.openAsBlob`: the app's CSV reader takes the same Blob it takes in the page).
 */

export interface InputFile {
  /** As the person typed it, for messages. */
  name: string
  format: FileKind
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
  let format: FileKind
  try {
    format = await kindOf(name, blob)
  } catch (error) {
    if (error instanceof SheetFileError) throw new CliError(`Cannot read ${name}: ${error.message}`)
    throw error
  }
  if (format === 'xlsx' && blob.size > MAX_XLSX_BYTES) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
    throw new CliError(
      `Cannot read ${name}: the workbook is ${mb(blob.size)}, and a workbook is read whole, up to ${mb(MAX_XLSX_BYTES)} (about 40,000 rows of every column). Save it as CSV UTF-8, which is read as it streams, whatever its size.`,
    )
  }
  return { name, format, blob }
}
