import { gtinFinding } from '../values/gtin.ts'
import { wordsOf } from './header-words.ts'

/**
 * A barcode that is no GTIN in a column that names one ("gtin", "EAN", "UPC-A"): a real Meta
 * catalog feed's `gtin` column held the shop's own numbers (GUT100, 1814, KZKL), all taken for
 * barcodes without a word. A column headed "Barcode", or a shop's code a person mapped to the
 * barcode, may hold any text, as the contract allows: nothing is said of those. A GTIN is 8, 12,
 * 13 or 14 digits; what is wrong with one of that length (its check digit, a letter for a digit)
 * validation says itself (values/gtin.ts).
 */

/** The GS1 codes a header may name; "barcode" is no code of its own. */
const CODES = /^(?:gtin\d*|ean\d*|upc\w?|jan|isbn\d*)$/

const GTIN_DIGITS = /^(?:\d{8}|\d{12,14})$/

/** The words of a header that name a GTIN ("EAN-13" names one, "Barcode" none). */
function namesGtin(header: string): boolean {
  return wordsOf(header)
    .split(' ')
    .some((word) => CODES.test(word))
}

/** What to say of `barcode` from the column `header`, or undefined when there is nothing to say. */
export function gtinColumnWarning(header: string, barcode: unknown): string | undefined {
  if (typeof barcode !== 'string' || !namesGtin(header)) return undefined
  const text = barcode.trim()
  // A GTIN, or one validation already says is wrong (a letter where a digit belongs).
  if (text === '' || GTIN_DIGITS.test(text) || gtinFinding(text)) return undefined
  return `Barcode "${text}" is no GTIN (8, 12, 13 or 14 digits), though its column names one: check that it is the product’s barcode`
}
