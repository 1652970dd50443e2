import { parsePath, getAt, setAt, type PathSegment } from '../json-path.ts'
import { EFFECT_ASSETS_2D_SLOTS, type Sku } from '../schema/sku.ts'
import { validateDocument, type DocumentKind } from '../validation/document.ts'
import type { Problem } from '../validation/problem.ts'
import {
  isMissingField,
  missingMessage,
  missingTitle,
  skuCatalogue,
  validateSku,
} from '../validation/validate.ts'
import { findField } from '../schema/catalogue.ts'
import { fillMissingDefaults } from '../schema/sku-template.ts'
import { isRecord } from '../is-record.ts'
import {
  amountText,
  convertLength,
  type LengthUnit,
  DIMENSION_UNIT,
  isFrameMeasure,
  lengthUnitOf,
  PLATFORM_LENGTH_UNIT,
} from '../values/measure.ts'
import { suggestedSpelling } from '../values/spelling.ts'
import {
  columnTarget,
  describeColumn,
  JSON_COLUMN_PREFIX,
  KEEP_COLUMN_PREFIX,
  OPTION_COLUMN_PREFIX,
  UNIT_COLUMN_PREFIX,
} from './columns.ts'
import { DRAFT_COLUMN, isOwnExport } from './app-columns.ts'
import { categoryPaths } from './category-paths.ts'
import { cellConverter, convertCell, statusAnswerCell, type CellConverter } from './convert.ts'
import { unescapeFormula } from './formula.ts'
import { gtinColumnWarning } from './gtin-column.ts'
import { headerWords, namesWords } from './header-words.ts'
import { isBlankRow, isHelpRow } from './help-row.ts'
import { automaticMapping, OPTIONS_KEY, type SheetMapping } from './mapping.ts'
import {
  matchOptionsOf,
  ParentIndex,
  ProductReader,
  productLayout,
  type ProductCounts,
  type ProductLayout,
  type SourceRow,
} from './products.ts'
import type { CellProblem, Conversion, FieldPath, Measure, RowConversion, RowResult } from './types.ts'

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
  /** For a unit column (`unit:PATH`): the measure it gives the unit of. */
  unitOf?: FieldPath
}

interface CompiledMapping {
  columns: CompiledColumn[]
  /** Field path → the first column filling it, for placing schema problems. */
  byPath: Map<string, CompiledColumn>
  /** Lists filled by position, whose gaps become empty items (`{}`) rather than holes. */
  lists: PathSegment[][]
  /** Fixed values, converted once. */
  constants: { path: FieldPath; segments: PathSegment[]; value: unknown; conversion?: Conversion }[]
  /** Fixed values that cannot be read as their field's kind: every row carries the error. */
  constantErrors: { path: FieldPath; text: string; message: string }[]
  /** Fields whose column is headed by their contract path: read as written (see CellOptions.asWritten). */
  writtenAsIs: Set<FieldPath>
  /** The app's own export: the column naming each row's draft. */
  draftColumn?: number
  /** Columns whose cell is one of the variant's options (`option:NAME`), by position. */
  options: { index: number; name: string }[]
  mapping: SheetMapping
}

// A mapping is compiled once (catalogue lookups, converters), not once a row.
const compiled = new WeakMap<SheetMapping, CompiledMapping>()

