import { isOwnExport } from './app-columns.ts'
import { z } from '../schema/zod.ts'
import { messageOf } from '../error-message.ts'
import { isMeasure } from '../values/measure.ts'
import {
  isContractColumn,
  JSON_COLUMN_PREFIX,
  KEEP_COLUMN_PREFIX,
  matchColumns,
  OPTION_COLUMN_PREFIX,
  UNIT_COLUMN_PREFIX,
  type MatchOptions,
} from './columns.ts'
import { convertCell } from './convert.ts'
import { keepKeyProblem } from './reading-words.ts'
import type { ColumnMapping, ColumnMatch, FieldPath } from './types.ts'

/**
 * How a file's rows become SKUs, beyond which column fills which field: fixed values, defaults,
 * how the file writes decimals, and the variants' options. The app's mapping screen edits one;
 * the app and the CLI save and load it as a JSON file (a mapping made for a shop's export is made
 * once, by whoever knows the file, and used by everyone after).
 */
export interface SheetMapping {
  /**
   * The field each column fills, by position: a path, `keep:KEY`, `json:PATH`, `unit:PATH`,
   * `option:NAME` (the variant's option NAME), or null (ignored).
   */
  columns: ColumnMapping
  /** Text put in a field on every row, read as a cell of that field would be (Status = DRAFT). */
  constants: Record<FieldPath, string>
  /** Fields the template gives a new draft (transform, environment, 2D slots…) filled where the row has none. */
  fillDefaults: boolean
  /** The file writes decimals with a comma: "1,5" is 1.5. */
  decimalComma: boolean
  /** A variant's options (colour, size) kept on its SKU under `options`. */
  keepOptions: boolean
  /**
   * The web address the shop's pictures are at, for a file that gives each as a path in the shop
   * (Magento's "/m/b/mb01.jpg": "https://shop.example/media/catalog/product"); none: such a path is
   * refused.
   */
  imageBase?: string
}

/** Settings of a mapping that do not depend on the file's columns. */
export type MappingSettings = Omit<SheetMapping, 'columns'>

/** What a mapping starts with; see {@link defaultSettings} for a file's own. */
export const DEFAULT_SETTINGS: MappingSettings = {
  constants: {},
  fillDefaults: true,
  decimalComma: false,
  keepOptions: true,
}

/** The key a variant's options are kept under: `{"options": {"Color": "Black"}}`. */
export const OPTIONS_KEY = 'options'

/**
 * The settings a file starts with. Catalog Desk's own export (with its draft column), or a file
 * whose every column it fills is named by its contract path (written from drafts by path), carries
 * each draft's fields as they are: the new-SKU defaults would add what the drafts did not have, so
 * they are not filled. The import template, headed by titles, is filled in by people: it is neither.
 */
export function defaultSettings(matches: readonly ColumnMatch[]): MappingSettings {
  const filled = matches.filter((match) => match.path !== null)
  const ownExport =
    isOwnExport(matches.map((match) => match.header)) ||
    (filled.length > 0 && filled.every((match) => match.by === 'path'))
  return { ...DEFAULT_SETTINGS, constants: {}, fillDefaults: !ownExport }
}

/** The mapping of a file's matched columns, with the settings given (the defaults otherwise). */
export function sheetMapping(
  matches: readonly ColumnMatch[],
  settings: Partial<MappingSettings> = {},
): SheetMapping {
  return { ...defaultSettings(matches), ...settings, columns: matches.map((match) => match.path) }
}

/** Mapping of a plain sheet: automatic matching and the default settings. */
export function automaticMapping(headers: readonly string[], options?: MatchOptions): SheetMapping {
  return sheetMapping(matchColumns(headers, options))
}

/**
 * A mapping file: choices by header text (so it applies to any file with those headers, in any
 * column order), and the settings. Headers it does not name are matched automatically.
 */
export interface MappingFile extends Partial<MappingSettings> {
  columns: Record<string, FieldPath | null>
}

/** Marks a file as one of ours, with the version of its shape. */
export const MAPPING_FILE_FORMAT = 'catalog-desk-mapping/1'

const mappingFileSchema = z.strictObject({
  format: z.literal(MAPPING_FILE_FORMAT),
  columns: z.record(z.string(), z.string().min(1).nullable()).default({}),
  constants: z.record(z.string().min(1), z.string()).optional(),
  fillDefaults: z.boolean().optional(),
  decimalComma: z.boolean().optional(),
  keepOptions: z.boolean().optional(),
  imageBase: z.string().optional(),
})

export class MappingFileError extends Error {
  override name = 'MappingFileError'
}

