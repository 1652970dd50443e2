import { count } from '#renderer/words/counting.ts'
import { placeOf, sayPlace, sayRow, sayRows, type RowNumbering } from '#shared/sheet/places.ts'

/**
 * The import's rows as the person finds them in their file (places.ts): a sheet's line in the
 * spreadsheet ("Line 4": the header is line 1), an item of a JSON file or a feed ("Item 3"),
 * PrestaShop's pair by its file and line. A place's number as the spreadsheet shows it ("Line
 * 3001"); counts in the person's own way of writing them.
 */

/** "Line 4", "Item 3", "combinations_import.csv line 3": a row at the start of a sentence or a link. */
export function placeWords(row: number, numbering: RowNumbering): string {
  return sayRow(row, numbering, true)
}

/** The heading of a column of places: "Line", "Item", or a pair's "File and line". */
export function placeHeading(numbering: RowNumbering): string {
  return numbering === 'items' ? 'Item' : numbering === 'lines' ? 'Line' : 'File and line'
}

/** A row in a column or a list of places: its number ("4"), or a pair's file and line. */
export function placeCell(row: number, numbering: RowNumbering): string {
  const place = placeOf(row, numbering)
  return place.file ? sayPlace(place) : String(place.n)
}

/** What goes before a list of `n` places, as `placeCell` says them: "Lines ", "Item ", or nothing in a pair. */
export function placesHead(n: number, numbering: RowNumbering, first = true): string {
  if (typeof numbering === 'object') return ''
  const noun = numbering === 'items' ? 'item' : 'line'
  return `${first ? noun.charAt(0).toUpperCase() + noun.slice(1) : noun}${n === 1 ? '' : 's'} `
}

/** "lines 2, 27, 52 and 3 more": the first `shown` of several rows. */
export function placeList(rows: readonly number[], numbering: RowNumbering, shown = 5): string {
  return sayRows(rows, numbering, { shown, number: count })
}
