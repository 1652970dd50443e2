import { findField, type FieldNode } from '../schema/catalogue.ts'
import { EFFECT_ASSETS_2D_SLOTS } from '../schema/sku.ts'
import { parsePath } from '../json-path.ts'
import { skuCatalogue } from '../validation/validate.ts'
import type { ColumnMatch, FieldPath } from './types.ts'

/**
 * The columns of a SKU sheet and how a file's headers are matched to them. A column is named by
 * its contract path with list positions (`arEffect.effectAssets3D.0.url`), so an exported sheet
 * maps itself back without a mapping screen; people's own headers are matched by the catalogue's
 * titles and a few synonyms.
 */

/**
 * Header prefix of a column whose cells are JSON for a path the catalogue does not describe as one
 * cell (fields the contract does not name, or a list the export cannot spread over positions):
 * `json:customField`. The export writes such columns; the importer maps them back.
 */
export const JSON_COLUMN_PREFIX = 'json:'

/** 3D asset positions in the template: enough to show that the list grows by position. */
export const TEMPLATE_ASSETS_3D = 2

export interface ColumnOptions {
  /** How many 3D asset positions to spread the list over (default {@link TEMPLATE_ASSETS_3D}). */
  assets3D?: number
}

/**
 * Every leaf of the SKU catalogue in catalogue order, list items spread over positions: each 3D
 * asset's id and url per position, each of the seven 2D slots as one JSON cell.
 */
export function skuColumns(options: ColumnOptions = {}): FieldPath[] {
  const assets = options.assets3D ?? TEMPLATE_ASSETS_3D
  const out: FieldPath[] = []
  const visit = (node: FieldNode, path: string) => {
    if (node.item) {
      const count = node.meta.kind === 'slots' ? EFFECT_ASSETS_2D_SLOTS : assets
      for (let i = 0; i < count; i++) visit(node.item, `${path}.${i}`)
    } else if (node.children.length > 0) {
      for (const child of node.children) visit(child, path ? `${path}.${child.key}` : child.key)
    } else {
      out.push(path)
    }
  }
  visit(skuCatalogue, '')
  return out
}

/** What a column path fills: a described leaf, one 2D slot, or JSON (anything else). */
export type ColumnTarget =
  { kind: 'leaf'; node: FieldNode } | { kind: 'slot'; slot: number } | { kind: 'json' }

export function columnTarget(path: FieldPath): ColumnTarget {
  const segments = parsePath(path)
  const { node, exact } = findField(skuCatalogue, segments)
  if (!exact) return { kind: 'json' }
  const last = segments.at(-1)
  if (typeof last === 'number') {
    const parent = findField(skuCatalogue, segments.slice(0, -1)).node
    if (parent.meta.kind === 'slots')
      return last < EFFECT_ASSETS_2D_SLOTS ? { kind: 'slot', slot: last } : { kind: 'json' }
  }
  const isLeaf = node.children.length === 0 && !node.item
  return isLeaf && node.meta.kind !== 'section' ? { kind: 'leaf', node } : { kind: 'json' }
}

/** Whether `path` is a column of the contract as the template spells it (positions included). */
export function isContractColumn(path: string): boolean {
  if (path === '' || path.includes('*')) return false
  const target = columnTarget(path)
  return target.kind !== 'json' && parsePath(path).every((s) => typeof s !== 'number' || s < 1000)
}

/**
 * The column's name in the catalogue's words, positions counted from 1 as people count:
 * "Model address of 3D asset 1", "2D asset 3", "Intensity". Paths the catalogue does not know are
 * returned as they are.
 */
export function describeColumn(path: FieldPath): string {
  if (path.startsWith(JSON_COLUMN_PREFIX)) return `${path.slice(JSON_COLUMN_PREFIX.length)} (JSON)`
  const segments = parsePath(path)
  const { node, exact } = findField(skuCatalogue, segments)
  if (!exact || segments.length === 0) return path
  const at = segments.findLastIndex((segment) => typeof segment === 'number')
  if (at < 0) return node.meta.title
  const list = findField(skuCatalogue, segments.slice(0, at)).node
  const position = `${list.item?.meta.title ?? 'item'} ${(segments[at] as number) + 1}`
  return at === segments.length - 1 ? position : `${node.meta.title} of ${position}`
}

/** Case, spaces and punctuation do not count: "Product name", "product_name", "PRODUCT-NAME". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
}

/**
 * Words people use for a field that are not its catalogue title. Keys are normalised headers.
 * Lens width, bridge and the like need no entry: their titles already read that way.
 */
