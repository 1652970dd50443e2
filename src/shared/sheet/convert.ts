import type { FieldMeta } from '../schema/field.ts'
import { describeValue } from '../validation/messages.ts'
import { isPlainBoolean, readBooleanText } from '../values/boolean-text.ts'
import { isMeasure, readMeasure, type LengthUnit } from '../values/measure.ts'
import { readNumberText } from '../values/number-text.ts'
import { suggestedSpelling } from '../values/spelling.ts'
import {
  columnTarget,
  describeColumn,
  JSON_COLUMN_PREFIX,
  KEEP_COLUMN_PREFIX,
  UNIT_COLUMN_PREFIX,
} from './columns.ts'
import type { Conversion, FieldPath, Measure } from './types.ts'
import { isAsideCategory } from './category-lists.ts'

/**
 * One cell's text turned into the value its field holds, by the field's kind in the catalogue
 * (never by what the text looks like): "52" stays the text "52" in a meta field and becomes the
 * number 52 in a number field.
 *
 * - An empty cell (or one of spaces only) means the field is absent, except in fields that allow
 *   an empty string (orgId, actionUrl), where it means "".
 * - Text, web address and colour cells are kept as written, but for the spaces around a text
 *   (said as a conversion; not in a column headed by its contract path, read exactly) and for the
 *   barcode: it identifies the product (duplicates are found by it), so spaces around it go, and so
 *   does the apostrophe before digits by which a spreadsheet keeps them text (Shopify's export
 *   writes "'7350177880121"), which was never part of the barcode. (One a spreadsheet shortened to
 *   8.90123E+12 is refused by validation, wherever it comes from.) A value of an open list in
 *   another case than the suggested one takes its spelling ("Eyewear").
 * - Numbers: read by `readNumberText`, as the editor reads them: a dot for decimals, or a comma
 *   when the person says the file writes them so; never both, never a thousands separator.
 * - Measures (frame sizes, dimensions): a number with an optional unit ("52 mm"), settled with the
 *   row's other cells in rows.ts; text that is not a length is kept as written.
 * - Booleans: true/false, yes/no, Y/N, 1/0 in any case.
 * - The product image: the first address of a cell that joins several; the category: the most
 *   specific of a list (semicolons, or the list its header names).
 * - A category or sub-category that is a shop system's kind of product ("variable") is empty.
 * - A status column's cell that answers yes or no ("1", "0", "Enabled") is Active's value (`field`):
 *   see statusAnswerCell, which rows.ts puts on a sheet's status column.
 * - A 2D slot: empty or `null` is an empty slot, otherwise a JSON object.
 * - JSON columns (`json:PATH`, fields of kind json, paths the catalogue does not describe): JSON;
 *   in a `json:` column, text that is not JSON (see `isPlainTextCell`) is that text.
 * - Kept columns (`keep:KEY`) and unit columns: their text.
 *
 * What was read differently from how the contract writes it is returned as a `conversion`.
 */
export type Converted =
  | {
      value: unknown
      conversion?: Conversion
      measure?: Measure
      /** The field the value is for when not the column's own (a status's yes or no is Active's). */
      field?: FieldPath
    }
  | { error: string }

export interface CellOptions {
  /** The file writes decimals with a comma ("1,5"). */
  decimalComma?: boolean
  /** The web address a picture given as a path in the shop ("/m/b/mb01.jpg") is at: see picturePathCell. */
  imageBase?: string
  /** A unit the column's header names: a measure's cells are read in it. */
  unit?: LengthUnit
  /**
   * The column is headed by its own contract path, as Catalog Desk's export writes it: its cells
   * are the contract's values and are read as written (no spelling, unit or image list), so an
   * export comes back unchanged.
   */
  asWritten?: boolean
  /**
   * The sheet is Catalog Desk's own export (it has the draft column): every cell is exactly the
   * text of the draft's value, so besides being read as written, a yes/no is only true or false
   * as the export writes them. A draft's "yes" in a yes/no field stays the text it was, and the
   * draft comes back as invalid as it went out.
   */
  asExported?: boolean
  /**
   * The header says how the cell joins a list (PrestaShop's "Image URLs (x;y;z...)"): the product
   * image is the list's first address, the category its most specific entry.
   */
  list?: ',' | ';'
}

