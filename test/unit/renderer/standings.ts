import type { Table } from 'dexie'
import type { ItemState } from '#shared/sync/ports.ts'
import { withStanding, type DestinationStanding, type DraftSync } from '#shared/sync/standing.ts'

/** The destination most renderer tests send to: the address their run target names. */
export const DEST = 'http://127.0.0.1:9'

/**
 * Sets a draft's standing at `destination`, as a run would have left it (a state written by hand,
 * the way the tests set `syncState` before destinations): the run and position name no item
 * unless given.
 */
export async function setStanding<T extends { id: string; sync: DraftSync; payload: unknown }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  table: Table<T, string, any>,
  id: string,
  state: ItemState,
  destination = DEST,
  standing: Partial<DestinationStanding> = {},
): Promise<void> {
  const draft = await table.get(id)
  if (!draft) throw new Error(`No draft ${id}`)
  await table.put({
    ...draft,
    ...withStanding(draft, destination, { state, run: 'by-hand', position: 0, at: 0, ...standing }),
  })
}

/** Takes a draft back to `draft` at `destination` by hand (no standing there), as another window might. */
export async function clearStanding<T extends { id: string; sync: DraftSync; payload: unknown }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  table: Table<T, string, any>,
  id: string,
  destination = DEST,
): Promise<void> {
  const draft = await table.get(id)
  if (!draft) throw new Error(`No draft ${id}`)
  await table.put({ ...draft, ...withStanding(draft, destination, undefined) })
}
