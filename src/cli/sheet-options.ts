import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseMappingFile, type MappingFile } from '#shared/sheet/mapping.ts'
import { CliError } from './io.ts'
import { READ_ERRORS } from './input-file.ts'

/**
 * How `validate`, `convert` and `push` read a sheet beyond its headers: a mapping file saved by the
 * app (or written by hand, or printed by --show-mapping), and whether the file writes decimals
 * with a comma. Shared by the three commands, so one file is read the same way by each.
 */
export interface SheetOptions {
  mapping?: MappingFile
  decimalComma?: boolean
  /** Print the mapping used. */
  showMapping?: boolean
}

/** The options as `parseArgs` declares them, for each command's table. */
export const SHEET_ARGS = {
  mapping: { type: 'string' },
  'decimal-comma': { type: 'boolean' },
  'show-mapping': { type: 'boolean' },
} as const

/** The usage lines of these options, for each command's help. */
export const SHEET_OPTIONS_USAGE = `  --mapping FILE  Read sheets with the mapping FILE (saved by the app's import, or printed by
                  --show-mapping): which column fills which field by header ("SKU Code":
                  "barcode" makes a shop's code the barcode; null drops a column; "keep:price"
                  keeps one as an extra field), fixed values for every row, defaults, decimals.
                  Headers it does not name are matched as without it.
  --decimal-comma The sheet writes decimals with a comma: "1,5" is 1.5 (and "1.5" an error).
                  Without it "1,5" is an error naming its row and column, never 15.
  --show-mapping  Print the mapping used (a mapping file, to save and edit) before the report;
                  with --json, as "mapping" in the JSON.
`

export async function sheetOptions(
  values: { mapping?: string; 'decimal-comma'?: boolean; 'show-mapping'?: boolean },
  cwd: string,
): Promise<SheetOptions> {
  const options: SheetOptions = {}
  if (values.mapping !== undefined) options.mapping = await readMappingFile(values.mapping, cwd)
  if (values['decimal-comma']) options.decimalComma = true
  if (values['show-mapping']) options.showMapping = true
  return options
}

async function readMappingFile(file: string, cwd: string): Promise<MappingFile> {
  let text: string
  try {
    text = await readFile(resolve(cwd, file), 'utf8')
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    throw new CliError(`Cannot read the mapping ${file}: ${READ_ERRORS[code] ?? (error as Error).message}`)
  }
  try {
    return parseMappingFile(text)
  } catch (error) {
    throw new CliError(`The mapping ${file} cannot be used: ${(error as Error).message}`)
  }
}

/** The mapping used, as a mapping file, when asked (nothing for JSON input, which has no columns). */
export function showMapping(mapping: MappingFile | undefined, options: SheetOptions): string {
  if (!options.showMapping || !mapping) return ''
  return `mapping used (save it as a file to edit and pass with --mapping):\n${JSON.stringify(mapping, null, 2)}\n`
}
