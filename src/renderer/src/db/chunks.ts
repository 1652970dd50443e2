/**
 * Drafts a bulk action, an import chunk or an undo reads, writes and logs at a time, inside its one
 * transaction: keeps memory flat (~40 MB at 100,000 drafts) and gives progress something to count.
 */
const CHUNK = 500

/** `items` in order, `size` at a time (CHUNK unless said: the bridge's batch, say). */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
