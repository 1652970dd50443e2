import type { ColumnMatch, FieldPath } from '#shared/sheet/types.ts'
import type { MappingArrival, MappingShare } from '#shared/team/draft-exchange.ts'

/** A saved mapping: the field each header was mapped to (null: ignored), whatever file it was in. */
export type SavedMapping = Record<string, FieldPath | null>

/**
 * Mappings the user saved, by header: a header mapped once is mapped the same way in every later
 * file. Kept in localStorage: headers and field paths only, nothing secret. With a team workspace
 * (issue #41) they are shared: a header saved here waits to be shared (with when it was saved),
 * and one saved on another desk arrives here, unless this desk's own choice for it waits to go.
 */
const KEY = 'catalog-desk.import-mapping'
const WAITING_KEY = 'catalog-desk.import-mapping.waiting'

/** A stored object of `string` keys whose values pass `valid`; a damaged or missing one is empty. */
function readStored<T>(key: string, valid: (value: unknown) => value is T): Record<string, T> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '{}')
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {}
    return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, T] => valid(entry[1])))
  } catch {
    // A damaged entry is not worth an error: the columns are matched afresh.
    return {}
  }
}

const isPath = (value: unknown): value is string | null => typeof value === 'string' || value === null
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)

export function loadSavedMapping(): SavedMapping {
  return readStored(KEY, isPath)
}

/**
 * Adds these columns' choices to what was saved (a header saved before takes the new choice); each
 * choice that changed waits to be shared with a team workspace.
 */
export function saveMapping(
  columns: readonly Pick<ColumnMatch, 'header' | 'path'>[],
  now = Date.now(),
): void {
  const saved = loadSavedMapping()
  const waiting = readStored(WAITING_KEY, isTime)
  for (const { header, path } of columns) {
    if (!header.trim() || saved[header] === path) continue
    saved[header] = path
    waiting[header] = now
  }
  localStorage.setItem(KEY, JSON.stringify(saved))
  localStorage.setItem(WAITING_KEY, JSON.stringify(waiting))
}

/** The choices saved here that wait to be shared, at most `limit`. */
export function waitingMappings(limit: number): MappingShare[] {
  const saved = loadSavedMapping()
  return Object.entries(readStored(WAITING_KEY, isTime))
    .filter(([header]) => header in saved)
    .slice(0, limit)
    .map(([header, editedAt]) => ({ header, path: saved[header] ?? null, editedAt }))
}

/** The workspace has these: each stops waiting, unless saved again since. */
export function mappingsShared(shares: readonly MappingShare[]): void {
  const waiting = readStored(WAITING_KEY, isTime)
  for (const { header, editedAt } of shares) if (waiting[header] === editedAt) delete waiting[header]
  localStorage.setItem(WAITING_KEY, JSON.stringify(waiting))
}

/**
 * Choices saved on other desks: each is saved here too, unless this desk's own choice for the
 * header waits to be shared (it goes next, and the workspace keeps the later write).
 */
export function applyMappingArrivals(arrivals: readonly MappingArrival[]): void {
  if (arrivals.length === 0) return
  const saved = loadSavedMapping()
  const waiting = readStored(WAITING_KEY, isTime)
  for (const { header, path } of arrivals) if (!(header in waiting)) saved[header] = path
  localStorage.setItem(KEY, JSON.stringify(saved))
}

/** Joined to another workspace: every choice saved here waits to be shared with it. */
export function shareAllMappings(now = Date.now()): void {
  const waiting = Object.fromEntries(Object.keys(loadSavedMapping()).map((header) => [header, now]))
  localStorage.setItem(WAITING_KEY, JSON.stringify(waiting))
}
