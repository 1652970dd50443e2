import { findField, type FieldNode } from '../schema/catalogue.ts'
import { EFFECT_ASSETS_2D_SLOTS } from '../schema/sku.ts'
import { parsePath } from '../json-path.ts'
import { lazily } from '../lazily.ts'
import { skuCatalogue } from '../validation/validate.ts'
import { isMeasure } from '../values/measure.ts'
import { compact, fieldOfWords, identifierPhrases, isIdentifierWords, usualPhrases } from './field-words.ts'
import { headerWords, wordsOf, type HeaderWords } from './header-words.ts'
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

/**
 * Header prefix of a column kept as it is under a key the contract does not name (`keep:price`):
 * an extra column the person chose to keep; its cells travel with the draft as text.
 */
export const KEEP_COLUMN_PREFIX = 'keep:'

/** Target of a column that holds the unit of a measure's cells (`unit:meta.frameWidth`), as PIMs export. */
export const UNIT_COLUMN_PREFIX = 'unit:'

/**
 * Target of a column whose cell is one of the variant's options, by its name (`option:Shade`): kept
 * on the SKU under `options`, and naming a variant that takes its product's name ("Lippie Pencil –
 * BFF"). In a JSON product list, the list whose fields are options is the one that spreads into
 * one SKU per element (json-table.ts).
 */
export const OPTION_COLUMN_PREFIX = 'option:'

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
  visit(skuCatalogue(), '')
  return out
}

/** What a column path fills: a described leaf, one 2D slot, or JSON (anything else). */
export type ColumnTarget =
  { kind: 'leaf'; node: FieldNode } | { kind: 'slot'; slot: number } | { kind: 'json' }

export function columnTarget(path: FieldPath): ColumnTarget {
  const segments = parsePath(path)
  const { node, exact } = findField(skuCatalogue(), segments)
  if (!exact) return { kind: 'json' }
  const last = segments.at(-1)
  if (typeof last === 'number') {
    const parent = findField(skuCatalogue(), segments.slice(0, -1)).node
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
  if (path.startsWith(KEEP_COLUMN_PREFIX)) return `${path.slice(KEEP_COLUMN_PREFIX.length)} (kept as is)`
  if (path.startsWith(UNIT_COLUMN_PREFIX))
    return `Unit of ${describeColumn(path.slice(UNIT_COLUMN_PREFIX.length))}`
  if (path.startsWith(OPTION_COLUMN_PREFIX))
    return `Variant option “${path.slice(OPTION_COLUMN_PREFIX.length)}”`
  const segments = parsePath(path)
  const { node, exact } = findField(skuCatalogue(), segments)
  if (!exact || segments.length === 0) return path
  const at = segments.findLastIndex((segment) => typeof segment === 'number')
  if (at < 0) return node.meta.title
  const list = findField(skuCatalogue(), segments.slice(0, at)).node
  const position = `${list.item?.meta.title ?? 'item'} ${(segments[at] as number) + 1}`
  return at === segments.length - 1 ? position : `${node.meta.title} of ${position}`
}

/** The editor's section a field sits in: "AR effect › Environment" for `arEffect.envSettings.intensity`; "Product" at the top. */
export function fieldSection(path: FieldPath): string {
  const segments = parsePath(path)
  const titles: string[] = []
  for (let i = 1; i < segments.length; i++) {
    if (typeof segments[i - 1] === 'number') continue
    const { node, exact } = findField(skuCatalogue(), segments.slice(0, i))
    if (exact && (node.children.length > 0 || node.item)) titles.push(node.meta.title)
  }
  return titles.length ? titles.join(' › ') : 'Product'
}

/** Case, spaces and punctuation do not count: "Product name", "product_name", "PRODUCT-NAME". */
export function normaliseHeader(header: string): string {
  return compact(wordsOf(header))
}

interface MatchingTables {
  /** The catalogue's own words for each column, normalised, and the column they name. */
  byTitle: Map<string, FieldPath>
  /** Phrases by their number of words, for telling a typo of them (see `nearField`). */
  nearWords: Map<number, { words: string[]; path: FieldPath | null }[]>
}

/**
 * The tables column matching reads, built on the first match rather than when the module loads:
 * the window's start reaches this module and never matches a header (issue #37).
 */
const tables = lazily(buildMatchingTables)

function buildMatchingTables(): MatchingTables {
  const columns = skuColumns({ assets3D: 20 })
  const keyCounts = new Map<string, number>()
  for (const path of columns) {
    const key = normaliseHeader(path.split('.').at(-1) ?? '')
    keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1)
  }
  return { byTitle: titlesOf(columns, keyCounts), nearWords: nearWordsOf(columns, keyCounts) }
}