export type CellConverter = (text: string) => Converted

const ABSENT: Converted = { value: undefined }

export function cellConverter(path: FieldPath, options: CellOptions = {}): CellConverter {
  const convert = fieldConverter(path, options)
  // Extra columns keep their text as written; the app's own export writes no dash for nothing.
  if (options.asExported || path.startsWith(KEEP_COLUMN_PREFIX) || path.startsWith(JSON_COLUMN_PREFIX))
    return convert
  return (text) => {
    if (!LONE_DASH.test(text)) return convert(text)
    return { ...convert(''), conversion: { kind: 'dash-empty', from: text.trim(), to: '' } }
  }
}

/**
 * A cell holding only a dash: how many exports and people write "nothing here" (a Magento admin
 * grid's export writes " -" in every empty cell; its EAN column gave the barcode "-" to every
 * product without one). Read as an empty cell, and said so.
 */
const LONE_DASH = /^\s*[-–—]\s*$/

function fieldConverter(path: FieldPath, options: CellOptions): CellConverter {
  const name = describeColumn(path)
  if (path.startsWith(JSON_COLUMN_PREFIX)) return extraFieldCell(name)
  if (path.startsWith(KEEP_COLUMN_PREFIX) || path.startsWith(UNIT_COLUMN_PREFIX)) return keptCell
  const target = columnTarget(path)
  if (target.kind === 'slot') return slotCell(name)
  if (target.kind === 'json') return jsonCell(name)
  if (path === 'barcode') return options.asExported ? trimmedCell : barcodeCell
  if (options.asWritten) return leafCell(target.node.meta, name, options)
  if (isMeasure(path)) return measureCell(name, options)
  if (path === 'productImage')
    return pictureDataCell(
      imageCell(picturePathCell(leafCell(target.node.meta, name, options), options.imageBase), options.list),
    )
  // A semicolon joins no category's own name: a cell with one lists several (a real shop's own
  // export wrote "Dečaci; Noviteti - Dečaci; Setovi"). A comma may be a name's ("Bags, Wallets").
  if (path === 'category')
    return categoryNameCell(categoryListCell(leafCell(target.node.meta, name, options), options.list ?? ';'))
  if (path === 'subCategory') return categoryNameCell(leafCell(target.node.meta, name, options))
  return leafCell(target.node.meta, name, options)
}

/**
 * A shop's on or off in its status column, beyond the yes and no of any yes/no field: people's
 * words, WordPress's (WooCommerce's API writes a product's post status: publish, pending, private,
 * future for scheduled, trash) and Shopify's archived. A draft is left alone: DRAFT is the
 * platform's own status too.
 */
const ON_OFF: Record<string, boolean> = {
  enabled: true,
  disabled: false,
  active: true,
  inactive: false,
  publish: true,
  pending: false,
  private: false,
  future: false,
  trash: false,
  archived: false,
}

/**
 * A shop's status column that answers yes or no (PrestaShop's back office exports Status as 1 or 0,
 * people write "Enabled"): whether the product is on sale, which is Active, not the platform's
 * DRAFT or PUBLISHED. Sent as the status, a real export's "0" reached the platform as status "0",
 * and a WooCommerce API dump's "publish" as status "publish". A sheet's column only (headed
 * `status` too, as that dump's is), not the app's own export: a fixed value typed for the status is
 * the person's status, and the export wrote each draft's as it was.
 */
export function statusAnswerCell(convert: CellConverter): CellConverter {
  return (text) => {
    const answer = readBooleanText(text) ?? ON_OFF[text.trim().toLowerCase()]
    if (answer === undefined) return convert(text)
    return {
      value: answer,
      field: 'isActive',
      conversion: { kind: 'status-answer', from: text.trim(), to: String(answer) },
    }
  }
}

function trimmedCell(text: string): { value: string | undefined } {
  const trimmed = text.trim()
  return { value: trimmed === '' ? undefined : trimmed }
}

/**
 * A spreadsheet's mark that a cell is text: an apostrophe before what would read as a number.
 * Only before digits (spaces between groups allowed): "'Gold-7" keeps its apostrophe.
 */
