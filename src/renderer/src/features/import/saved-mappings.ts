import type { ColumnMatch } from '#shared/sheet/types.ts'
import type { SavedMapping } from './import-protocol.ts'

/**
 * Mappings the user saved, by header: a header mapped once is mapped the same way in every later
 * file. Kept in localStorage: headers and field paths only, nothing secret.
 */
const KEY = 'catalog-desk.import-mapping'

export function loadSavedMapping(): SavedMapping {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}')
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {}
    return Object.fromEntries(
      Object.entries(stored).filter(
        (entry): entry is [string, string | null] => typeof entry[1] === 'string' || entry[1] === null,
      ),
    )
  } catch {
    // A damaged entry is not worth an error: the columns are matched afresh.
    return {}
  }
}

/** Adds these columns' choices to what was saved (a header saved before takes the new choice). */
export function saveMapping(columns: readonly Pick<ColumnMatch, 'header' | 'path'>[]): void {
  const saved = loadSavedMapping()
  for (const column of columns) if (column.header.trim()) saved[column.header] = column.path
  localStorage.setItem(KEY, JSON.stringify(saved))
}
