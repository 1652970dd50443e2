import type { FieldNode } from '../schema/catalogue.ts'
import type { Sku } from '../schema/sku.ts'
import { skuCatalogue } from '../validation/validate.ts'
import { columnTarget, describeColumn, JSON_COLUMN_PREFIX, skuColumns } from './columns.ts'
import type { FieldPath } from './types.ts'
import { isPlainTextCell } from './convert.ts'
import { toCsv } from './csv.ts'
import { writeXlsx } from './xlsx.ts'
import { isRecord } from '../is-record.ts'

/**
 * Drafts out as a sheet: one row a SKU, headed by the fields' titles ("Position X", "Model address
 * of 3D asset 1"), their contract paths, or the headers a mapping file gives them. What the
 * catalogue's columns cannot hold goes into extra `json:PATH` columns whose cells are JSON, after
 * the contract's columns: fields the contract does not name (at any level), and a list or group
 * whose value is not of its shape (an empty 3D asset list, a 2D list that is not seven slots); a
 * text there is written as it is, unless it would read back as something else ("12", "true": then
 * quoted, see `isPlainTextCell`). A 2D slot is its JSON, and an empty slot an empty cell. Columns
 * of the app's own (the draft, its sync state, its problems: src/shared/sheet/app-columns.ts) may
 * follow; with the draft column the importer knows the file and reads every cell as written.
 *
 * The round trip JSON → sheet → JSON is exact for valid drafts, except what one cell cannot tell
 * apart: an absent value and empty text in a field that does not allow empty text (both an empty
 * cell, read back as absent), an absent allowEmpty field (orgId, actionUrl: read back as ""), and
 * an absent 2D list beside other AR effect fields (seven empty cells, read back as seven empty slots).
 */

export interface SheetData {
  headers: string[]
  rows: string[][]
}

/** A sheet of drafts: what each of its columns holds, by contract path ('' for a column of `extra`). */
export interface SkuSheet extends SheetData {
  paths: string[]
}

function leafText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value) ?? ''
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key))

/** The cells of one SKU by column name, and the extra JSON columns it needs in the order met. */
function skuCells(sku: unknown): Map<string, string> {
  const cells = new Map<string, string>()
  const json = (path: string, value: unknown) =>
    cells.set(
      `${JSON_COLUMN_PREFIX}${path}`,
      typeof value === 'string' && isPlainTextCell(value) ? value : (JSON.stringify(value) ?? ''),
    )
  const visit = (node: FieldNode, value: unknown, path: string) => {
    if (node.item && node.meta.kind === 'slots') {
      if (!Array.isArray(value) || value.length !== 7) return json(path, value)
      value.forEach((slot, i) => cells.set(join(path, i), slot == null ? '' : JSON.stringify(slot)))
    } else if (node.item) {
      if (!Array.isArray(value) || value.length === 0) return json(path, value)
      const item = node.item
      value.forEach((entry, i) => {
        if (item.children.length > 0 && isRecord(entry)) visit(item, entry, join(path, i))
        else if (item.children.length === 0 && item.meta.kind !== 'section')
          cells.set(join(path, i), leafText(entry))
        else json(join(path, i), entry)
      })
    } else if (node.children.length > 0 || node.meta.kind === 'section') {
      if (!isRecord(value)) return json(path, value)
      for (const [key, child] of Object.entries(value)) {
        if (child === undefined) continue
        const childNode = node.children.find((candidate) => candidate.key === key)
        if (childNode) visit(childNode, child, join(path, key))
        else json(join(path, key), child)
      }
    } else {
      cells.set(path, leafText(value))
    }
  }
  visit(skuCatalogue(), sku, '')
  return cells
}

/** How the contract's columns are headed: their titles, their paths, or a mapping file's headers by path. */
export type HeaderStyle = 'titles' | 'paths' | { names: Readonly<Record<FieldPath, string>> }

export interface SheetOptions {
  headers?: HeaderStyle
  /** Columns after the fields (the app's own), one row of cells a SKU in the same order. */
  extra?: SheetData
}

/** A column's header in the style asked for; a `json:` column is always named by its path. */
function headerOf(path: string, style: HeaderStyle): string {
  if (style === 'paths' || path.startsWith(JSON_COLUMN_PREFIX)) return path
  if (style === 'titles') return describeColumn(path)
  return style.names[path] ?? describeColumn(path)
}

