import { counted } from '../counted.ts'
import { skuKeys } from '../validation/validate.ts'
import { describeColumn, KEEP_COLUMN_PREFIX } from './columns.ts'
import type { ConversionCount } from './conversion-tally.ts'
import { wordsOf } from './header-words.ts'
import { sayRows, thousands, type RowNumbering } from './places.ts'
import { FORMAT_NAMES, type ProductCounts, type SkipReason } from './products.ts'
import type { FieldPath } from './types.ts'

/**
 * How a file was read, in words the app's mapping screen and dry run and the CLI's notes share:
 * the key an extra column is kept under, the products and variants found, and each way a cell was
 * read differently from how it was written.
 */

/** The key a kept column gets unless the person types another: its header's words in camelCase ("Sub Category" → "subCategory"). */
export function keepKeyOf(header: string): string {
  const words = wordsOf(header).split(' ').filter(Boolean)
  const key = words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('')
  return /^[a-z_]/i.test(key) ? key : `column${key[0]?.toUpperCase() ?? ''}${key.slice(1)}`
}

/** A key made of names (letters, digits, `_`, `-`; dots between names nest it). */
const KEY = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/

/** Why `key` cannot name an extra field, or undefined when it can. */
export function keepKeyProblem(key: string): string | undefined {
  if (key.trim() === '') return 'Type a name for the extra field.'
  if (!KEY.test(key))
    return 'A name of letters, digits, “_” or “-”, starting with a letter (dots between names nest it).'
  const top = key.split('.')[0]!
  // A column kept under a key the contract names at the top would write over that field.
  if (skuKeys().has(top))
    return `“${top}” is a field of the contract: map the column to ${describeColumn(top)} instead.`
  return undefined
}

/** The key of a `keep:KEY` path, or undefined for any other. */
export function keptKey(path: FieldPath | null | undefined): string | undefined {
  return path?.startsWith(KEEP_COLUMN_PREFIX) ? path.slice(KEEP_COLUMN_PREFIX.length) : undefined
}

/**
 * "2 products, 5 variants, 3 image rows (not SKUs)"; variations whose parent is not in the file
 * with the first of their places, said by `numbering` (a tryout hunted for 18 of them by hand: their
 * parents' codes were mistyped).
 */
export function productCountsText(products: ProductCounts, numbering: RowNumbering = 'lines'): string {
  const parts = [counted(products.products, 'product'), counted(products.variants, 'variant')]
  if (products.format === 'shopify' || products.imageRows > 0)
    parts.push(`${counted(products.imageRows, 'image row')} (not SKUs)`)
  if (products.listRows) parts.push(`${counted(products.listRows, 'row')} of a product’s lists (not SKUs)`)
  if (products.orphans > 0) {
    const rows = products.orphanRows ?? []
    const where = rows.length ? `${sayRows(rows, numbering, { total: products.orphans })}; ` : ''
    parts.push(
      `${counted(products.orphans, 'variation')} whose parent is not in the file (${where}each read as a product of its own)`,
    )
  }
  return parts.join(', ')
}

/** "a WooCommerce product export (Portuguese headers): 2 products, 5 variants", after "read as". */
export function readAsText(products: ProductCounts, numbering: RowNumbering = 'lines'): string {
  const language = products.language ? ` (${products.language} headers)` : ''
  const name = FORMAT_NAMES[products.format]
  // The formats' names are proper nouns and "JSON": a vowel letter is a vowel's sound ("an Akeneo").
  const article = /^[AEIOU]/.test(name) ? 'an' : 'a'
  return `${article} ${name}${language}: ${productCountsText(products, numbering)}`
}

/** Why a product is no SKU, by its reason; in the order said. */
const SKIPPED: Record<SkipReason, string> = {
  'not-physical': 'downloadable or virtual (not a physical product)',
  service: 'service (not a physical product)',
  'gift-card': 'gift card (not a physical product)',
  grouped: 'grouped (a set of other products)',
  bundle: 'bundle (other products sold together)',
  external: 'external (sold on another site)',
  'store-view': 'for a store view (a translation of a product the file has: not another SKU)',
}

/**
 * "3 products skipped: 2 downloadable or virtual (not a physical product), 1 grouped (a set of
 * other products)"; undefined when none was.
 */
export function skippedText(products: ProductCounts): string | undefined {
  const reasons = (Object.keys(SKIPPED) as SkipReason[]).flatMap((reason) => {
    const n = products.skipped?.[reason] ?? 0
    return n > 0 ? [{ n, text: `${thousands(n)} ${SKIPPED[reason]}` }] : []
  })
  if (reasons.length === 0) return undefined
  const total = reasons.reduce((sum, reason) => sum + reason.n, 0)
  return `${counted(total, 'product')} skipped: ${reasons.map((reason) => reason.text).join(', ')}`
}