// The catalogue's own words for each column: titles with positions ("Model address of 3D asset
// 2") and the plain title of a list field for its first position ("Model address"), then each
// field's path ("is_active"), and its own key ("bridge", "lensColorCode") when no other field has
// it ("x", "width" are several fields').
function titlesOf(columns: FieldPath[], keyCounts: Map<string, number>): Map<string, FieldPath> {
  const byTitle = new Map<string, FieldPath>()
  for (const path of columns) {
    const add = (words: string) => {
      const key = normaliseHeader(words)
      if (key && !byTitle.has(key)) byTitle.set(key, path)
    }
    add(describeColumn(path))
    const segments = parsePath(path)
    const first = segments.every((segment) => typeof segment !== 'number' || segment === 0)
    if (first) add(findField(skuCatalogue(), segments).node.meta.title)
    add(path)
    const key = normaliseHeader(String(segments.at(-1)))
    if (
      !segments.some((segment) => typeof segment === 'number') &&
      key.length > 1 &&
      keyCounts.get(key) === 1
    )
      add(key)
  }
  return byTitle
}

// The same words as phrases, for telling a typo of them word by word (see `nearField`): the
// catalogue's titles and paths, the unique keys, the usual words; and shops' own codes (`null`),
// whose near misses are not a field's.
function nearWordsOf(columns: FieldPath[], keyCounts: Map<string, number>): MatchingTables['nearWords'] {
  const nearWords: MatchingTables['nearWords'] = new Map()
  const seen = new Set<string>()
  const near = (phrase: string, path: FieldPath | null) => {
    const words = wordsOf(phrase)
    if (!words || seen.has(`${words}\n${path}`)) return
    seen.add(`${words}\n${path}`)
    const split = words.split(' ')
    const same = nearWords.get(split.length) ?? []
    same.push({ words: split, path })
    nearWords.set(split.length, same)
  }
  for (const path of columns) {
    near(describeColumn(path), path)
    const segments = parsePath(path)
    if (segments.every((segment) => typeof segment !== 'number' || segment === 0))
      near(findField(skuCatalogue(), segments).node.meta.title, path)
    near(path, path)
    const key = normaliseHeader(String(segments.at(-1)))
    if (!segments.some((segment) => typeof segment === 'number') && keyCounts.get(key) === 1)
      near(String(segments.at(-1)), path)
  }
  for (const [phrase, path] of usualPhrases()) near(phrase, path)
  for (const phrase of identifierPhrases()) near(phrase, null)
  return nearWords
}

/**
 * Words one typo from a field's word that are words of their own: a "Publisher" is not whether the
 * product is published, "Produce" is not a product's name, "Manufactured" not its maker.
 */
const NOT_TYPOS = new Set([
  'publisher',
  'publishes',
  'produce',
  'manufactured',
  'maternal',
  'pictured',
  'intensify',
  'stats',
  'bride',
])

/** The one typo between two different words, when one typo (one Damerau-Levenshtein edit) makes them the same. */
export type Typo = 'swapped' | 'dropped' | 'added' | 'changed'