function compile(headers: readonly string[], mapping: SheetMapping): CompiledMapping {
  const cached = compiled.get(mapping)
  if (cached) return cached
  const columns: CompiledColumn[] = []
  const byPath = new Map<string, CompiledColumn>()
  const lists = new Map<string, PathSegment[]>()
  const fixed = new Set(Object.keys(mapping.constants))
  const units = new Set<FieldPath>()
  const writtenAsIs = new Set<FieldPath>()
  const ownExport = isOwnExport(headers)
  const options: CompiledMapping['options'] = []
  mapping.columns.forEach((path, index) => {
    if (path === null || path === '') return
    if (path.startsWith(OPTION_COLUMN_PREFIX)) {
      options.push({ index, name: path.slice(OPTION_COLUMN_PREFIX.length).trim() })
      return
    }
    const unitOf = path.startsWith(UNIT_COLUMN_PREFIX) ? path.slice(UNIT_COLUMN_PREFIX.length) : undefined
    const plain = path.startsWith(JSON_COLUMN_PREFIX)
      ? path.slice(JSON_COLUMN_PREFIX.length)
      : path.startsWith(KEEP_COLUMN_PREFIX)
        ? path.slice(KEEP_COLUMN_PREFIX.length)
        : path
    // A field given a fixed value takes it on every row: its column is not read. A field two
    // columns were given goes to the first, as the matcher decides (no cell overwrites another).
    if (fixed.has(plain) || byPath.has(plain) || (unitOf && units.has(unitOf))) return
    const segments = unitOf ? [] : parsePath(plain)
    if (segments.length === 0 && !unitOf) return
    const target = path === plain ? columnTarget(path) : { kind: 'json' as const }
    const header = (headers[index] ?? '').trim()
    const { unit, list } = headerWords(header)
    // The app's own export wrote each cell as the draft holds it, whatever the column's header.
    const asWritten = header === path || ownExport
    if (asWritten) writtenAsIs.add(plain)
    if (unitOf) units.add(unitOf)
    const convert = cellConverter(path, {
      decimalComma: mapping.decimalComma,
      ...(mapping.imageBase && { imageBase: mapping.imageBase }),
      asWritten,
      asExported: ownExport,
      ...(unit && { unit }),
      ...(list && { list }),
    })
    const column: CompiledColumn = {
      index,
      path: plain,
      segments,
      convert: path === 'status' && !ownExport ? statusAnswerCell(convert) : convert,
      slot: target.kind === 'slot' ? target.slot : null,
      ...(unitOf && { unitOf }),
    }
    columns.push(column)
    if (unitOf) return
    byPath.set(plain, column)
    if (column.slot === null) {
      segments.forEach((segment, at) => {
        if (typeof segment === 'number' && at > 0) {
          const list = segments.slice(0, at)
          lists.set(list.join('.'), list)
        }
      })
    }
  })
  const constants: CompiledMapping['constants'] = []
  const constantErrors: CompiledMapping['constantErrors'] = []
  for (const [path, text] of Object.entries(mapping.constants)) {
    const converted = convertCell(path, text, { decimalComma: mapping.decimalComma })
    if ('error' in converted) constantErrors.push({ path, text, message: converted.error })
    else if (converted.value !== undefined)
      constants.push({
        path,
        segments: parsePath(path),
        value: converted.value,
        conversion: converted.conversion,
      })
  }
  const result = {
    columns,
    byPath,
    lists: [...lists.values()],
    constants,
    constantErrors,
    writtenAsIs,
    ...(ownExport && { draftColumn: headers.findIndex((header) => header.trim() === DRAFT_COLUMN) }),
    options,
    mapping,
  }
  compiled.set(mapping, result)
  return result
}

/**
 * The column that answers for a problem at `path`: the field's own, one inside it (unless
 * `!inside`), or one holding it.
 */
function columnFor(mapping: CompiledMapping, path: string, inside = true): CompiledColumn | undefined {
  const own = mapping.byPath.get(path)
  if (own) return own
  const within = inside ? mapping.columns.find((column) => column.path.startsWith(`${path}.`)) : undefined
  if (within) return within
  const segments = path.split('.')
  for (let length = segments.length - 1; length > 0; length--) {
    const holder = mapping.byPath.get(segments.slice(0, length).join('.'))
    if (holder) return holder
  }
  return undefined
}

/**
 * One SKU from its source row (a data row, or a variant with its product's cells filled in).
 * `row` is the 1-based data row (the first row under the header is 1). Unmapped columns are
 * ignored. Cells are converted by their field's kind (see convert.ts), a leading `'` that escaped a
 * formula character on export is removed; fixed values are set, measures settled with their units,
 * a category path split, the variant's options kept, the template's defaults filled where asked;
 * then the SKU is validated. Problems of fields no column fills carry column ''. A variant whose
 * name is its product's (`nameFromProduct`, see SourceRow) is named with its options.
 *
 * 2D slots: when any slot cell of the row is filled, the list is built with all seven slots, the
 * empty ones null. When none is, the list is absent, unless the file has slot columns and the row
 * fills something else of the AR effect: then its seven slots are all empty (the export writes
 * empty slots as empty cells). 3D assets: the list grows to the highest
 * position used, gaps becoming empty assets (which then warn about their missing fields).
 */
