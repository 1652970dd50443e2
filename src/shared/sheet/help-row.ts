/**
 * The template's second row is help text, not a SKU. Its first cell starts with the marker and
 * ends by saying the row is skipped; the importer skips a data row with such a cell, wherever the
 * column was moved to. Both ends are checked, so a product note that happens to start with
 * "# help:" is never taken for it.
 */
export const HELP_MARKER = '# help:'
export const HELP_ROW_NOTE = '(This row is help: the importer skips it.)'

export function isHelpRow(cells: readonly string[]): boolean {
  return cells.some((cell) => cell.startsWith(HELP_MARKER) && cell.trimEnd().endsWith(HELP_ROW_NOTE))
}

/** A row with nothing in it (spreadsheets keep such rows between blocks); skipped, not a SKU. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '')
}

/**
 * A line of help above the header, one for each column: Meta's catalog template starts with one,
 * each cell "# Required | A unique content ID for the item…" (or "# Optional |", in the language of
 * whoever downloaded it: "# Обязательно |"), and its header is the line after. Taken for the header,
 * it left a real file with no column read. Every cell written is such help, and there are two at
 * least, so a header whose first column is named "#" is still a header.
 */
const COLUMN_HELP = /^#[^|\n]{1,40}\|/

export function isColumnHelpRow(cells: readonly string[]): boolean {
  const written = cells.filter((cell) => cell.trim() !== '')
  return written.length >= 2 && written.every((cell) => COLUMN_HELP.test(cell.trim()))
}

/** The note a sheet gets when its line `line` was such help. */
export function columnHelpNote(line: number): string {
  return `Line ${line} is help for each column (“# Required | …”, as Meta’s catalog template writes it), not the header: the header is read from the line after it.`
}