const TEXT_MARK = /^'(\d[\d ]*)$/

/**
 * What a shop writes in its barcode column for "none": a placeholder ("N/A", "No barcode found"
 * in 693 rows of a real Dutch export), words, or a web page's address. No barcode is written
 * without a digit (in any script), so only such text is read as none; a code of letters without a
 * space ("KZKL"), which a shop may use as its barcode, is kept. Linear: the words' part cannot
 * backtrack, and a cell may hold a megabyte.
 */
const NO_BARCODE =
  /^(?:n\/?a|none|null|nil|unknown|tbd|tba|-+|[^\p{Nd}\s]*\s[^\p{Nd}]*|[a-z][a-z+.-]*:\/\/[^\p{Nd}]*)$/iu

/**
 * A cell of several codes: an Etsy listing's SKU column lists its variations' codes ("66F9_5436,
 * 66F9_5437,…"), a price feed's "eans" a product's EANs. A barcode has no comma, semicolon, bar or
 * line break in it, so a cell split by one into two parts or more, each a code (a digit in four
 * characters or more), is a list. A number a spreadsheet wrote with commas ("4,006,381,333,931",
 * "8,90123E+12") is not: validation says what is wrong with it.
 */
const CODE_LIST = /[,;|\n]/
const CODE = /^(?=.*\p{Nd}).{4,}$/u

/** The codes a barcode cell lists, or undefined when it holds one (or none). */
function listedCodes(value: string): string[] | undefined {
  if (!CODE_LIST.test(value)) return undefined
  const parts = value
    .split(/[,;|\r\n]+/)
    .map((part) => part.trim())
    .filter(Boolean)
  return parts.length > 1 && parts.every((part) => CODE.test(part)) ? parts : undefined
}

/** The app's own export writes a draft's barcode as it is, so only other files lose the mark. */
function barcodeCell(text: string): Converted {
  const { value } = trimmedCell(text)
  if (value !== undefined && NO_BARCODE.test(value))
    return { value: undefined, conversion: { kind: 'no-barcode', from: value, to: '' } }
  // Sent as it was, the list was one SKU's barcode of 1,797 characters (a tryout's Etsy listings):
  // which code is this SKU's is the person's to say, not the first one's by default.
  const codes = value === undefined ? undefined : listedCodes(value)
  if (codes) {
    const shown = codes.slice(0, 2).map((code) => `“${code}”`)
    if (codes.length > 2) shown.push('…')
    return {
      error: `Barcode holds ${codes.length} codes, not one (${shown.join(', ')}): keep this SKU’s own, or give each code a row of its own`,
    }
  }
  const digits = value === undefined ? undefined : TEXT_MARK.exec(value)?.[1]
  return digits === undefined
    ? { value }
    : { value: digits, conversion: { kind: 'text-mark', from: value!, to: digits } }
}

/** Extra columns kept at the person's word: their text as written. */
function keptCell(text: string): Converted {
  return text.trim() === '' ? ABSENT : { value: text }
}

/** Converts one cell of `path`; see {@link cellConverter} for the rules. */
export function convertCell(path: FieldPath, text: string, options?: CellOptions): Converted {
  return cellConverter(path, options)(text)
}

function leafCell(
  meta: FieldMeta,
  name: string,
  { decimalComma = false, asWritten = false, asExported = false }: CellOptions,
): CellConverter {
  const empty: Converted = meta.allowEmpty ? { value: '' } : ABSENT
  switch (meta.kind) {
    case 'number':
    case 'integer':
      return (text) => {
        const read = readNumberText(text, { name, integer: meta.kind === 'integer', decimalComma })
        if ('absent' in read) return empty
        if ('error' in read) return { error: withCommaHint(read.error, text, decimalComma) }
        return decimalComma && text.includes(',')
          ? { value: read.value, conversion: { kind: 'decimal-comma', from: text, to: String(read.value) } }
          : { value: read.value }
      }
    case 'boolean':
      return (text) => {
        if (text.trim() === '') return empty
        // The app's export writes a yes/no as true or false: other text is what the draft held.
        if (asExported && !isPlainBoolean(text))
          return { error: `${name} must be true or false, not ${describeValue(text)}` }
        const value = readBooleanText(text)
        if (value === undefined)
          return { error: `${name} must be yes or no (true/false, Y/N, 1/0), not ${describeValue(text)}` }
        return isPlainBoolean(text)
          ? { value }
          : { value, conversion: { kind: 'yes-no', from: text, to: String(value) } }
      }
    case 'json':
      return jsonCell(name)
    case 'url': {
      const asIs = textCell(meta, empty, { suggest: false })
      return asWritten || asExported ? asIs : urlCell(asIs)
    }
    default:
      return textCell(meta, empty, { suggest: !asWritten })
  }
}