export function rowToSku(
  cells: string[],
  headers: readonly string[],
  mapping: SheetMapping,
  row: number,
  formatOptions?: Record<string, string>,
  nameFromProduct = false,
): RowResult {
  const compiledMapping = compile(headers, mapping)
  const { options, own } = rowOptions(compiledMapping, cells, formatOptions)
  const sku: Record<string, unknown> = {}
  const errors: CellProblem[] = []
  const conversions: RowConversion[] = []
  const failed = new Set<string>()
  const measures = new Map<FieldPath, { column: CompiledColumn; measure: Measure }>()
  const units = new Map<FieldPath, string>()
  let slots: unknown[] | null = null
  const cellText = (column: CompiledColumn) => cells[column.index] ?? ''
  const header = (column: CompiledColumn) => headers[column.index] ?? ''

  for (const column of compiledMapping.columns) {
    const raw = cellText(column)
    const text = unescapeFormula(raw)
    if (column.slot !== null && text.trim() === '') continue
    if (column.unitOf) {
      if (text.trim()) units.set(column.unitOf, text)
      continue
    }
    const converted = column.convert(text)
    if ('error' in converted) {
      errors.push({ row, column: header(column), value: raw, message: converted.error })
      failed.add(column.path)
    } else {
      if (converted.conversion) conversions.push({ field: column.path, ...converted.conversion })
      if (converted.measure) measures.set(column.path, { column, measure: converted.measure })
    }
    // A cell that does not convert keeps its text: imported with its errors, the draft still
    // holds what the file said and is invalid until someone fixes it, rather than valid without it.
    const value = 'error' in converted ? text : converted.value
    if (value === undefined) continue
    // A value for another field (a status's yes or no is Active's) yields to that field's own column.
    const field = 'field' in converted ? converted.field : undefined
    if (field) {
      if (!compiledMapping.byPath.has(field)) setAt(sku, parsePath(field), value)
    } else if (column.slot === null) setAt(sku, column.segments, value)
    else (slots ??= emptySlots())[column.slot] = value
  }
  if (!slots && isRecord(sku.arEffect) && compiledMapping.columns.some((column) => column.slot !== null))
    slots = emptySlots()
  if (slots) setAt(sku, SLOTS_PATH, slots)
  for (const list of compiledMapping.lists) {
    const value = getAt(sku, list)
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) if (!(i in value)) value[i] = {}
  }
  for (const problem of settleMeasures(sku, measures, units, conversions)) {
    const column = measures.get(problem.path)?.column
    errors.push({
      row,
      column: column ? header(column) : '',
      value: column ? cellText(column) : '',
      message: problem.message,
    })
    failed.add(problem.path)
  }
  if (!compiledMapping.writtenAsIs.has('category')) splitCategoryPath(sku, conversions)
  // A row with nothing of its own (a totals line, a note) stays empty and is refused as no SKU:
  // fixed values, options and defaults are given only to rows that hold something.
  const ownRow = Object.keys(sku).length > 0
  let filled: string[] = []
  if (ownRow) {
    for (const constant of compiledMapping.constants) {
      setAt(sku, constant.segments, structuredClone(constant.value))
      if (constant.conversion) conversions.push({ field: constant.path, ...constant.conversion })
    }
    for (const { path, text, message } of compiledMapping.constantErrors) {
      errors.push({
        row,
        column: '',
        value: text,
        message: `The fixed value of ${describeColumn(path)}: ${message}`,
      })
      failed.add(path)
    }
    if (options && mapping.keepOptions)
      sku[OPTIONS_KEY] = { ...(isRecord(sku[OPTIONS_KEY]) ? sku[OPTIONS_KEY] : {}), ...options }
    if (compiledMapping.byPath.has('productName'))
      nameWithOptions(sku, nameFromProduct ? options : own, conversions)
    if (mapping.fillDefaults) filled = fillMissingDefaults(sku)
  }

  const draft = draftNamed(compiledMapping, cells)
  const result = validateSku(sku)
  const notGtin = notGtinWarnings(compiledMapping, headers, cells, row, sku.barcode)
  const place = (problem: Problem): CellProblem => {
    // A whole section not filled ("Product details is not filled") is the row's, not the first of
    // its columns' ("Age group: Product details is not filled" was read as Age group's).
    const column = columnFor(compiledMapping, problem.path, !isMissingField(problem))
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
    warnings: [...result.warnings.filter((problem) => !repeats(problem)).map(place), ...notGtin],
    ...(conversions.length && { conversions }),
    ...(filled.length && { filled }),
    ...(draft && { draft }),
    checked: result,
  }
}

