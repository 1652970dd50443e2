import { counted } from './counted.ts'
import { describeColumn } from './sheet/columns.ts'
import { thousands } from './sheet/places.ts'
import { textOf } from './text-of.ts'

/**
 * Values that look like typos of a common one: "Eyewaer" on 5 drafts beside "eyewear" on 4,210.
 * Said as a question ("did you mean “eyewear”?"), never an error and never applied by itself:
 * "eyeware" is the platform SDK's own spelling, and only a person knows which one the catalogue
 * means. The import's dry run, `validate` and the SKU list ask it, from counts of distinct values
 * only (never row by row), so 100,000 drafts cost what their few hundred values cost.
 *
 * The thresholds, chosen so a catalogue's real vocabulary is left alone:
 * - **Fields**: category, sub-category, brand and status, the text fields a catalogue fills from a
 *   short list (and the list's indexed columns, so it counts them without reading a draft). A
 *   field takes part only while its values are few beside its rows: at most {@link MAX_DISTINCT}
 *   different ones, held by {@link ROWS_PER_VALUE} rows each on average. Product names, barcodes
 *   and addresses are each row's own, and never asked about.
 * - **Rare**: a value held by at most {@link RARE_AT_MOST} rows, or by at most
 *   {@link RARE_SHARE} of the rows with a value when that is more (50 of 10,000).
 * - **Common**: a value held by at least {@link COMMON_TIMES} times as many rows as the rare one.
 * - **Near**: the same but for case, accents and spaces ("EYEWEAR", "Éyewear"), or one edit away
 *   (a letter added, dropped, changed, or two side by side swapped: Damerau-Levenshtein, in its
 *   optimal-string-alignment form), or two when both are 7 characters or longer ("eyeware" for
 *   "eyewear"); compared without case or accents. Never near: values shorter than 4 characters
 *   (sizes, codes), or values whose digits differ ("Size 38", "Size 39").
 */

/** The fields asked about, in the order their suggestions are said. */
export const RARE_VALUE_FIELDS = ['category', 'subCategory', 'brand', 'status'] as const
export type RareValueField = (typeof RARE_VALUE_FIELDS)[number]

/** More different values than this, and the field is free text: nothing is asked. */
export const MAX_DISTINCT = 500
/** A field takes part when its rows with a value are at least this many times its distinct values. */
export const ROWS_PER_VALUE = 5
/** A value held by at most this many rows is rare… */
export const RARE_AT_MOST = 5
/** …or by at most this share of the field's rows with a value, when that is more. */
export const RARE_SHARE = 0.005
/** A value is suggested for a rare one when it is held by at least this many times as many rows. */
export const COMMON_TIMES = 10
/** The edits apart two values may be: one, or two when both are this long or longer. */
const TWO_EDITS_FROM = 7
/** Values shorter than this are typos of nothing (but for case and accents). */
const SHORTEST = 4

/** How many rows (or drafts) hold a value of a field. */
export interface ValueCount {
  value: string
  count: number
}

/** A rare value and the common one it is likely a typo of. */
export interface RareValue {
  field: RareValueField
  value: string
  count: number
  suggestion: string
  suggestionCount: number
}

/** A value as it is compared: no case, no accents, spaces trimmed and single. */
export function foldValue(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ')
}

/**
 * The edits between `a` and `b` (Damerau-Levenshtein, optimal string alignment: a letter added,
 * dropped or changed, or two side by side swapped), or `max + 1` as soon as it is known to be more
 * than `max`. fastest-levenshtein and its kind count a swap as two edits ("Eyewaer" would be two
 * from "eyewear"); this one stops early, so comparing a few hundred values costs next to nothing.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  if (a === b) return 0
  const beyond = max + 1
  // Three rows of the table: two back (for a swap), the previous and the current. Only the band of
  // cells within `max` of the diagonal is computed; the cell either side of it holds `beyond`.
  let before = new Array<number>(b.length + 1).fill(beyond)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  let current = new Array<number>(b.length + 1).fill(beyond)
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max)
    const to = Math.min(b.length, i + max)
    current[from - 1] = from === 1 ? i : beyond
    if (to < b.length) current[to + 1] = beyond
    let best = current[from - 1]!
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1)
      current[j] = d
      if (d < best) best = d
    }
    if (best > max) return beyond
    ;[before, previous, current] = [previous, current, before]
  }
  return Math.min(previous[b.length]!, beyond)
}

/** A value as compared: folded, and its digits (values whose digits differ are never typos). */
interface Folded {
  folded: string
  digits: string
}

