/**
 * The columns Catalog Desk's export adds beside the contract's: which draft a row is, its sync
 * state at each destination and its problems. They are for the person reading the sheet and for
 * the importer, which knows its own export by the draft column (its rows then read as written)
 * and never reads the others back. All start with the app's name, so a shop's own column is
 * never taken for one.
 */

const APP_PREFIX = 'Catalog Desk '

/** The draft a row was exported from. */
export const DRAFT_COLUMN = `${APP_PREFIX}draft`

/** The draft's problems, as the editor words them. */
export const PROBLEMS_COLUMN = `${APP_PREFIX}problems`

/** The draft's sync state at one destination, named as the Sync page names it. */
export function syncStateColumn(place: string): string {
  return `${APP_PREFIX}sync: ${place}`
}

export function isAppColumn(header: string): boolean {
  return header.trim().startsWith(APP_PREFIX)
}

/** A sheet with the draft column is Catalog Desk's own export, whatever headers its fields have. */
export function isOwnExport(headers: readonly string[]): boolean {
  return headers.some((header) => header.trim() === DRAFT_COLUMN)
}

/** What the importer says of an app column it leaves alone. */
export const APP_COLUMN_READING = 'Catalog Desk’s own column: said for you, not read back'
