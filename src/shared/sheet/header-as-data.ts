import type { ColumnMatch } from './types.ts'

/**
 * A first row that reads as data rather than as a header: a file saved without its header row
 * (a real list of lipstick shades, `brand, shade no., shade name, R, G, B`, had none), whose first
 * row is then taken for the header, and its every row for a SKU without fields. Judged from the
 * headers alone: no column names a field (nor a shop's code, nor a typo of a field, nor a column
 * the format reads itself), and at least two of them, and a third, look like values (numbers,
 * web addresses, hex colours, e-mail addresses). A sheet of its own words (a size matrix headed
 * 36, 37, 38) may meet this too: what is said is a question, and the file is read all the same.
 */

/** A header that is a value: a number, a web address, a hex colour, an e-mail address. */
const VALUE = /^(?:[+-]?\d+(?:[.,]\d+)?|https?:\/\/\S+|#[0-9a-f]{3,8}|[^\s@]+@[^\s@]+\.[a-z]{2,})$/i

/** Header cells quoted as examples. */
const SHOWN = 3

/**
 * Why the first row looks like data, in words that end where the caller says what to do
 * (undefined when it reads as a header): `No cell of the first row names a field, and 3 look like
 * values ("150", "40", "78")`.
 */
export function headerAsData(matches: readonly ColumnMatch[]): string | undefined {
  const named = matches.some(
    (match) => match.path !== null || match.identifier || match.structural || match.suggestion,
  )
  if (named) return undefined
  const headers = matches.map((match) => match.header.trim()).filter((header) => header !== '')
  const values = headers.filter((header) => VALUE.test(header))
  if (values.length < 2 || values.length * 3 < headers.length) return undefined
  const shown = values
    .slice(0, SHOWN)
    .map((value) => `"${value}"`)
    .join(', ')
  return `No cell of the first row names a field, and ${values.length} look like values (${shown}${values.length > SHOWN ? ', …' : ''}): the first row is read as the header`
}