/** Reads a mapping file's text; what is wrong is said with the key it is at. */
export function parseMappingFile(text: string): MappingFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new MappingFileError(`It is not JSON: ${messageOf(error)}`)
  }
  const parsed = mappingFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = issue.path.length ? `at "${issue.path.join('.')}"` : 'at the top'
    const what =
      issue.path[0] === 'format'
        ? `it is not a Catalog Desk mapping (it needs "format": "${MAPPING_FILE_FORMAT}")`
        : issue.message
    throw new MappingFileError(`${where}: ${what}`)
  }
  // Settings the file leaves out follow the file being read (see defaultSettings).
  const { columns, constants, fillDefaults, decimalComma, keepOptions, imageBase } = parsed.data
  const baseProblem = imageBase === undefined ? undefined : imageBaseProblem(imageBase)
  if (baseProblem) throw new MappingFileError(`at "imageBase": ${baseProblem}`)
  for (const [header, path] of Object.entries(columns)) {
    const problem = path === null ? undefined : targetProblem(path)
    if (problem) throw new MappingFileError(`at "columns.${header}": ${problem}`)
  }
  for (const [path, text] of Object.entries(constants ?? {})) {
    const problem = isContractColumn(path) ? undefined : `“${path}” is not a field of the contract`
    const converted = problem ? undefined : convertCell(path, text, { decimalComma })
    const wrong = problem ?? (converted && 'error' in converted ? converted.error : undefined)
    if (wrong) throw new MappingFileError(`at "constants.${path}": ${wrong}`)
  }
  return {
    columns,
    ...(constants && { constants }),
    ...(fillDefaults !== undefined && { fillDefaults }),
    ...(decimalComma !== undefined && { decimalComma }),
    ...(keepOptions !== undefined && { keepOptions }),
    ...(imageBase !== undefined && { imageBase }),
  }
}

/** Why `text` cannot be the address of a shop's pictures, or undefined when it can. */
export function imageBaseProblem(text: string): string | undefined {
  try {
    const url = new URL(text.trim())
    if (url.protocol === 'https:' || url.protocol === 'http:') return undefined
  } catch {
    // Said below.
  }
  return `the pictures’ address must be a web address starting with http:// or https://, not ${JSON.stringify(text)}`
}

/** Why a mapping file's column cannot fill `path`, or undefined when it can. */
function targetProblem(path: FieldPath): string | undefined {
  if (path.startsWith(JSON_COLUMN_PREFIX))
    return path.length > JSON_COLUMN_PREFIX.length ? undefined : 'a JSON column names its field: "json:PATH"'
  if (path.startsWith(KEEP_COLUMN_PREFIX)) return keepKeyProblem(path.slice(KEEP_COLUMN_PREFIX.length))
  if (path.startsWith(OPTION_COLUMN_PREFIX))
    return path.slice(OPTION_COLUMN_PREFIX.length).trim()
      ? undefined
      : 'a variant option column names its option: "option:Shade"'
  if (path.startsWith(UNIT_COLUMN_PREFIX))
    return isMeasure(path.slice(UNIT_COLUMN_PREFIX.length))
      ? undefined
      : `“${path}” is not the unit of a length`
  if (isContractColumn(path)) return undefined
  return `“${path}” is not a field of the contract; to keep the column as an extra field, write "keep:${path}"`
}

/** The mapping file of a file's mapping: every header named, so the file says what was used. */
export function mappingFileOf(
  headers: readonly string[],
  mapping: SheetMapping,
): MappingFile & { format: string } {
  const columns: Record<string, FieldPath | null> = {}
  headers.forEach((header, index) => {
    // The first of two columns with one header speaks for both: a file keys columns by header.
    if (header.trim() && !Object.hasOwn(columns, header)) columns[header] = mapping.columns[index] ?? null
  })
  const { constants, fillDefaults, decimalComma, keepOptions, imageBase } = mapping
  return {
    format: MAPPING_FILE_FORMAT,
    columns,
    constants,
    fillDefaults,
    decimalComma,
    keepOptions,
    ...(imageBase && { imageBase }),
  }
}

/** A file's mapping from a mapping file: its choices by header, the other headers matched automatically. */
export function applyMappingFile(
  headers: readonly string[],
  file: MappingFile = { columns: {} },
  options: Omit<MatchOptions, 'saved'> = {},
): { mapping: SheetMapping; matches: ColumnMatch[] } {
  const matches = matchColumns(headers, { ...options, saved: file.columns })
  const { columns: _columns, ...settings } = file
  // Settings the file leaves out follow the file as read without it: its choices are all "saved".
  const defaults = defaultSettings(matchColumns(headers, options))
  return { mapping: { ...defaults, ...settings, columns: matches.map((match) => match.path) }, matches }
}
