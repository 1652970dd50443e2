import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import {
  imageBaseProblem,
  parseMappingFile,
  type MappingFile,
  type SheetMapping,
} from '#shared/sheet/mapping.ts'
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
  /** The address the shop's pictures are at, for pictures given as paths (mapping.ts `imageBase`). */
  imageBase?: string
  /** Print the mapping used. */
  showMapping?: boolean
  /** PrestaShop's combinations file, read with the products file as its variants (prestashop-pair.ts). */
  combinations?: string
}

/** The options as `parseArgs` declares them, for each command's table. */
export const SHEET_ARGS = {
  mapping: { type: 'string' },
  'decimal-comma': { type: 'boolean' },
  'image-base': { type: 'string' },
  'show-mapping': { type: 'boolean' },
  combinations: { type: 'string' },
} as const

/** The usage lines of these options, for each command's help. */
export const SHEET_OPTIONS_USAGE = `  --mapping FILE  Read sheets with the mapping FILE (saved by the app's import, or printed by
                  --show-mapping): which column fills which field by header ("SKU Code":
                  "barcode" makes a shop's code the barcode; null drops a column; "keep:price"
                  keeps one as an extra field; "option:Shade" makes one a variant's option),
                  fixed values for every row, defaults, decimals. Headers it does not name are
                  matched as without it. A JSON product list's columns are its JSON paths
                  ("product_colors[].colour_name"); it is read only with a mapping.
  --decimal-comma The sheet writes decimals with a comma: "1,5" is 1.5 (and "1.5" an error).
                  Without it "1,5" is an error naming its row and column, never 15.
  --image-base URL The address the shop's pictures are at, for a sheet that gives each as a
                  path in the shop (Magento's "/m/b/mb01.jpg" with
                  https://shop.example/media/catalog/product): each path is read with it.
                  Without it such a path is an error; no address is guessed.
  --show-mapping  Print the mapping used (a mapping file, to save and edit) before the report;
                  with --json, as "mapping" in the JSON.
  --combinations FILE  PrestaShop's combinations file, read with the products file given (the
                  two are told apart by their headers): each combination is a SKU with its
                  product's name, brand, category and picture, its own EAN13, UPC and
                  reference, and its attributes as options; a product with combinations is no
                  SKU itself. The combinations file alone is refused.
`

export async function sheetOptions(
  values: {
    mapping?: string
    'decimal-comma'?: boolean
    'image-base'?: string
    'show-mapping'?: boolean
    combinations?: string
  },
  cwd: string,
): Promise<SheetOptions> {
  const options: SheetOptions = {}
  if (values.mapping !== undefined) options.mapping = await readMappingFile(values.mapping, cwd)
  if (values['decimal-comma']) options.decimalComma = true
  const imageBase = values['image-base']
  if (imageBase !== undefined) {
    const problem = imageBaseProblem(imageBase)
    if (problem) throw new CliError(`--image-base: ${problem}`)
    options.imageBase = imageBase.trim()
  }
  if (values['show-mapping']) options.showMapping = true
  if (values.combinations !== undefined) options.combinations = values.combinations
  return options
}

/** What the command line says over the mapping: decimals with a comma, the pictures' address. */
export function applyCommandLine(mapping: SheetMapping, options: SheetOptions): void {
  if (options.decimalComma) mapping.decimalComma = true
  if (options.imageBase) mapping.imageBase = options.imageBase
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

/** The mapping used, as a mapping file, when asked (nothing for JSON of SKUs, which has no columns). */
export function showMapping(mapping: MappingFile | undefined, options: SheetOptions): string {
  if (!options.showMapping || !mapping) return ''
  return `mapping used (save it as a file to edit and pass with --mapping):\n${JSON.stringify(mapping, null, 2)}\n`
}
