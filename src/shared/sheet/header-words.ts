import { LENGTH_UNITS, type LengthUnit } from '../values/measure.ts'

/**
 * A header read as words, the way a person reads it: "Variant Barcode", "Google Shopping / Gender",
 * "Frame Width (mm)", `frame_width-mm` and `name-en_US` say a field in words, with a prefix the
 * shop adds, a unit or a locale around them. Matching compares the words; the rest is kept for
 * what it says (a unit to read the cells in; a locale, set aside).
 */

export interface HeaderWords {
  /** The header's words, lower-case, accents and punctuation gone: "frame width". */
  words: string
  /** The words after a shop's prefix ("variant", "google shopping"), or `words` when it has none. */
  unprefixed: string
  /** A unit the header names: "(mm)", "-mm", "in cm". */
  unit?: LengthUnit
  /**
   * A PIM locale suffix (`-en_US`), with any channel after it (`-ecommerce`), or a language's code
   * alone (`_uk`): set aside so `name-en_US` reads as "name"; two locales of one field contest it
   * as any two columns do.
   */
  locale?: string
  /**
   * How a cell of this column joins a list, when the header says so: PrestaShop's
   * "Categories (x,y,z...)" joins with commas, its 1.6 dialect's "Image URLs (x;y;z...)" with
   * semicolons.
   */
  list?: ',' | ';'
}

/** Prefixes shops put before a field's own words; the field is the rest. */
const PREFIXES = ['google shopping', 'variant', 'product', 'item', 'custom', 'attribute', 'meta']

const LOCALE = /[-_ ]([a-z]{2}_[A-Z]{2})(?:-([\w]+))?$/
/**
 * A language's code alone after a field's words (`title_uk`, `title_en`: a shop's own sheet in
 * Ukrainian and English, whose names were read as no field). Only languages' codes shops write,
 * and not `id` (Indonesian's, but `image_id` and `category_id` are ids) nor `no` (a number).
 */
const LANGUAGE =
  /[-_](en|uk|ru|pl|de|fr|es|it|pt|nl|sv|da|fi|nb|cs|sk|hu|ro|bg|el|tr|ar|he|ja|zh|ko|vi|th|lt|lv|et|hr|sl|sr)$/
const UNIT_IN_BRACKETS = /\s*[([]\s*(?:in\s+)?([a-z]+)\s*[)\]]\s*$/i
const UNIT_SUFFIX = /[-_ ](?:in[-_ ])?([a-z]+)$/i

/** Lower-case words of a text: accents, case and punctuation do not count. */
export function wordsOf(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      // camelCase and snake_case split as words: lensColorCode → lens color code.
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(' ')
  )
}

/**
 * Whether `text` holds the words of `value` as words of its own, in any case, punctuation and `_`
 * read as spaces: "M" is no word of "Merino", "crimson_red" is in "Crimson red tee". A variant
 * whose name says its options already is not named with them again.
 */
export function namesWords(text: string, value: string): boolean {
  const words = wordsOf(value)
  return words !== '' && ` ${wordsOf(text)} `.includes(` ${words} `)
}

/**
 * "Active (Y/N)", PrestaShop's "Default (0 = No, 1 = Yes)": the header says how the cells answer,
 * which the field's kind knows already.
 */
const ANSWER_HINT =
  /\s*[([]?\s*(?:y\s*\/\s*n|yes\s*\/\s*no|true\s*\/\s*false|1\s*\/\s*0|0\s*\/\s*1|0\s*=\s*no\s*[,;]\s*1\s*=\s*yes)\s*[)\]]?\s*$/i

/** PrestaShop's hint of a list cell, "(x,y,z...)" or "(x;y;z...)": the cell joins its items so. */
const LIST_HINT = /\s*\(\s*x\s*([,;])\s*y\s*\1\s*z\s*\.*\s*\)\s*$/i
/** PrestaShop's hint of a cell's structure, "Feature(Name:Value:Position)": the words before it name the column. */
const STRUCTURE_HINT = /\s*\(\s*\w+(?:\s*:\s*\w+)+\s*\)\s*$/
/** PrestaShop marks required columns with `*` and codes with `#` ("Name *", "Reference #"). */
const MARKS = /(?:\s*[*#])+\s*$/

/**
 * Shopify's metafield columns, "Grupo de edad (product.metafields.shopify.age-group)": the label is
 * in the shop's language, the key after it is not; the key's words name the field.
 */
const METAFIELD = /\(\s*product\.metafields\.[\w-]+\.([\w-]+)\s*\)\s*$/

export function headerWords(header: string): HeaderWords {
  const metafield = METAFIELD.exec(header)
  let text = (metafield ? metafield[1]! : header).trim().replace(MARKS, '').replace(ANSWER_HINT, '')
  const listed = LIST_HINT.exec(text)
  if (listed) text = text.slice(0, listed.index)
  else text = text.replace(STRUCTURE_HINT, '')
  let locale: string | undefined
  const localised = LOCALE.exec(text) ?? LANGUAGE.exec(text)
  if (localised) {
    locale = localised[2] ? `${localised[1]}-${localised[2]}` : localised[1]
    text = text.slice(0, localised.index)
  }
  let unit: LengthUnit | undefined
  const bracketed = UNIT_IN_BRACKETS.exec(text)
  const suffixed = bracketed ? null : UNIT_SUFFIX.exec(text)
  const found = bracketed ?? suffixed
  if (found && LENGTH_UNITS[found[1]!.toLowerCase()]) {
    // "in" ends many headers ("Sold in"): as inches, only in brackets, "Width (in)".
    const word = found[1]!.toLowerCase()
    if (bracketed || word !== 'in') {
      unit = LENGTH_UNITS[word]
      text = text.slice(0, found.index)
    }
  }
  // "Variant SKU", "Google Shopping / Gender": the shop's own prefix comes off.
  const words = wordsOf(text)
  let unprefixed = words
  for (const prefix of PREFIXES) {
    if (words.startsWith(`${prefix} `)) {
      unprefixed = words.slice(prefix.length + 1)
      break
    }
  }
  return {
    words,
    unprefixed,
    ...(unit && { unit }),
    ...(locale && { locale }),
    ...(listed && { list: listed[1] as ',' | ';' }),
  }
}

/**
 * A header as written, but for what a spreadsheet or a translator varies without meaning to:
 * spaces (the no-break one before "?" in French "En stock ?"), curly or straight apostrophes.
 */
export function plainHeader(text: string): string {
  return text.normalize('NFC').replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim()
}