/** The draft a row of the app's own export names (its draft column), '' for any other row. */
function draftNamed(compiled: CompiledMapping, cells: readonly string[]): string {
  return compiled.draftColumn === undefined ? '' : (cells[compiled.draftColumn] ?? '').trim()
}

/** The barcode's column's word on a barcode that is no GTIN (gtin-column.ts), as the row's warning. */
function notGtinWarnings(
  compiled: CompiledMapping,
  headers: readonly string[],
  cells: readonly string[],
  row: number,
  barcode: unknown,
): CellProblem[] {
  const column = compiled.byPath.get('barcode')
  const header = column ? (headers[column.index] ?? '') : ''
  const message = column && gtinColumnWarning(header, barcode)
  return message ? [{ row, column: header, value: cells[column.index] ?? '', message }] : []
}

/** A row's seven 2D slots, each empty. */
const emptySlots = (): unknown[] => Array.from({ length: EFFECT_ASSETS_2D_SLOTS }, () => null)

/**
 * A variant named by its product's name with its option values, in the file's order: "Classic Tee
 * – Red / M". Only a name read from the product's column (a fixed name is the person's own).
 */
function nameVariant(
  sku: Record<string, unknown>,
  options: Record<string, string>,
  conversions: RowConversion[],
) {
  const name = sku.productName
  const values = Object.values(options)
  if (typeof name !== 'string' || name.trim() === '' || values.length === 0) return
  const to = `${name.trim()} – ${values.join(' / ')}`
  sku.productName = to
  conversions.push({ field: 'productName', kind: 'variant-name', from: name, to })
}

/**
 * A variant whose name is its product's (`nameFromProduct`) is named with its options, and so is
 * a row whose own `option:NAME` columns (a shade, a size the person chose as options) its name does
 * not say: a tryout's sheet of foundation shades gave 625 SKUs named "Fit Me", told apart by
 * nothing a person sees, and a JSON dump of a shop's gloss shades 8 named alike.
 */
function nameWithOptions(
  sku: Record<string, unknown>,
  options: Record<string, string> | undefined,
  conversions: RowConversion[],
) {
  const name = typeof sku.productName === 'string' ? sku.productName : ''
  if (options && Object.values(options).some((value) => !namesWords(name, value)))
    nameVariant(sku, options, conversions)
}

/**
 * The row's `option:NAME` columns' values. Shopify's "Default Title", the option of a product
 * without options, is none (a JSON dump of a shop's products sent it as a shade).
 */
function optionColumns(
  mapping: CompiledMapping,
  cells: readonly string[],
): Record<string, string> | undefined {
  const chosen: Record<string, string> = {}
  for (const { index, name } of mapping.options) {
    const value = (cells[index] ?? '').trim()
    if (value && value !== 'Default Title') chosen[name] = value
  }
  return Object.keys(chosen).length ? chosen : undefined
}

/**
 * The row's options: its format's (Shopify's, WooCommerce's), then its `option:NAME` columns'
 * (`own`, which alone name a row that is no format's variant).
 */
function rowOptions(
  mapping: CompiledMapping,
  cells: readonly string[],
  options: Record<string, string> | undefined,
): { options: Record<string, string> | undefined; own: Record<string, string> | undefined } {
  if (mapping.options.length === 0) return { options, own: undefined }
  const own = optionColumns(mapping, cells)
  const all = { ...options, ...own }
  return { options: Object.keys(all).length ? all : undefined, own }
}

/**
 * Lengths settled with their units: frame measures as millimetres, a unit dropped; dimensions in
 * the unit `dimensions.unit` names, else the one unit the row's cells use, else (units mixed)
 * centimetres as the platform's SDK, converting where a cell's unit differs. Returns what cannot be.
 */
