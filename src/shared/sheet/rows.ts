import { parsePath, getAt, setAt, type PathSegment } from '../json-path.ts'
import { EFFECT_ASSETS_2D_SLOTS, type Sku } from '../schema/sku.ts'
import { validateDocument, type DocumentKind } from '../validation/document.ts'
import type { Problem } from '../validation/problem.ts'
import { validateSku } from '../validation/validate.ts'
import { columnTarget, describeColumn, JSON_COLUMN_PREFIX, matchColumns, mappingOf } from './columns.ts'
import { cellConverter, type CellConverter } from './convert.ts'
import { unescapeFormula } from './formula.ts'
import { isBlankRow, isHelpRow } from './help-row.ts'
import type { CellProblem, ColumnMapping, FieldPath, RowResult } from './types.ts'

/**
 * Data rows of a sheet turned into SKU payloads, checked by the same `validateSku` as the editor,
 * with every problem placed at the row and the column it came from.
 */

const SLOTS_PATH: PathSegment[] = ['arEffect', 'effectAssets2D']

interface CompiledColumn {
  index: number
  path: FieldPath
  segments: PathSegment[]
  convert: CellConverter
  /** For a 2D slot column, its slot; the slots are assembled into one list after the row is read. */
  slot: number | null
}

interface CompiledMapping {
  columns: CompiledColumn[]
  /** Field path → the first column filling it, for placing schema problems. */
  byPath: Map<string, CompiledColumn>
  /** Lists filled by position, whose gaps become empty items (`{}`) rather than holes. */
  lists: PathSegment[][]
}

// A mapping is compiled once (catalogue lookups, converters), not once a row.
const compiled = new WeakMap<ColumnMapping, CompiledMapping>()

function compile(mapping: ColumnMapping): CompiledMapping {
  const cached = compiled.get(mapping)
  if (cached) return cached
  const columns: CompiledColumn[] = []
  const byPath = new Map<string, CompiledColumn>()
  const lists = new Map<string, PathSegment[]>()
  mapping.forEach((path, index) => {
    if (path === null || path === '') return
    const plain = path.startsWith(JSON_COLUMN_PREFIX) ? path.slice(JSON_COLUMN_PREFIX.length) : path
    const segments = parsePath(plain)
    if (segments.length === 0) return
    const target = path === plain ? columnTarget(path) : { kind: 'json' as const }
    const column: CompiledColumn = {
      index,
      path: plain,
      segments,
      convert: cellConverter(path),
      slot: target.kind === 'slot' ? target.slot : null,
    }
    columns.push(column)
    if (!byPath.has(plain)) byPath.set(plain, column)
    if (column.slot === null) {
      segments.forEach((segment, at) => {
        if (typeof segment === 'number' && at > 0) {
          const list = segments.slice(0, at)
          lists.set(list.join('.'), list)
        }
      })
    }
  })
  const result = { columns, byPath, lists: [...lists.values()] }
  compiled.set(mapping, result)
  return result
}

/** The column that answers for a problem at `path`: the field's own, one inside it, or one holding it. */
function columnFor(mapping: CompiledMapping, path: string): CompiledColumn | undefined {
  const own = mapping.byPath.get(path)
  if (own) return own
  const inside = mapping.columns.find((column) => column.path.startsWith(`${path}.`))
  if (inside) return inside
  const segments = path.split('.')
  for (let length = segments.length - 1; length > 0; length--) {
    const holder = mapping.byPath.get(segments.slice(0, length).join('.'))
    if (holder) return holder
  }
  return undefined
}

/**
 * One data row as a SKU. `row` is the 1-based data row (the first row under the header is 1).
 * Unmapped columns are ignored. Cells are converted by their field's kind (see convert.ts), a
 * leading `'` that escaped a formula character on export is removed, and the assembled SKU is
 * validated; problems of fields no column fills carry column ''.
 *
 * 2D slots: when any slot cell of the row is filled, the list is built with all seven slots, the
 * empty ones null; when none is, the list is absent. 3D assets: the list grows to the highest
 * position used, gaps becoming empty assets (which then warn about their missing fields).
 */
