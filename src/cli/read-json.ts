import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/json-depth.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { CliError } from './io.ts'

export const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a folder',
}

/**
 * Reads and parses a JSON file named as the user typed it (relative to `cwd`). Failures say which
 * file and why, with the parser's position, since the point of the CLI is to find what to fix.
 */
export async function readJsonFile(file: string, cwd: string): Promise<unknown> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(resolve(cwd, file))
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    throw new CliError(`Cannot read ${file}: ${READ_ERRORS[code] ?? (error as Error).message}`)
  }
  // Strict, as for sheets: a Latin-1 "é" would otherwise become "�" in the SKU without a word.
  // A byte order mark (editors on Windows save one; JSON.parse rejects it) is dropped.
  let text: string
  try {
    text = decodeText(bytes, 'json')
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`)
  }
  if (text.trim() === '') throw new CliError(`Cannot parse ${file} as JSON: the file is empty`)
  let document: unknown
  try {
    document = JSON.parse(text) as unknown
  } catch (error) {
    throw new CliError(`Cannot parse ${file} as JSON: ${(error as Error).message}`)
  }
  if (nestsDeeperThan(document)) {
    throw new CliError(
      `Cannot use ${file}: it nests objects or lists more than ${MAX_JSON_DEPTH} levels deep`,
    )
  }
  return document
}