function settleMeasures(
  sku: Record<string, unknown>,
  measures: ReadonlyMap<FieldPath, { measure: Measure }>,
  units: ReadonlyMap<FieldPath, string>,
  conversions: RowConversion[],
): { path: FieldPath; message: string }[] {
  const problems: { path: FieldPath; message: string }[] = []
  const unitOf = (path: FieldPath, measure: Measure): LengthUnit | undefined | null => {
    const written = units.get(path)
    if (measure.unitInCell || written === undefined) return measure.unit
    return lengthUnitOf(written) ?? null
  }
  const write = (
    path: FieldPath,
    measure: Measure,
    from: LengthUnit | undefined,
    to: LengthUnit | undefined,
  ) => {
    const segments = parsePath(path)
    const before = String(getAt(sku, segments))
    const inUnitColumn = !measure.unitInCell && units.has(path)
    const converting = from !== undefined && to !== undefined && from !== to
    // The text is rewritten only when something about it has to go: a unit written with it (in
    // the cell, or in a PIM's unit column: "140.0000" MILLIMETER → "140"), another unit, or a
    // decimal comma. A plain number stays as written ("52.0" under "Frame width (mm)"), so an
    // export comes back unchanged; every rewrite is counted.
    if (!converting && !measure.unitInCell && !inUnitColumn && !measure.decimalComma) return
    const text = amountText(converting ? convertLength(measure.amount, from, to) : measure.amount)
    setAt(sku, segments, text)
    const written = inUnitColumn ? `${before} ${units.get(path)}` : before
    if (converting)
      conversions.push({
        field: path,
        kind: 'unit-converted',
        from: measure.unitInCell || inUnitColumn ? written : `${before} ${from}`,
        to: `${text} ${to}`,
      })
    else if (measure.unitInCell || inUnitColumn)
      conversions.push({ field: path, kind: 'unit-dropped', from: written, to: text })
    else conversions.push({ field: path, kind: 'decimal-comma', from: before, to: text })
  }
  const dimensions: { path: FieldPath; measure: Measure; unit: LengthUnit | undefined }[] = []
  for (const [path, { measure }] of measures) {
    const unit = unitOf(path, measure)
    if (unit === null) {
      problems.push({
        path,
        message: `${describeColumn(path)}: the unit "${units.get(path)}" is not a length unit (mm, cm, in)`,
      })
      continue
    }
    if (isFrameMeasure(path)) write(path, measure, unit, 'mm')
    else dimensions.push({ path, measure, unit })
  }
  if (dimensions.length === 0) return problems
  const declared = getAt(sku, parsePath(DIMENSION_UNIT))
  const named = typeof declared === 'string' ? lengthUnitOf(declared) : undefined
  const used = new Set(dimensions.flatMap((dimension) => (dimension.unit ? [dimension.unit] : [])))
  const target = named ?? (used.size === 1 ? [...used][0] : used.size > 1 ? PLATFORM_LENGTH_UNIT : undefined)
  for (const dimension of dimensions)
    write(dimension.path, dimension.measure, dimension.unit ?? target, target)
  if (target && declared === undefined) setAt(sku, parsePath(DIMENSION_UNIT), target)
  return problems
}

/**
 * Categories as shops write them: a path ("Eyewear > Sunglasses", WooCommerce's categories, a feed's
 * product type), whose first step is the category and last the sub-category; several joined by
 * commas ("Eyewear > Sunglasses, Clearance"), of which the first path counts; or a PIM's list of
 * codes ("eyewear,sunglasses"), of which the suggested category and sub-category count. A column
 * of its own for the sub-category always wins.
 */
function splitCategoryPath(sku: Record<string, unknown>, conversions: RowConversion[]) {
  const written = sku.category
  if (typeof written !== 'string' || !/[>,]/.test(written)) return
  const entries = categoryPaths(written, '>')
  if (entries.length === 0) return
  const suggested = (field: FieldPath) => findField(skuCatalogue(), parsePath(field)).node.meta.examples
  const spelled = (text: string, field: FieldPath) => suggestedSpelling(text, suggested(field)) ?? text
  const isSuggested = (text: string, field: FieldPath) =>
    suggested(field)?.some((example) => String(example).toLowerCase() === text.toLowerCase()) ?? false
  const path = entries.find((steps) => steps.length > 1)
  let category: string
  let subCategory: string | undefined
  if (path) {
    category = path[0]!
    subCategory = path.at(-1)
  } else {
    // A comma in plain text ("Sun, Sea & Sand") is no list: only codes the platform suggests are.
    const codes = entries.map((steps) => steps[0]!)
    const suggestedCategory = codes.find((code) => isSuggested(code, 'category'))
    if (codes.length < 2 || suggestedCategory === undefined) return
    category = suggestedCategory
    subCategory = codes.find((code) => code !== category && isSuggested(code, 'subCategory'))
  }
  sku.category = spelled(category, 'category')
  const to = [`category ${String(sku.category)}`]
  if (subCategory !== undefined && sku.subCategory === undefined) {
    sku.subCategory = spelled(subCategory, 'subCategory')
    to.push(`sub-category ${String(sku.subCategory)}`)
  }
  conversions.push({ field: 'category', kind: 'category-path', from: written, to: to.join(', ') })
}