/**
 * A text cell as written, or, when `suggest` (a sheet's column, not one headed by its contract
 * path), spelled as the field's examples are ("Eyewear" → "eyewear") and without the spaces around
 * it: real exports end names with a space ("Braided hat ", Akeneo's own export test; a French
 * shop's "… Taille 04 ans "), which the platform would keep as part of the name.
 */
function textCell(meta: FieldMeta, empty: Converted, { suggest }: { suggest: boolean }): CellConverter {
  return (text) => {
    const trimmed = text.trim()
    if (trimmed === '') return empty
    if (!suggest) return { value: text }
    const spelled = suggestedSpelling(text, meta.examples)
    if (spelled !== undefined)
      return { value: spelled, conversion: { kind: 'spelling', from: text, to: spelled } }
    return trimmed === text
      ? { value: text }
      : { value: trimmed, conversion: { kind: 'spaces-trimmed', from: text, to: trimmed } }
  }
}

/**
 * A web address as shops write it without its scheme: protocol-relative ("//cdn.shopify.com/…",
 * as Shopify's themes do) or from "www." (a Dutch shop's export had every picture so). A browser
 * reads both as https, and so does the import, saying so; any other text is left for validation
 * to refuse, as no web address can be told from it.
 */
const WITHOUT_SCHEME = /^(?:\/\/|www\.)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?:[/?#:]\S*)?$/u

function urlCell(convert: CellConverter): CellConverter {
  return (text) => {
    const trimmed = text.trim()
    if (!WITHOUT_SCHEME.test(trimmed)) return convert(text)
    const address = trimmed.startsWith('//') ? `https:${trimmed}` : `https://${trimmed}`
    return { ...convert(address), conversion: { kind: 'scheme-added', from: text, to: address } }
  }
}

/** A file's "1,5" is most likely a decimal comma: the person is told how to say so. */
function withCommaHint(error: string, text: string, decimalComma: boolean): string {
  return !decimalComma && /^\s*[+-]?\d*,\d+\s*[a-z"″]*\.?\s*$/i.test(text)
    ? `${error}; if this file writes decimals with a comma, say so and it is read as one`
    : error
}

/**
 * WooCommerce and feeds join a product's images in one cell with commas, Squarespace with spaces:
 * the first is its picture. A header that names the list's separator (PrestaShop's "(x;y;z...)")
 * is taken at its word.
 */
function imageCell(convert: CellConverter, list?: ',' | ';'): CellConverter {
  return (text) => {
    const urls = list
      ? text.split(list).filter((url) => url.trim() !== '')
      : text.split(/(?:[,;]\s*|\s+)(?=https?:\/\/|www\.|\/\/)/i)
    if (urls.length < 2) return convert(text)
    const first = urls[0]!.trim()
    const converted = convert(first)
    return 'error' in converted
      ? converted
      : { ...converted, conversion: { kind: 'first-image', from: text, to: String(converted.value) } }
  }
}

/**
 * A picture's own bytes in the cell, not an address: Odoo's export writes its products' `image`
 * as base64 (a PNG's starts "iVBORw0KGgo", a JPEG's "/9j/"), and a data: address holds the same.
 * The platform takes an address, so the cell is no picture, said as a conversion with the data's
 * start: a tryout's Odoo export had each cell read as "several images" and printed whole.
 */
const PICTURE_DATA = /^(?:data:image\/[\w.+-]+;base64,|iVBORw0KGgo|\/9j\/|R0lGOD|UklGR)[A-Za-z0-9+/=\s]*$/

function pictureDataCell(convert: CellConverter): CellConverter {
  return (text) => {
    const data = text.trim()
    if (!PICTURE_DATA.test(data)) return convert(text)
    return { value: undefined, conversion: { kind: 'picture-data', from: `${data.slice(0, 16)}…`, to: '' } }
  }
}

/**
 * A picture given as a path in the shop, not a web address: Magento's export writes each as a path
 * in its media folder ("/m/b/mb01-blue-0.jpg", a tryout's real export 443 of 454 rows so), Akeneo's
 * in its archive ("files/…/shield.jpg"). With the address the person says the shop's pictures are
 * at (`imageBase`, "https://shop.example/media/catalog/product"), read as one, and said so;
 * without, refused with the way to give it: no address is guessed.
 */
const PICTURE_PATH = /^(?:\/(?!\/)|[^\s/.:?#]+\/)[^\s:?#]*\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?)$/i

function picturePathCell(convert: CellConverter, base: string | undefined): CellConverter {
  return (text) => {
    const path = text.trim()
    if (!PICTURE_PATH.test(path)) return convert(text)
    if (!base)
      return {
        error: `Product image is a path in the shop, not a web address: say at which address the shop’s pictures are, and each path is read with it`,
      }
    const address = `${base.trim().replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
    const converted = convert(address)
    return 'error' in converted
      ? converted
      : { ...converted, conversion: { kind: 'image-base', from: text, to: address } }
  }
}

/**
 * A list of the categories a product is in (PrestaShop's "Categories (x,y,z...)", "Home, Women,
 * Dresses"): the category is its most specific, the last entry that is neither the shop's root nor
 * a collection to sell by (category-lists.ts); a list of those alone keeps its first.
 */
function categoryListCell(convert: CellConverter, list: ',' | ';'): CellConverter {
  return (text) => {
    const entries = text
      .split(list)
      .map((entry) => entry.trim())
      .filter(Boolean)
    if (entries.length < 2) return convert(text)
    const chosen = entries.filter((entry) => !isAsideCategory(entry)).at(-1) ?? entries[0]!
    const converted = convert(chosen)
    return 'error' in converted
      ? converted
      : { ...converted, conversion: { kind: 'category-list', from: text, to: String(converted.value) } }
  }
}

/**
 * What kind of product a shop system says a row is, not what the product is: WooCommerce's and
 * Magento's "type" (simple, variable, configurable…) and Odoo's "Product Type" (Stockable Product,
 * Consumable, Service; "product", "consu", "service" in its own export). A column of them matched
 * as the category or sub-category ("Type" is Shopify's product type, a sub-category) gave every SKU
 * of a tryout's sheet the sub-category "variable", and an Odoo sheet's 574 SKUs the category
 * "Stockable Product" or "Service".
 */
const PRODUCT_KINDS =
  /^(?:simple|variable|variation|grouped|external|configurable|bundle|virtual|downloadable)(?:\s*,\s*(?:simple|variable|variation|downloadable|virtual))*$|^(?:stockable product|storable product|consumable|service|goods|combo|product|consu)$/i

/** A category's number in the shop, not its name (PrestaShop's "Categories (x,y,z...)" takes either: "13"). */
const CATEGORY_NUMBER = /^\d+$/

/**
 * The category WooCommerce gives a product left without one, in the languages its exports are read
 * in (woocommerce-language.ts), and a person's placeholder: each says the product has none.
 */
const NO_CATEGORY = new Set([
  // A person's placeholder, as in a barcode cell (a tryout's beauty template wrote "NONE").
  'none',
  'n/a',
  'null',
  'uncategorized',
  'uncategorised',
  'sin categorizar',
  'sin categoría',
  'non classé',
  'unkategorisiert',
  'senza categoria',
  'sem categoria',
  'geen categorie',
  'ongecategoriseerd',
  'ukategoriseret',
  'okategoriserad',
  'okategoriserade',
  'без категории',
  'без рубрики',
  'bez kategorii',
])

/** Why a category cell's text names no category, or undefined when it may name one. */
function namesNoCategory(text: string): 'product-kind' | 'category-number' | 'no-category' | undefined {
  const trimmed = text.trim()
  if (PRODUCT_KINDS.test(trimmed)) return 'product-kind'
  if (CATEGORY_NUMBER.test(trimmed)) return 'category-number'
  if (NO_CATEGORY.has(trimmed.toLowerCase())) return 'no-category'
  return undefined
}

/**
 * A category or sub-category cell that names no category (a kind of product, a category's number,
 * "Uncategorized") is read as empty, and said so; in a list ("Discord Bots, Uncategorized",
 * "2, 13"), such entries are dropped and the rest read, or the cell is empty when none is left.
 */
function categoryNameCell(convert: CellConverter): CellConverter {
  return (text) => {
    const whole = namesNoCategory(text)
    if (whole) return { value: undefined, conversion: { kind: whole, from: text.trim(), to: '' } }
    const separator = [';', ','].find((mark) => text.includes(mark))
    if (separator === undefined) return convert(text)
    const entries = text.split(separator).filter((entry) => entry.trim())
    const reasons = entries.map(namesNoCategory)
    const dropped = reasons.find((reason) => reason !== undefined)
    if (dropped === undefined) return convert(text)
    const named = entries.filter((_, at) => reasons[at] === undefined)
    if (named.length === 0)
      return { value: undefined, conversion: { kind: dropped, from: text.trim(), to: '' } }
    const converted = convert(named.join(separator))
    return 'error' in converted || converted.conversion
      ? converted
      : { ...converted, conversion: { kind: dropped, from: text.trim(), to: String(converted.value) } }
  }
}

function measureCell(name: string, { decimalComma = false, unit }: CellOptions): CellConverter {
  return (text) => {
    const read = readMeasure(text, { name, decimalComma })
    if ('absent' in read) return ABSENT
    if ('error' in read) return { error: withCommaHint(read.error, text, decimalComma) }
    if ('text' in read) return { value: text }
    const measure: Measure = {
      amount: read.amount,
      unitInCell: read.unit !== undefined,
      decimalComma: text.includes(','),
      ...((read.unit ?? unit) && { unit: read.unit ?? unit }),
    }
    // The text as written while nothing about it changes ("52.0" stays "52.0"); rows.ts rewrites it
    // when a unit or a comma has to go.
    return { value: text.trim(), measure }
  }
}

function parseJson(text: string): { value: unknown } | { reason: string } {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (error) {
    return { reason: (error as Error).message }
  }
}

/**
 * Whether a `json:` column's cell is plain text rather than JSON: it does not read as JSON, and
 * does not start as an object, a list or a quoted string would (so `{"url": "x"` stays an error).
 * The export writes such a text field as it is, and quotes only text that would read otherwise
 * ("12", "true", "", "[draft]"), so both read back the same.
 */
export function isPlainTextCell(text: string): boolean {
  const start = text.trimStart()[0]
  if (start === undefined || start === '{' || start === '[' || start === '"') return false
  return 'reason' in parseJson(text)
}

/** A field the contract does not name (`json:PATH`): JSON, or plain text as the export writes it. */
function extraFieldCell(name: string): CellConverter {
  const json = jsonCell(name)
  return (text) => (isPlainTextCell(text) ? { value: text } : json(text))
}

function jsonCell(name: string): CellConverter {
  return (text) => {
    if (text.trim() === '') return ABSENT
    const parsed = parseJson(text)
    if ('reason' in parsed)
      return { error: `${name} must be JSON (such as "text", 12 or {"key": "value"}): ${parsed.reason}` }
    return parsed
  }
}

function slotCell(name: string): CellConverter {
  return (text) => {
    const trimmed = text.trim()
    if (trimmed === '' || trimmed === 'null') return { value: null }
    const parsed = parseJson(trimmed)
    const value = 'value' in parsed ? parsed.value : undefined
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const why = 'reason' in parsed ? `it is not JSON (${parsed.reason})` : `not ${describeValue(value)}`
      return { error: `${name} must be empty, null or a JSON object such as {"url": "https://…"}; ${why}` }
    }
    return { value }
  }
}
