/**
 * Where a row of a file is, as a person looks for it. The pipeline numbers a file's data rows from
 * 1 (`RowResult.row`: the first row under the header is 1); a person reads them as follows.
 *
 * - A sheet (CSV, TSV, XLSX): by its line, the row number the spreadsheet app shows beside it: the
 *   header is line 1, data row N is line N + 1. A CSV cell holding a line break makes one row
 *   span several lines of the file's text; it is still one line of the spreadsheet, and the lines
 *   after it are counted as the spreadsheet counts them, not as a text editor would. The
 *   template's help row and blank rows count, as the spreadsheet shows them.
 * - A JSON list or an XML feed has no lines: its rows are its items, numbered from 1 ("item 3").
 * - PrestaShop's pair (prestashop-pair.ts) is read as one sheet, the products file's rows then the
 *   combinations file's: each is said with its own file and its line in it.
 */

/**
 * The pair's two files: rows 1 to `products.rows` are the products file's, the rest the
 * combinations file's (`products.rows` is Infinity while the products file is still being read).
 */
export interface PairFiles {
  products: { name: string; rows: number }
  combinations: { name: string }
}

export type RowNumbering = 'lines' | 'items' | { pair: PairFiles }

/** One row's place: "line 4", "item 3", "combinations_import.csv line 3". */
export interface Place {
  noun: 'line' | 'item'
  n: number
  /** The file, where the rows come from two (PrestaShop's pair). */
  file?: string
}

/** The line of the spreadsheet that data row `row` is on: the header is line 1. */
export function lineOf(row: number): number {
  return row + 1
}

export function placeOf(row: number, numbering: RowNumbering): Place {
  if (numbering === 'items') return { noun: 'item', n: row }
  if (numbering === 'lines') return { noun: 'line', n: lineOf(row) }
  const { products, combinations } = numbering.pair
  return row <= products.rows
    ? { noun: 'line', n: lineOf(row), file: products.name }
    : { noun: 'line', n: lineOf(row - products.rows), file: combinations.name }
}

const THOUSANDS = new Intl.NumberFormat('en-US')

/**
 * A count as every message says it: "3,001 SKUs". The app passes its own, in the person's
 * language. Not a place's number: "line 3001" is said as the spreadsheet shows it beside the row,
 * and a list of them would read as more numbers than it holds ("lines 1,563, 1,573").
 */
export type NumberWords = (n: number) => string
export const thousands: NumberWords = (n) => THOUSANDS.format(n)

/**
 * "line 4", "item 3", "combinations_import.csv line 3"; `first`: it begins a sentence ("Line 4"),
 * where a file's name still keeps its own spelling.
 */
export function sayPlace(place: Place, first = false): string {
  if (place.file) return `${place.file} ${place.noun} ${place.n}`
  const noun = first ? place.noun.charAt(0).toUpperCase() + place.noun.slice(1) : place.noun
  return `${noun} ${place.n}`
}

/** `sayPlace` of a data row. */
export function sayRow(row: number, numbering: RowNumbering, first = false): string {
  return sayPlace(placeOf(row, numbering), first)
}

/**
 * Several rows: "line 4", "lines 2, 4, 5 and 9 more" (`shown` named, `total` when more are known
 * than given, that count said by `number`), each file named once in a pair ("products_import.csv
 * lines 2, 3; combinations_import.csv line 4").
 */
export function sayRows(
  rows: readonly number[],
  numbering: RowNumbering,
  {
    shown = rows.length,
    total = rows.length,
    number = thousands,
  }: { shown?: number; total?: number; number?: NumberWords } = {},
): string {
  const places = rows.slice(0, shown).map((row) => placeOf(row, numbering))
  const runs: { file?: string; noun: Place['noun']; numbers: number[] }[] = []
  for (const place of places) {
    const last = runs.at(-1)
    if (last && last.file === place.file) last.numbers.push(place.n)
    else
      runs.push({
        ...(place.file !== undefined && { file: place.file }),
        noun: place.noun,
        numbers: [place.n],
      })
  }
  const more = total - places.length
  const said = runs
    .map((run) => {
      const plural = run.numbers.length > 1 || more > 0 ? 's' : ''
      return `${run.file ? `${run.file} ` : ''}${run.noun}${plural} ${run.numbers.join(', ')}`
    })
    .join('; ')
  return `${said}${more > 0 ? ` and ${number(more)} more` : ''}`
}
