import type { Table } from 'dexie'
import { isRecord } from '#shared/is-record.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import { barcodeKey } from '#shared/sync/send-gates.ts'
import { draftKind } from '#shared/sync/kinds.ts'
import type { ItemState, ItemUpdate, RunAction, SyncKind } from '#shared/sync/ports.ts'
import {
  withStanding,
  type DestinationStanding,
  type SyncState,
  type UpdateStanding,
} from '#shared/sync/standing.ts'
import type { DraftRow } from './stored-kinds.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/** A run as far as the drafts' standings go: its id, where it sends, and whether it updates. */
export interface StandingRun {
  id: string
  destination: string
  /** An update run moves the drafts' `update` standing there; a creation (absent) the standing itself. */
  action?: RunAction | undefined
}

/** A draft's next state at the run's destination, with its item's place in the run. */
export interface StandingChange {
  state: SyncState
  position: number
  /** For a created app: what the service said (`createdFields`). */
  created?: CreatedFields
  /**
   * For a SKU created: what now stands there (the fingerprint of what was sent, its barcode) and the
   * platform's id of it when the answer gave one. For an update applied, its barcode.
   */
  stands?: Pick<DestinationStanding, 'sent' | 'remoteId' | 'barcode'>
  /** For an update: why it is rejected, failed or unknown, and whether the SKU is gone. */
  message?: string
  gone?: true
}

/**
 * What a creation leaves on the standing of a kind that has updates (a SKU): what now stands
 * there (the fingerprint of what its item sent, the base of its updates, and its barcode) and the
 * platform's id when one is known. Undefined for a kind without updates, or an item that kept no
 * payload. The outbox (an answer), "Mark as created" and a platform list all record a creation
 * this one way.
 */
export function createdStanding(
  kind: SyncKind,
  sent: unknown,
  remoteId?: string,
): StandingChange['stands'] | undefined {
  if (draftKind(kind).operations.update === undefined || sent === undefined) return undefined
  return {
    sent: payloadFingerprint(sent),
    ...standingBarcode(sent),
    ...(remoteId !== undefined && { remoteId }),
  }
}

/** The barcode a SKU's payload makes stand where it was sent, as the standing keeps it. */
export function standingBarcode(sent: unknown): Pick<DestinationStanding, 'barcode'> {
  const barcode = barcodeKey(isRecord(sent) ? sent.barcode : undefined)
  return barcode === '' ? {} : { barcode }
}

/** The record an item of `run` moves at the run's destination: the standing, or its update. */
function heldBy(
  standing: DestinationStanding | undefined,
  run: StandingRun,
): DestinationStanding | UpdateStanding | undefined {
  return run.action === 'update' ? standing?.update : standing
}

/**
 * Whether the draft's standing at the run's destination is the run's item at `position`, in one
 * of `states`: whether the draft is still in that item's hands, and not moved on (to a later run,
 * back to editing). For an update run, its `update` standing there.
 */
export function standsFor(
  draft: Pick<DraftRow, 'sync'> | undefined,
  run: StandingRun,
  position: number,
  states: readonly SyncState[],
): boolean {
  const held = heldBy(draft?.sync[run.destination], run)
  return (
    held !== undefined && held.run === run.id && held.position === position && states.includes(held.state)
  )
}

/**
 * A SKU's standing once an update item of `run` takes `change`: back to no update (`draft`), or the
 * update in its new state; an applied one makes what it sent what stands there, and its item the
 * base of the next update's changes.
 */
function updatedStanding(
  standing: DestinationStanding,
  run: StandingRun,
  change: StandingChange,
  at: number,
): DestinationStanding {
  const { update: previous, ...rest } = standing
  if (change.state === 'draft' || previous === undefined) return rest
  const update: UpdateStanding = {
    run: run.id,
    position: change.position,
    state: change.state,
    at,
    sent: previous.sent,
    ...(change.message !== undefined ? { message: change.message } : {}),
    ...(change.gone ? { gone: true as const } : {}),
    ...(previous.afterDoubt ? { afterDoubt: true as const } : {}),
  }
  if (change.state !== 'synced') return { ...rest, update }
  // The barcode it sent stands there now; without word of it (a decision), the one before.
  const { barcode: before, ...kept } = rest
  const barcode = change.stands ? change.stands.barcode : before
  return {
    ...kept,
    ...(barcode !== undefined && { barcode }),
    update,
    sent: previous.sent,
    base: { run: run.id, position: change.position },
  }
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
  now = systemClock.now(),
): Promise<string[]> {
  if (changes.size === 0) return []
  const ids = [...changes.keys()]
  const drafts = await table.bulkGet(ids)
  const changed: DraftRow[] = []
  drafts.forEach((draft, i) => {
    const change = changes.get(ids[i]!)!
    if (!draft || !standsFor(draft, run, change.position, from)) return
    const standing = draft.sync[run.destination]!
    if (heldBy(standing, run)!.state === change.state) return
    const next: DestinationStanding | undefined =
      run.action === 'update'
        ? updatedStanding(standing, run, change, now)
        : change.state === 'draft'
          ? undefined
          : {
              state: change.state,
              run: run.id,
              position: change.position,
              at: now,
              ...change.created,
              ...change.stands,
            }
    changed.push({ ...draft, ...withStanding(draft, run.destination, next) })
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