/**
 * What one typo makes `written` of `word`: two letters side by side swapped ("prodcut" for
 * "product"), one left out ("barcod"), one added ("brandd") or one changed ("intensoty");
 * undefined when they are the same or more than one typo apart.
 */
export function typoOf(written: string, word: string): Typo | undefined {
  if (written === word || Math.abs(written.length - word.length) > 1) return undefined
  let at = 0
  while (written[at] === word[at]) at++
  const rest = (skipWritten: number, skipWord: number) =>
    written.slice(at + skipWritten) === word.slice(at + skipWord)
  if (written.length < word.length) return rest(0, 1) ? 'dropped' : undefined
  if (written.length > word.length) return rest(1, 0) ? 'added' : undefined
  if (written[at] === word[at + 1] && written[at + 1] === word[at] && rest(2, 2)) return 'swapped'
  return rest(1, 1) ? 'changed' : undefined
}

/**
 * How many words of `header` are typos of `field`'s, word by word (at most two, one typo each);
 * undefined when they are more than typos. Never taken for a typo: a word of fewer than five
 * letters, a number, a different first letter, a word of its own ({@link NOT_TYPOS}), and in a
 * word of fewer than seven letters a letter added or changed, which too often makes another word.
 * So "Tile" is no "Title", "Weight" no "Height", "Inactive" no "Active", "Share" no "Shape",
 * "2D asset 8" no "2D asset 1"; but "Brnad" is "Brand" and "Barcod" is "Barcode".
 */
function typosBetween(header: readonly string[], field: readonly string[]): number | undefined {
  let typos = 0
  for (let i = 0; i < header.length; i++) {
    const [written, word] = [header[i]!, field[i]!]
    if (written === word) continue
    if (Math.min(written.length, word.length) < 5 || /\d/.test(written + word)) return undefined
    if (written[0] !== word[0] || NOT_TYPOS.has(written)) return undefined
    const typo = typoOf(written, word)
    if (typo === undefined) return undefined
    if (word.length < 7 && (typo === 'added' || typo === 'changed')) return undefined
    typos++
  }
  return typos > 0 && typos <= 2 ? typos : undefined
}

/**
 * The field whose words `words` are nearest to by typos, when exactly one field is nearest;
 * `null` when they are as near a shop's own code (which is no field to suggest, least of all the
 * barcode); undefined when nothing is near.
 */
function nearField(words: string): FieldPath | null | undefined {
  const split = words.split(' ')
  let nearest = Infinity
  let fields = new Set<FieldPath | null>()
  let nearCode = false
  for (const candidate of tables().nearWords.get(split.length) ?? []) {
    const typos = typosBetween(split, candidate.words)
    if (typos === undefined) continue
    if (candidate.path === null) nearCode = true
    if (typos < nearest) [nearest, fields] = [typos, new Set([candidate.path])]
    else if (typos === nearest) fields.add(candidate.path)
  }
  if (nearCode) return null
  return fields.size === 1 ? [...fields][0] : undefined
}

/**
 * The field a header that matches nothing looks like a typo of ("Prodcut Name", "Brnad",
 * "Categroy"): its words as written, then after a shop's prefix ("Variant Barcod").
 */
function suggestionFor(words: HeaderWords): FieldPath | undefined {
  for (const text of new Set([words.words, words.unprefixed])) {
    if (!text) continue
    const field = nearField(text)
    if (field === null) return undefined
    if (field !== undefined) return field
  }
  return undefined
}

/** How strongly a header names its field: a contested field goes to the strongest, then the first. */
const STRENGTH: Record<ColumnMatch['by'], number> = {
  saved: 5,
  path: 4,
  title: 3,
  synonym: 2,
  prefixed: 1,
  none: 0,
}

type AutoMatch = Pick<ColumnMatch, 'path' | 'by' | 'identifier' | 'why'>

