/**
 * The template's second row is help text, not a SKU. Its first cell starts with this marker; the
 * importer skips any data row with a cell that starts with it, wherever the column was moved to.
 */
export const HELP_MARKER = '# help:'

export function isHelpRow(cells: readonly string[]): boolean {
  return cells.some((cell) => cell.startsWith(HELP_MARKER))
}

/** A row with nothing in it (spreadsheets keep such rows between blocks); skipped, not a SKU. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '')
}