const quoted = (text: string) => `“${text}”`
/** A cell as an example quotes it: a long one (a list of a dozen image addresses) cut short. */
export const quotedCell = (text: string) => quoted(text.length > 100 ? `${text.slice(0, 99)}…` : text)

/** What one kind of reading did, for `n` cells, with its example. */
const CONVERSION_WORDS: Record<
  ConversionCount['kind'],
  { one: string; many: string; example: (from: string, to: string) => string }
> = {
  'yes-no': {
    one: 'cell read as yes/no',
    many: 'cells read as yes/no',
    example: (from, to) => `${quotedCell(from)} → ${to === 'true' ? 'yes' : 'no'}`,
  },
  spelling: {
    one: 'cell spelled as suggested',
    many: 'cells spelled as suggested',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'decimal-comma': {
    one: 'decimal comma read',
    many: 'decimal commas read',
    example: (from, to) => `${quotedCell(from)} → ${to}`,
  },
  'unit-dropped': {
    one: 'unit dropped',
    many: 'units dropped',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'unit-converted': {
    one: 'length converted to the field’s unit',
    many: 'lengths converted to the field’s unit',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'category-path': {
    one: 'category path split into category and sub-category',
    many: 'category paths split into category and sub-category',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'first-image': {
    one: 'cell of several images: the first one kept',
    many: 'cells of several images: the first one kept each time',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'category-list': {
    one: 'list of categories: the last kept that is no shop root or collection to sell by (such as “Sale”)',
    many: 'lists of categories: the last kept each time that is no shop root or collection to sell by (such as “Sale”)',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'variant-name': {
    one: 'SKU named by its product’s name and its options',
    many: 'SKUs named by their product’s name and their options',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'text-mark': {
    one: 'apostrophe a spreadsheet wrote to keep the digits as text dropped',
    many: 'apostrophes a spreadsheet wrote to keep the digits as text dropped',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'dash-empty': {
    one: 'cell holding only a dash read as empty',
    many: 'cells holding only a dash read as empty',
    example: (from) => `${quotedCell(from)} → empty`,
  },
  'no-barcode': {
    one: 'cell with no barcode in it (no digit) read as none',
    many: 'cells with no barcode in them (no digit) read as none',
    example: (from) => `${quotedCell(from)} → none`,
  },
  'scheme-added': {
    one: 'web address without its https:// read with it',
    many: 'web addresses without their https:// read with it',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'product-kind': {
    one: 'cell holding a shop system’s kind of product, not a category, read as empty',
    many: 'cells holding a shop system’s kind of product, not a category, read as empty',
    example: (from) => `${quotedCell(from)} → empty`,
  },
  'category-number': {
    one: 'cell holding a category’s number in the shop, not its name, read as none',
    many: 'cells holding a category’s number in the shop, not its name, read as none',
    example: (from, to) => `${quotedCell(from)} → ${to ? quoted(to) : 'empty'}`,
  },
  'image-base': {
    one: 'picture’s path in the shop read with the pictures’ address',
    many: 'pictures’ paths in the shop read with the pictures’ address',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'status-answer': {
    one: 'cell answering yes or no (the shop’s on or off), not a status the platform takes, read as Active',
    many: 'cells answering yes or no (the shop’s on or off), not a status the platform takes, read as Active',
    example: (from, to) => `${quotedCell(from)} → ${to === 'true' ? 'yes' : 'no'}`,
  },
  'spaces-trimmed': {
    one: 'text with spaces before or after it read without them',
    many: 'texts with spaces before or after them read without them',
    example: (from, to) => `${quotedCell(from)} → ${quoted(to)}`,
  },
  'no-category': {
    one: 'cell holding the shop’s word for “no category”, read as none',
    many: 'cells holding the shop’s word for “no category”, read as none',
    example: (from, to) => `${quotedCell(from)} → ${to ? quoted(to) : 'empty'}`,
  },
  'picture-data': {
    one: 'cell holding a picture’s own data, not its web address, read as no picture',
    many: 'cells holding a picture’s own data, not its web address, read as no picture',
    example: (from) => `${quotedCell(from)} → none`,
  },
}

/** "Active: 12 cells read as yes/no (“Y” → yes), lines 2, 3, 4…", its rows said by `numbering`. */
export function conversionText(tally: ConversionCount, numbering: RowNumbering = 'lines'): string {
  const words = CONVERSION_WORDS[tally.kind]
  const what = `${thousands(tally.count)} ${tally.count === 1 ? words.one : words.many}`
  const more = tally.count > tally.rows.length ? '…' : ''
  const rows = tally.rows.length ? `, ${sayRows(tally.rows, numbering)}${more}` : ''
  return `${describeColumn(tally.field)}: ${what} (${words.example(tally.from, tally.to)})${rows}`
}