function autoMatch(header: string, words: HeaderWords): AutoMatch {
  const trimmed = header.trim()
  if (trimmed.startsWith(JSON_COLUMN_PREFIX)) {
    const path = trimmed.slice(JSON_COLUMN_PREFIX.length).trim()
    return path ? { path: `${JSON_COLUMN_PREFIX}${path}`, by: 'path' } : { path: null, by: 'none' }
  }
  if (isContractColumn(trimmed)) return { path: trimmed, by: 'path', why: 'the contract’s path' }
  // A PIM's measure unit beside its value (`frame_width-unit`): the unit of that field's cells.
  const unitOf = / unit$/.exec(words.words) ? words.words.slice(0, -' unit'.length) : undefined
  if (unitOf) {
    const field = lookUp(unitOf)
    if (field && isMeasure(field.path))
      return {
        path: `${UNIT_COLUMN_PREFIX}${field.path}`,
        by: field.by,
        why: `the unit of ${describeColumn(field.path)}`,
      }
  }
  for (const [text, prefixed] of [
    [words.words, false],
    [words.unprefixed, true],
  ] as const) {
    if (prefixed && text === words.words) break
    if (isIdentifierWords(text))
      return {
        path: null,
        by: 'none',
        identifier: true,
        why: `“${header.trim()}” is a shop’s own code, not a barcode`,
      }
    const field = lookUp(text)
    if (field) return { path: field.path, by: prefixed ? 'prefixed' : field.by, why: field.why }
  }
  return { path: null, by: 'none' }
}

function lookUp(words: string): { path: FieldPath; by: 'title' | 'synonym'; why: string } | undefined {
  const key = compact(words)
  const byTitle = tables().byTitle.get(key)
  if (byTitle) return { path: byTitle, by: 'title', why: `its name, ${describeColumn(byTitle)}` }
  const byWord = fieldOfWords(words)
  if (byWord)
    return { path: byWord, by: 'synonym', why: `“${words}”, a usual word for ${describeColumn(byWord)}` }
  return undefined
}

export interface MatchOptions {
  /** Choices the person made, by exact header text; null means "ignore". */
  saved?: Readonly<Record<string, FieldPath | null>>
  /** Columns a file format reads itself (WooCommerce's Type and Parent), with what it does with them. */
  structural?: ReadonlyMap<number, string>
  /** Of those, the field each may fill at the person's word when no other column fills it. */
  offers?: ReadonlyMap<number, FieldPath>
  /**
   * Each column's header as the format reads it, when it is not as written: a WooCommerce export
   * in the shop's language read in English ("Nome" as "Name", products.ts). Matched by it; the
   * match keeps the header as written.
   */
  readAs?: readonly string[]
  /** Why a column is read as another header, when it is not a translation (Wix's collection as Category). */
  readAsWhy?: ReadonlyMap<number, string>
}

/**
 * Which field each column fills. Saved choices come first, then contract paths, the catalogue's
 * titles, usual words, and usual words after a shop's prefix ("Variant Barcode"). A field two
 * columns could fill goes to the stronger match, then to the first in the file; the other column
 * is ignored (`path: null`), names the field it could fill (`couldFill`) and the winner names its
 * rivals, so the mapping screen and the CLI can say which was taken and why. No cell silently
 * overwrites another.
 *
 * Shops' own codes (SKU, MPN, Handle) are never taken for the barcode: they are marked
 * `identifier`, to be mapped to it only when the person says so.
 *
 * A header that matches nothing but is a typo of a field's words ("Prodcut Name", "Brnad") names
 * that field as its `suggestion`, with a `why`; it stays unmapped until the person takes it. A
 * field another column fills is not suggested; a near miss of a shop's code suggests nothing.
 *
 * A path `json:PATH` means the cells hold JSON for PATH (see {@link JSON_COLUMN_PREFIX}).
 */