export function rowToSku(cells: string[], headers: string[], mapping: ColumnMapping, row: number): RowResult {
  const compiledMapping = compile(mapping)
  const sku: Record<string, unknown> = {}
  const errors: CellProblem[] = []
  const failed = new Set<string>()
  let slots: unknown[] | null = null
  const cellText = (column: CompiledColumn) => cells[column.index] ?? ''
  const header = (column: CompiledColumn) => headers[column.index] ?? ''

  for (const column of compiledMapping.columns) {
    const raw = cellText(column)
    const text = unescapeFormula(raw)
    if (column.slot !== null && text.trim() === '') continue
    const converted = column.convert(text)
    if ('error' in converted) {
      errors.push({ row, column: header(column), value: raw, message: converted.error })
      failed.add(column.path)
    }
    // A cell that does not convert keeps its text: imported with its errors, the draft still
    // holds what the file said and is invalid until someone fixes it, rather than valid without it.
    const value = 'error' in converted ? text : converted.value
    if (value === undefined) continue
    if (column.slot !== null) {
      slots ??= Array.from({ length: EFFECT_ASSETS_2D_SLOTS }, () => null)
      slots[column.slot] = value
    } else {
      setAt(sku, column.segments, value)
    }
  }
  if (slots) setAt(sku, SLOTS_PATH, slots)
  for (const list of compiledMapping.lists) {
    const value = getAt(sku, list)
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) if (!(i in value)) value[i] = {}
  }

  const result = validateSku(sku)
  const place = (problem: Problem): CellProblem => {
    const column = columnFor(compiledMapping, problem.path)
    return {
      row,
      column: column ? header(column) : '',
      value: column ? cellText(column) : '',
      message: positioned(problem),
    }
  }
  // A cell that could not be converted already has its error: the schema's about the text it kept
  // would repeat it, and so would "missing" for it or for the section holding it.
  const aboutFailed = (problem: Problem) =>
    [...failed].some((path) => problem.path === path || problem.path.startsWith(`${path}.`))
  const repeats = (problem: Problem) =>
    aboutFailed(problem) || [...failed].some((path) => path.startsWith(`${problem.path}.`))
  return {
    row,
    sku: sku as Sku,
    errors: [...errors, ...result.errors.filter((problem) => !aboutFailed(problem)).map(place)],
    warnings: result.warnings.filter((problem) => !repeats(problem)).map(place),
  }
}

/**
 * Missing-field warnings name the field without its list position ("Asset ID is missing"); in a
 * sheet, where each position is its own column, say which ("Asset ID of 3D asset 2 is missing").
 */
function positioned(problem: Problem): string {
  if (!/\.\d+\./.test(problem.path) || !problem.message.endsWith(' is missing')) return problem.message
  return `${describeColumn(problem.path)} is missing`
}

/**
 * Converts rows as they stream in, numbering them: every row under the header counts (the
 * template's help row and blank rows too), so row N is the file's line N + 1 in a spreadsheet.
 * The help row and blank rows give no result.
 */
export function rowConverter(headers: string[], mapping: ColumnMapping): (rows: string[][]) => RowResult[] {
  let row = 0
  return (rows) => {
    const results: RowResult[] = []
    for (const cells of rows) {
      row++
      if (isBlankRow(cells) || isHelpRow(cells)) continue
      results.push(rowToSku(cells, headers, mapping, row))
    }
    return results
  }
}

/** A whole sheet at once; the mapping defaults to the automatic one of {@link matchColumns}. */
export function convertSheet(
  sheet: { headers: string[]; rows: string[][] },
  mapping: ColumnMapping = mappingOf(matchColumns(sheet.headers)),
): RowResult[] {
  return rowConverter(sheet.headers, mapping)(sheet.rows)
}

export interface DocumentResults {
  kind: DocumentKind
  results: RowResult[]
  /** Problems with the document itself (row 0, column = the path, such as "skus"). */
  documentErrors: CellProblem[]
}

/**
 * A JSON file in the same terms as a sheet, so the importer and the CLI treat all file types
 * alike: row = the item's position + 1, column = the problem's dotted path, value = the value
 * there as text (JSON for lists and objects).
 */
export function documentToResults(document: unknown): DocumentResults {
  const report = validateDocument(document)
  const results = report.reports.map((item): RowResult => {
    const value = report.items[item.index]
    const row = item.index + 1
    const place = (problem: Problem): CellProblem => ({
      row,
      column: problem.path,
      value: cellOf(getAt(value, parsePath(problem.path))),
      message: problem.message,
    })
    return { row, sku: value as Sku, errors: item.errors.map(place), warnings: item.warnings.map(place) }
  })
  const documentErrors = report.documentErrors.map((problem): CellProblem => ({
    row: 0,
    column: problem.path,
    value: cellOf(getAt(document, parsePath(problem.path))),
    message: problem.message,
  }))
  return { kind: report.kind, results, documentErrors }
}

function cellOf(value: unknown): string {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  return JSON.stringify(value) ?? ''
}