/** How far apart two values are as typos, or undefined when one cannot be a typo of the other. */
function typoDistance(
  { folded: rare, digits }: Folded,
  { folded: common, digits: its }: Folded,
): number | undefined {
  if (rare === common) return 0
  if (Math.min(rare.length, common.length) < SHORTEST || digits !== its) return undefined
  const max = Math.min(rare.length, common.length) >= TWO_EDITS_FROM ? 2 : 1
  const distance = editDistance(rare, common, max)
  return distance <= max ? distance : undefined
}

/**
 * The rare values of one field and what each may be a typo of, from every distinct value's count
 * (empty values left out); none when the field has too many different values to be a list.
 */
export function rareValuesOf(field: RareValueField, counts: readonly ValueCount[]): RareValue[] {
  const values = counts.filter((entry) => entry.value.trim() !== '' && entry.count > 0)
  if (values.length < 2 || values.length > MAX_DISTINCT) return []
  const rows = values.reduce((sum, entry) => sum + entry.count, 0)
  if (rows < values.length * ROWS_PER_VALUE) return []
  const rareAtMost = Math.max(RARE_AT_MOST, Math.floor(rows * RARE_SHARE))
  const folded = values.map((entry) => {
    const folded = foldValue(entry.value)
    return { ...entry, folded, digits: folded.replace(/\D/g, '') }
  })
  const found: RareValue[] = []
  for (const rare of folded) {
    if (rare.count > rareAtMost) continue
    let best: { entry: (typeof folded)[number]; distance: number } | undefined
    for (const common of folded) {
      if (common.count < rare.count * COMMON_TIMES) continue
      const distance = typoDistance(rare, common)
      if (distance === undefined) continue
      if (
        !best ||
        distance < best.distance ||
        (distance === best.distance && common.count > best.entry.count)
      )
        best = { entry: common, distance }
    }
    if (best)
      found.push({
        field,
        value: rare.value,
        count: rare.count,
        suggestion: best.entry.value,
        suggestionCount: best.entry.count,
      })
  }
  // The most rows first, then as the values sort: the order a person works through them.
  return found.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
}

/** A rare value with the first rows that hold it (`rows`: data rows, or items from 1). */
export interface RareValueRows extends RareValue {
  rows: number[]
}

/** Rows kept for each value: what a message names before "and N more". */
export const ROWS_NAMED = 10

/**
 * Counts the values of the fields asked about as rows pass (the dry run's, `validate`'s), with
 * each value's first rows. What it keeps is bounded: a field past {@link MAX_DISTINCT} values is
 * free text and dropped, so a file of any size keeps at most that many values a field.
 */
export class RareValueTally {
  private readonly fields = new Map<RareValueField, Map<string, { count: number; rows: number[] }> | null>(
    RARE_VALUE_FIELDS.map((field) => [field, new Map()]),
  )

  add(payload: unknown, row: number): void {
    if (typeof payload !== 'object' || payload === null) return
    for (const [field, values] of this.fields) {
      if (!values) continue
      const value = textOf((payload as Record<string, unknown>)[field])
      if (value.trim() === '') continue
      let entry = values.get(value)
      if (!entry) {
        if (values.size >= MAX_DISTINCT) {
          this.fields.set(field, null)
          continue
        }
        values.set(value, (entry = { count: 0, rows: [] }))
      }
      entry.count++
      if (entry.rows.length < ROWS_NAMED) entry.rows.push(row)
    }
  }

  /** The rare values found, field by field, each with its first rows. */
  rareValues(): RareValueRows[] {
    return RARE_VALUE_FIELDS.flatMap((field) => {
      const values = this.fields.get(field)
      if (!values) return []
      const counts = [...values].map(([value, { count }]) => ({ value, count }))
      return rareValuesOf(field, counts).map((rare) => ({ ...rare, rows: values.get(rare.value)!.rows }))
    })
  }
}

/**
 * The question, as every place asks it: "Category “Eyewaer” on 5 rows (lines 3, 9, 12, 15 and 20):
 * did you mean “eyewear” (4,210 rows)?". `noun`: what holds the values (rows of a file, drafts);
 * `where`: the rows named, when they are ("lines 3, 9…"); `number`: how a number is said.
 */
export function rareValueQuestion(
  rare: RareValue,
  {
    noun = 'row',
    where,
    number = thousands,
  }: { noun?: string; where?: string; number?: (n: number) => string } = {},
): string {
  const at = where ? ` (${where})` : ''
  return `${describeColumn(rare.field)} “${rare.value}” on ${counted(rare.count, noun, number)}${at}: did you mean “${rare.suggestion}” (${counted(rare.suggestionCount, noun, number)})?`
}