/**
 * A sheet of drafts built as they come, for a writer that cannot hold them all (the CLI's
 * `convert`): `add` turns a draft into its cells, kept by the order their columns were first met;
 * once every draft is added, `paths` are the sheet's columns and `row` puts a draft's cells under
 * them. The contract's columns come first (3D assets spread over as many positions as the drafts
 * use, at least one), then the extra JSON columns any draft needs, in the order met.
 */
export class SkuSheetBuilder {
  private assets = 1
  private readonly met = new Map<string, number>()

  /** The draft's cells, by the order of their columns (undefined where it has none). */
  add(sku: Sku): string[] {
    const list = (sku as { arEffect?: { effectAssets3D?: unknown } }).arEffect?.effectAssets3D
    if (Array.isArray(list)) this.assets = Math.max(this.assets, list.length)
    const cells: string[] = []
    for (const [column, text] of skuCells(sku)) {
      let at = this.met.get(column)
      if (at === undefined) this.met.set(column, (at = this.met.size))
      cells[at] = text
    }
    return cells
  }

  paths(): string[] {
    const paths = skuColumns({ assets3D: this.assets })
    const known = new Set(paths)
    for (const column of this.met.keys()) if (!known.has(column)) paths.push(column)
    return paths
  }

  /** A draft's cells (as `add` gave them, or after a JSON round trip: null where it has none) under `paths`. */
  row(cells: readonly (string | null | undefined)[], paths: readonly string[]): string[] {
    return paths.map((path) => {
      const at = this.met.get(path)
      return (at === undefined ? undefined : cells[at]) ?? ''
    })
  }
}

/** The sheet of some drafts (see SkuSheetBuilder), then `extra`. */
export function skusToSheet(skus: readonly Sku[], options: SheetOptions = {}): SkuSheet {
  const builder = new SkuSheetBuilder()
  const all = skus.map((sku) => builder.add(sku))
  const paths = builder.paths()
  const style = options.headers ?? 'titles'
  const extra = options.extra ?? { headers: [], rows: [] }
  return {
    paths: [...paths, ...extra.headers.map(() => '')],
    headers: [...paths.map((path) => headerOf(path, style)), ...extra.headers],
    rows: all.map((cells, i) => [...builder.row(cells, paths), ...(extra.rows[i] ?? [])]),
  }
}

/** Columns whose cells are numbers, by their contract paths, so XLSX stores them as numbers. */
export function numberColumns(paths: readonly string[]): Set<number> {
  const out = new Set<number>()
  paths.forEach((path, index) => {
    const target = columnTarget(path)
    if (target.kind === 'leaf' && (target.node.meta.kind === 'number' || target.node.meta.kind === 'integer'))
      out.add(index)
  })
  return out
}

export function skusToCsv(skus: readonly Sku[], options?: SheetOptions): string {
  const sheet = skusToSheet(skus, options)
  return toCsv(sheet.headers, sheet.rows)
}

export function skusToXlsx(skus: readonly Sku[], options?: SheetOptions): Promise<Uint8Array> {
  const sheet = skusToSheet(skus, options)
  return writeXlsx([sheet.headers, ...sheet.rows], { numberColumns: numberColumns(sheet.paths) })
}

// Beside the writers rather than in the renderer's db/: the formats are these functions', no Dexie.
export type ExportFormat = 'json' | 'csv' | 'xlsx'

/** The files drafts export to, as the SKU list's Export menu offers them. */
export const EXPORT_FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'json', label: 'Bulk request (JSON)' },
  { format: 'csv', label: 'Spreadsheet (CSV)' },
  { format: 'xlsx', label: 'Spreadsheet (XLSX)' },
]

/** The media type of each file the app writes in these formats (exports, templates, reports). */
export const MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  json: 'application/json',
  csv: 'text/csv;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

/** The bulk upload request exactly as the service takes it, drafts untouched. */
export function bulkRequestJson(skus: readonly Sku[]): string {
  return JSON.stringify({ skus }, null, 2) + '\n'
}

/** One SKU's cells under given headers (the template's example row). */
export function skuRow(sku: Sku, headers: readonly string[]): string[] {
  const cells = skuCells(sku)
  return headers.map((header) => cells.get(header) ?? '')
}