/**
 * Missing-field warnings name the field without its list position ("Asset ID is missing"); in a
 * sheet, where each position is its own column, say which ("Asset ID of 3D asset 2 is missing").
 */
function positioned(problem: Problem): string {
  if (!/\.\d+\./.test(problem.path) || missingTitle(problem.message) === undefined) return problem.message
  return missingMessage(describeColumn(problem.path))
}

/**
 * A sheet's rows converted as they stream in, numbered: every row under the header counts (the
 * template's help row and blank rows too), so row N is the file's line N + 1 in a spreadsheet.
 * The help row, blank rows, a Shopify image row and a WooCommerce parent give no result.
 * WooCommerce files need their parents first: pass the {@link ParentIndex} of a first pass.
 */
export class SheetConverter {
  readonly layout: ProductLayout
  private readonly headers: readonly string[]
  private readonly mapping: SheetMapping
  private readonly products: ProductReader
  /** The product name's column is the variant's own (a person's choice): a variant keeps its name. */
  private readonly ownName: boolean
  private row = 0

  constructor(headers: readonly string[], mapping: SheetMapping, parents?: ParentIndex) {
    this.headers = headers
    this.mapping = mapping
    this.layout = parents?.layout ?? productLayout(headers)
    // A variant's barcode is its own: a product's never stands in for an empty one.
    const barcodeColumns = mapping.columns.flatMap((path, column) => (path === 'barcode' ? [column] : []))
    const fieldColumns = mapping.columns.flatMap((path, column) => (path ? [column] : []))
    this.products = new ProductReader(this.layout, parents, barcodeColumns, fieldColumns)
    this.ownName = this.layout.own.has(mapping.columns.indexOf('productName'))
  }

  convert(rows: readonly string[][]): RowResult[] {
    const results: RowResult[] = []
    for (const cells of rows) {
      this.row++
      if (isBlankRow(cells) || isHelpRow(cells)) continue
      const source = this.products.read(this.row, cells)
      if (source) results.push(this.sku(source))
    }
    return results
  }

  /**
   * Rows a reader made itself, each with its product's cells and its options (a JSON product
   * list's, json-table.ts): converted as the rows of a sheet are, the format's reader skipped.
   */
  convertSources(sources: readonly SourceRow[]): RowResult[] {
    return sources.map((source) => this.sku(source))
  }

  private sku(source: SourceRow): RowResult {
    const named = source.nameFromProduct === true && !this.ownName
    return rowToSku(source.cells, this.headers, this.mapping, source.row, source.options, named)
  }

  /** Products and variants found so far. */
  get productCounts(): ProductCounts {
    return this.products.summary
  }
}

/** The first pass a format needs before its rows can be read in order (WooCommerce's parents), if any. */
export function parentIndexFor(headers: readonly string[]): ParentIndex | undefined {
  const index = new ParentIndex(productLayout(headers))
  return index.needed ? index : undefined
}

/** A whole sheet at once, its format's parents found first; the mapping defaults to the automatic one. */
export function convertSheet(
  sheet: { headers: string[]; rows: string[][] },
  mapping?: SheetMapping,
): RowResult[] {
  return readSheet(sheet, mapping).results
}

/** A whole sheet at once, with the products and variants found. */
export function readSheet(
  sheet: { headers: string[]; rows: string[][] },
  mapping?: SheetMapping,
): { results: RowResult[]; products: ProductCounts; layout: ProductLayout } {
  const parents = parentIndexFor(sheet.headers)
  if (parents) for (const cells of sheet.rows) parents.add(cells)
  const layout = parents?.layout ?? productLayout(sheet.headers)
  const used = mapping ?? automaticMapping(sheet.headers, matchOptionsOf(layout))
  const converter = new SheetConverter(sheet.headers, used, parents)
  const results = converter.convert(sheet.rows)
  return { results, products: converter.productCounts, layout }
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
