import type { SkuDraftRecord } from './records.ts'

/**
 * Whether a draft is a "New SKU" or "New app" left as it was made: marked so (`untouchedNew`,
 * written with it), never saved since (`updatedAt` is still `createdAt`: every save, bulk edit and
 * import moves it) and sent nowhere. Such a draft holds nothing anyone typed: leaving its editor
 * discards it, and so does the next start (a window closed or crashed on it leaves none behind).
 * Imports and duplicates are never marked.
 */
export function isUntouchedNew(
  record: Pick<SkuDraftRecord, 'createdAt' | 'updatedAt' | 'sync' | 'untouchedNew'>,
): boolean {
  return (
    record.untouchedNew === true &&
    record.updatedAt === record.createdAt &&
    Object.keys(record.sync).length === 0
  )
}

/**
 * Asks `free` to run the deletion of each draft of `ids`, one at a time (it declines one an editor
 * holds open); how many were deleted.
 */
export async function sweepEach(
  ids: readonly string[],
  discard: (id: string) => Promise<boolean>,
  free: (id: string, work: () => Promise<boolean>) => Promise<boolean>,
): Promise<number> {
  let deleted = 0
  for (const id of ids) if (await free(id, () => discard(id))) deleted++
  return deleted
}
