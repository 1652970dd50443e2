/**
 * Formula injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or CR, which some
 * apps strip before looking) as a formula. Exported text cells that start so get a leading `'`,
 * which spreadsheets show as text. Plain numbers (`-2.5`, `+1e3`) are not formulas and stay as they
 * are, so a negative number field round-trips as a number.
 *
 * The importer undoes the escape: a cell of one or more `'` followed by one of those characters
 * loses one `'`. Text that itself starts with `'=` is exported as `''=`, so every value comes back
 * exactly as it went out.
 */
const DANGEROUS = /^'*[=+\-@\t\r]/
const ESCAPED = /^'+[=+\-@\t\r]/
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

export function isPlainNumber(text: string): boolean {
  return PLAIN_NUMBER.test(text)
}

export function escapeFormula(cell: string): string {
  return DANGEROUS.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell
}

export function unescapeFormula(cell: string): string {
  return cell.charCodeAt(0) === 39 && ESCAPED.test(cell) ? cell.slice(1) : cell
}
