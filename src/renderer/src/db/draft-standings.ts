import type { Table } from 'dexie'
import type { ItemState, ItemUpdate } from '#shared/sync/ports.ts'
import { withStanding, type DestinationStanding, type SyncState } from '#shared/sync-state.ts'
import type { DraftRow } from './draft-kinds.ts'

/** A run as far as the drafts' standings go: its id and where it sends. */
export interface StandingRun {
  id: string
  destination: string
}

/** A draft's next state at the run's destination, with its item's place in the run. */
export interface StandingChange {
  state: SyncState
  position: number
  /** For a created app: what the service said (`createdFields`). */
  created?: CreatedFields
}

/**
 * Whether the draft's standing at the run's destination is the run's item at `position`, in one
 * of `states`: whether the draft is still in that item's hands, and not moved on (to a later run,
 * back to editing).
 */
export function standsFor(
  draft: Pick<DraftRow, 'sync'> | undefined,
  run: StandingRun,
  position: number,
  states: readonly SyncState[],
): boolean {
  const standing = draft?.sync[run.destination]
  return (
    standing !== undefined &&
    standing.run === run.id &&
    standing.position === position &&
    states.includes(standing.state)
  )
}

/**
 * Writes drafts' standing at the run's destination to follow their items, in the caller's
 * transaction. A draft moves only while its standing there is this very item (this run, this
 * position) in one of the states `from` allows: a draft that left the run's hands (sent again by a
 * later run, returned to editing) is not pulled back by an old run's bookkeeping. `draft` removes
 * the standing (never sent there, as far as sending again goes). Returns the ids it moved.
 */
export async function moveStandings(
  table: Table<DraftRow, string>,
  run: StandingRun,
  changes: ReadonlyMap<string, StandingChange>,
  from: readonly ItemState[],
  now = Date.now(),
): Promise<string[]> {
  if (changes.size === 0) return []
  const ids = [...changes.keys()]
  const drafts = await table.bulkGet(ids)
  const changed: DraftRow[] = []
  drafts.forEach((draft, i) => {
    const change = changes.get(ids[i]!)!
    if (!draft || !standsFor(draft, run, change.position, from)) return
    if (draft.sync[run.destination]!.state === change.state) return
    const next: DestinationStanding | undefined =
      change.state === 'draft'
        ? undefined
        : { state: change.state, run: run.id, position: change.position, at: now, ...change.created }
    changed.push({ ...draft, ...withStanding(draft.sync, run.destination, next) })
  })
  await table.bulkPut(changed)
  return changed.map((draft) => draft.id)
}

/**
 * The most of a created app's answer kept on its draft, in JSON characters. The client in main
 * already refuses answers over 1 MB; a few apps of a quarter of that each stay cheap to list.
 */
export const MAX_KEPT_RESPONSE_CHARS = 256 * 1024

/** What a draft of a kind that keeps the service's answer (an app) gets at a destination that created it. */
export type CreatedFields = Required<Pick<DestinationStanding, 'remoteId' | 'remoteCreatedAt'>> &
  Pick<DestinationStanding, 'response'>

/**
 * What a `created` update gives the draft's standing: its id on the service, when the answer came,
 * and the answer itself unless it is too large (then only the id is kept, and the editor says so).
 */
export function createdFields(update: ItemUpdate, at: number): CreatedFields | undefined {
  if (update.state !== 'synced' || update.remoteId === undefined) return undefined
  const fields: CreatedFields = { remoteId: update.remoteId, remoteCreatedAt: at }
  let json: string | undefined
  try {
    json = JSON.stringify(update.response)
  } catch {
    json = undefined
  }
  if (json !== undefined && json.length <= MAX_KEPT_RESPONSE_CHARS) fields.response = JSON.parse(json)
  return fields
}
