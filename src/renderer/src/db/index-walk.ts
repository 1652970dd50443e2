import { cmp } from 'dexie'

/**
 * Reading an index of IndexedDB a stretch at a time, from either end or from a known entry.
 * Dexie's `offset()` walks from an end with `advance()`, which Chromium pays for entry by entry
 * (~2.3 µs each: 230 ms to reach the end of 100,000 drafts); `continuePrimaryKey()` jumps straight
 * to a known entry instead (~10 ms). Entries with equal keys are ordered by draft id, so an index
 * key and an id together name one position.
 */
export interface Anchor {
  key: IDBValidKey
  id: string
}

export interface IndexEntry {
  key: IDBValidKey
  id: string
  /** The record, when the walk reads values. */
  value?: unknown
}

/** The way a walk goes: in the index's order (`next`) or against it (`prev`). */
export type CursorDirection = 'next' | 'prev'

/** The other way: a walk back from the far end, or from the start of a page already read. */
export const opposite = (direction: CursorDirection): CursorDirection =>
  direction === 'next' ? 'prev' : 'next'

export interface Walk {
  direction: CursorDirection
  /** Start just past this entry; from the first entry in `direction` when absent. */
  after?: Anchor
  /** Accepted entries to pass over before collecting. */
  skip: number
  /** Accepted entries to collect. Fewer come back when the index ends first. */
  take: number
  /** Which entries count; all of them when absent (and then skipping is one `advance`). */
  accept?: (id: string) => boolean
  values: boolean
}

export function walkIndex(index: IDBIndex, walk: Walk): Promise<IndexEntry[]> {
  const { after, accept } = walk
  if (walk.take <= 0) return Promise.resolve([])
  if (walk.values && !after && !accept && walk.skip === 0 && hasGetAllRecords(index))
    return firstEntries(index, walk)
  const forward = walk.direction === 'next'
  // The range starts at the anchor's key: the anchor, its ties and what follows.
  const range = after
    ? forward
      ? IDBKeyRange.lowerBound(after.key)
      : IDBKeyRange.upperBound(after.key)
    : null
  const request = walk.values
    ? index.openCursor(range, walk.direction)
    : index.openKeyCursor(range, walk.direction)
  const out: IndexEntry[] = []
  let positioned = !after
  let toSkip = walk.skip

  return new Promise((resolve, reject) => {
    request.onerror = () => reject(request.error)
    request.onsuccess = () => {
      const cursor = request.result
      if (!cursor) return resolve(out)
      const id = cursor.primaryKey as string
      if (!positioned && after) {
        if (cmp(cursor.key, after.key) === 0) {
          const order = cmp(id, after.id)
          // A tie of the anchor that comes before it: jump to the anchor in one step.
          if (forward ? order < 0 : order > 0) return cursor.continuePrimaryKey(after.key, after.id)
          if (order === 0) {
            positioned = true
            if (!accept && toSkip > 0) {
              cursor.advance(toSkip + 1)
              toSkip = 0
              return
            }
            return cursor.continue()
          }
        }
        // The anchor is gone (or this is past it): this entry is the first after it.
        positioned = true
      }
      if (accept && !accept(id)) return cursor.continue()
      if (toSkip > 0) {
        if (accept) {
          toSkip--
          return cursor.continue()
        }
        cursor.advance(toSkip)
        toSkip = 0
        return
      }
      out.push({ key: cursor.key, id, value: walk.values ? (cursor as IDBCursorWithValue).value : undefined })
      if (out.length >= walk.take) resolve(out)
      else cursor.continue()
    }
  })
}

/** IndexedDB 3.0's `getAllRecords` (Chromium 141 and later), which TypeScript's DOM types lack. */
interface RecordsIndex extends IDBIndex {
  getAllRecords(options: {
    count: number
    direction: IDBCursorDirection
  }): IDBRequest<Array<{ key: IDBValidKey; primaryKey: IDBValidKey; value: unknown }>>
}

function hasGetAllRecords(index: IDBIndex): index is RecordsIndex {
  return 'getAllRecords' in index
}

/**
 * The first `take` entries from an end of the index, with their records, in one request where a
 * cursor takes a round trip (and a task on the page's thread) an entry: the list's first rows at
 * the start (issue #37). The same entries, in the same order, as the cursor reads.
 */
function firstEntries(index: RecordsIndex, walk: Walk): Promise<IndexEntry[]> {
  const request = index.getAllRecords({ count: walk.take, direction: walk.direction })
  return new Promise((resolve, reject) => {
    request.onerror = () => reject(request.error)
    request.onsuccess = () =>
      resolve(request.result.map(({ key, primaryKey, value }) => ({ key, id: primaryKey as string, value })))
  })
}
