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