const SYNONYMS: Record<string, FieldPath> = {}
const synonym = (path: FieldPath, ...words: string[]) => {
  for (const word of words) SYNONYMS[normaliseHeader(word)] = path
}
synonym('orgId', 'org', 'organisation id', 'organization', 'organisation', 'org id')
synonym('productName', 'name', 'product', 'title', 'product title', 'item name')
synonym('productImage', 'image url', 'image', 'photo', 'picture', 'photo url', 'product image url', 'img')
synonym('barcode', 'ean', 'ean13', 'upc', 'gtin', 'sku code', 'barcode number')
synonym('subCategory', 'sub category', 'subcategory', 'subcat', 'sub cat')
synonym('isActive', 'active', 'enabled', 'is active', 'live')
synonym('actionUrl', 'url', 'product url', 'link', 'product link', 'product page', 'shop url')
synonym('brand', 'brand name', 'manufacturer')
synonym('arEffect.effectAssets3D.0.url', '3d model', 'model', 'glb', 'model url', '3d model url', 'glb url')
synonym('arEffect.effectAssets3D.0.id', '3d model id', 'model id')

// Titles with positions ("Model address of 3D asset 2") and the plain title of a list field for its
// first position ("Model address"); then each field's path without punctuation ("is_active").
const BY_TITLE = new Map<string, FieldPath>()
const COLUMNS_FOR_MATCHING = skuColumns({ assets3D: 20 })
// A field's own key ("bridge", "lensColorCode") only when no other field has it ("x", "width").
const keyCounts = new Map<string, number>()
for (const path of COLUMNS_FOR_MATCHING) {
  const key = normaliseHeader(path.split('.').at(-1) ?? '')
  keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1)
}
for (const path of COLUMNS_FOR_MATCHING) {
  const add = (words: string) => {
    const key = normaliseHeader(words)
    if (key && !BY_TITLE.has(key)) BY_TITLE.set(key, path)
  }
  add(describeColumn(path))
  const segments = parsePath(path)
  const first = segments.every((segment) => typeof segment !== 'number' || segment === 0)
  if (first) add(findField(skuCatalogue, segments).node.meta.title)
  add(path)
  const key = normaliseHeader(String(segments.at(-1)))
  if (!segments.some((segment) => typeof segment === 'number') && key.length > 1 && keyCounts.get(key) === 1)
    add(key)
}

function autoMatch(header: string): Pick<ColumnMatch, 'path' | 'by'> {
  const trimmed = header.trim()
  if (trimmed.startsWith(JSON_COLUMN_PREFIX)) {
    const path = trimmed.slice(JSON_COLUMN_PREFIX.length).trim()
    return path ? { path: `${JSON_COLUMN_PREFIX}${path}`, by: 'path' } : { path: null, by: 'none' }
  }
  if (isContractColumn(trimmed)) return { path: trimmed, by: 'path' }
  const key = normaliseHeader(trimmed)
  const byTitle = BY_TITLE.get(key)
  if (byTitle) return { path: byTitle, by: 'title' }
  const bySynonym = SYNONYMS[key]
  if (bySynonym) return { path: bySynonym, by: 'synonym' }
  return { path: null, by: 'none' }
}

/**
 * Which field each column fills. Saved mappings (by exact header text; null means "ignore") come
 * first, then contract paths, catalogue titles and synonyms. A field claimed by two columns goes to
 * the first (saved ones before automatic ones); the later column is ignored (`path: null`, `by:
 * 'none'`), so no cell silently overwrites another.
 *
 * A path `json:PATH` means the cells hold JSON for PATH (see {@link JSON_COLUMN_PREFIX}).
 */
export function matchColumns(headers: string[], saved?: Record<string, FieldPath | null>): ColumnMatch[] {
  const matches: ColumnMatch[] = headers.map((header, column) => ({ column, header, path: null, by: 'none' }))
  const taken = new Set<string>()
  const claim = (match: ColumnMatch, path: FieldPath | null, by: ColumnMatch['by']) => {
    const key = path === null ? null : targetKey(path)
    if (key === null || taken.has(key)) return
    taken.add(key)
    match.path = path
    match.by = by
  }
  const decided = new Set<number>()
  if (saved) {
    for (const match of matches) {
      if (!Object.hasOwn(saved, match.header)) continue
      decided.add(match.column)
      const path = saved[match.header] ?? null
      if (path === null) match.by = 'saved'
      else claim(match, path, 'saved')
    }
  }
  for (const match of matches) {
    if (decided.has(match.column)) continue
    const { path, by } = autoMatch(match.header)
    claim(match, path, by)
  }
  return matches
}

/** `json:brand` and `brand` fill the same field, so they count as the same claim. */
function targetKey(path: FieldPath): string {
  return path.startsWith(JSON_COLUMN_PREFIX) ? path.slice(JSON_COLUMN_PREFIX.length) : path
}

/** The mapping of a set of matches, by column position. */
export function mappingOf(matches: readonly ColumnMatch[]): (FieldPath | null)[] {
  return matches.map((match) => match.path)
}