export function matchColumns(headers: readonly string[], options: MatchOptions = {}): ColumnMatch[] {
  const { saved, structural, offers, readAs, readAsWhy } = options
  /** The header as matched: as the format reads it, else as written. */
  const matched = (column: number) => readAs?.[column] ?? headers[column] ?? ''
  const matches: ColumnMatch[] = headers.map((header, column) => {
    const words = headerWords(matched(column))
    const base: ColumnMatch = {
      column,
      header,
      path: null,
      by: 'none',
      ...(words.unit && { unit: words.unit }),
    }
    // The format reads these itself, unless the person gave one a field (a mapping file writes
    // them null, which leaves them to the format).
    const read = structural?.get(column)
    const chosen = saved && Object.hasOwn(saved, header) ? saved[header] : undefined
    if (read !== undefined && (chosen === undefined || chosen === null))
      return { ...base, structural: true, why: read }
    if (saved && Object.hasOwn(saved, header)) {
      // A shop's code stays known as one, so what is said of it does not depend on who chose.
      const identifier = autoMatch(header, words).identifier
      return { ...base, path: saved[header] ?? null, by: 'saved', ...(identifier && { identifier }) }
    }
    const auto = autoMatch(header, words)
    // Said with the header as written, and what it was read as: "“Nome” is “Name” in English", or
    // the format's own reason ("Wix’s collections, in no order: the first that is not one to sell
    // by (such as “Sale”) is the category").
    const readOtherwise = matched(column) !== header && auto.path !== null && auto.why
    const byFormat = readAsWhy?.get(column)
    const why = byFormat ?? `“${header.trim()}” is “${matched(column)}” in English; ${auto.why}`
    return {
      ...base,
      ...auto,
      ...(readOtherwise && { why }),
      ...(readOtherwise && byFormat && { byFormat: true }),
    }
  })
  const contested = new Map<string, ColumnMatch[]>()
  for (const match of matches) {
    if (match.path === null) continue
    const key = targetKey(match.path)
    contested.set(key, [...(contested.get(key) ?? []), match])
  }
  for (const rivals of contested.values()) {
    if (rivals.length < 2) continue
    // Stable: among equally strong matches the first column stays first.
    const [winner, ...losers] = [...rivals].sort((a, b) => STRENGTH[b.by] - STRENGTH[a.by])
    winner!.rivals = losers.map((loser) => loser.column)
    // All rivals equally strong: the first in the file; else the winner's name is the plainer.
    winner!.contest = losers.every((loser) => STRENGTH[loser.by] === STRENGTH[winner!.by])
      ? 'comes first in the file'
      : 'names it more plainly'
    for (const loser of losers) {
      loser.couldFill = loser.path!
      loser.path = null
      loser.contest =
        STRENGTH[winner!.by] > STRENGTH[loser.by] ? 'names it more plainly' : 'comes first in the file'
      loser.why = `“${winner!.header}” fills ${describeColumn(loser.couldFill)}: it ${loser.contest}`
      loser.by = 'none'
    }
  }
  // A header that matches nothing but looks like a typo of a field's words: the field is suggested,
  // not filled (a guess is the person's to confirm), and only one that no other column fills.
  const filled = new Set(matches.flatMap((match) => (match.path === null ? [] : [targetKey(match.path)])))
  for (const match of matches) {
    if (match.path !== null || match.by !== 'none' || match.identifier || match.structural) continue
    if (match.couldFill !== undefined || match.header.trim() === '') continue
    const suggestion = suggestionFor(headerWords(matched(match.column)))
    if (suggestion === undefined || filled.has(suggestion)) continue
    filled.add(suggestion)
    match.suggestion = suggestion
    match.why = `“${match.header.trim()}” looks like ${describeColumn(suggestion)}`
  }
  for (const match of matches) {
    const offer = match.structural ? offers?.get(match.column) : undefined
    if (offer !== undefined && !filled.has(offer)) match.offer = offer
  }
  return matches
}

/** `json:brand` and `brand` fill the same field, so they count as the same claim. */
function targetKey(path: FieldPath): string {
  return path.startsWith(JSON_COLUMN_PREFIX) ? path.slice(JSON_COLUMN_PREFIX.length) : path
}
