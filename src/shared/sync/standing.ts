import { payloadFingerprint } from '../payload-fingerprint.ts'
import { ITEM_STATES, type ItemState } from './ports.ts'
import { isRecord } from '../is-record.ts'
import { barcodeKey } from './send-gates.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from './destination.ts'

/**
 * Where a draft stands with one destination (src/shared/sync/destination.ts). `draft`: never sent
 * there, or back to editing after a refusal; the rest are the states of its item in the latest run
 * to that destination that took it (`ITEM_STATES`), per the sync outcome table of the
 * architecture guide.
 */
export const SYNC_STATES = ['draft', ...ITEM_STATES] as const
export type SyncState = (typeof SYNC_STATES)[number]

/** States in which a run holds the draft: it is read for sending, so it cannot be edited meanwhile. */
export const LIVE_STATES = ['queued', 'sending'] as const satisfies readonly ItemState[]

/**
 * A draft at one destination, kept on the draft: its state, and the run item that set it (the run's
 * record of what was sent, the exact payload included, and what came of it). For a SKU created
 * there, also what the platform knows it by and what stands there now, and its latest update.
 */
export interface DestinationStanding {
  state: ItemState
  run: string
  /** The item's place in its run: `[run, position]` is the item's key. */
  position: number
  /** When it took this state (ms since the epoch). */
  at: number
  /**
   * Its id on that service: an app's `_id` from the creation's answer; a SKU's from the bulk
   * upload's answer when it carried ids (src/shared/sync/platform-ids.ts) or from a platform list
   * the person imported. What an update is sent to; without it a SKU cannot be updated.
   */
  remoteId?: string
  /** For an app: when the service's answer came. */
  remoteCreatedAt?: number
  /**
   * For an app: the `app` as that service returned it, untrusted (never rendered as HTML) and
   * size-limited (absent when it was too large to keep).
   */
  response?: unknown
  /**
   * For a SKU created there: the fingerprint (payload-fingerprint.ts) of the payload that stands
   * there now, as far as the app knows (what created it, then each update it applied): a draft
   * whose payload has another is "changed since sent there". `UNRECORDED` when a version that kept
   * no payload sent it and the draft was edited since; absent for what has no updates (an app).
   */
  sent?: string
  /**
   * The item whose kept payload (`sent` of its record) is what stands there: what an update's
   * changes are counted from. Absent: the standing's own item (the creation).
   */
  base?: ItemKey
  /**
   * For a SKU created there: its barcode as it stands there (`barcodeKey`: what created it, then
   * each update applied). A draft whose barcode is edited keeps it there until an update sends the
   * new one (`standingTags`: no other draft is created with it meanwhile). Absent: recorded before
   * this was kept, or no barcode.
   */
  barcode?: string
  /** The latest update sent there, from the moment it is queued. */
  update?: UpdateStanding
}

/** A run's item by its key: its run and its place in it. */
export interface ItemKey {
  run: string
  position: number
}

/**
 * A SKU's latest update at a destination where it was created: the update run's item and where it
 * stands. Its creation's standing is left as it is: a refused or unknown update never makes a
 * created SKU look uncreated, so it is never offered for creation again.
 */
export interface UpdateStanding extends ItemKey {
  state: ItemState
  at: number
  /** The fingerprint of the draft as this update took it: a refusal holds back only that content. */
  sent: string
  /** Why it is rejected, failed or unknown. */
  message?: string
  /**
   * The service said the SKU is not there (a 404 with its message): the person chooses to create
   * it again or to forget that it was created there.
   */
  gone?: true
  /**
   * An update before it may or may not have been applied (its outcome unknown, or a 500): what
   * stands there is not known field by field, so this one sends the whole SKU.
   */
  afterDoubt?: true
}

/** Whether the next update of a SKU whose latest update is `update` knows what stands there. */
export function doubtsWhatStands(update: UpdateStanding | undefined): boolean {
  if (update === undefined) return false
  return (
    update.state === 'unknown' ||
    update.state === 'failed' ||
    (update.afterDoubt === true && update.state !== 'synced')
  )
}

/** `DestinationStanding.sent` for what an earlier version sent without keeping it, edited since. */
export const UNRECORDED = 'unrecorded'

/** A draft's standings by destination; a destination it was never sent to is absent. */
export type DraftSync = Readonly<Record<string, DestinationStanding>>

/** The draft's state at `destination`. */
export function stateAt(sync: DraftSync | undefined, destination: string): SyncState {
  return sync?.[destination]?.state ?? 'draft'
}

type LiveState = (typeof LIVE_STATES)[number]

/** Whether an item in this state is held by its run: queued or being sent. */
export function isLiveState(state: ItemState): state is LiveState {
  return (LIVE_STATES as readonly ItemState[]).includes(state)
}

/** Whether a run holds the draft at this destination: its creation or its update is queued or being sent. */
export function isLiveStanding(standing: DestinationStanding): boolean {
  return isLiveState(standing.state) || (standing.update !== undefined && isLiveState(standing.update.state))
}

/** The destination a run holds the draft for (queued or being sent there), if one does. */
export function liveDestination(sync: DraftSync | undefined): string | undefined {
  return Object.entries(sync ?? {}).find(([, standing]) => isLiveStanding(standing))?.[0]
}

/** Whether a run holds the draft at some destination (it is then not edited, deleted or queued again). */
export function isLive(sync: DraftSync | undefined): boolean {
  return liveDestination(sync) !== undefined
}

/**
 * Whether the draft was sent anywhere (or is being sent): it is then the record that keeps it from
 * being created twice, so an import does not replace it (a delete keeps it unless it was only
 * tried on the Sandbox: `keptFromDeleting`).
 */
export function wasSent(sync: DraftSync | undefined): boolean {
  return Object.keys(sync ?? {}).length > 0
}

/**
 * Whether a delete keeps the draft because it was sent: to any destination but the built-in
 * Sandbox, each desk's own trial service, where a second creation harms nobody. Drafts tried only
 * there can be cleaned up (a tryout could not delete its test drafts); one being sent anywhere is
 * kept by `isLive` first.
 */
export function keptFromDeleting(sync: DraftSync | undefined): boolean {
  return Object.keys(sync ?? {}).some((destination) => destination !== EMBEDDED_SANDBOX_DESTINATION)
}

/** Stands for every destination in the index's live tags. */
const ANY_DESTINATION = '*'
/** Between a destination and a state in a tag: a character no address holds. */
const SEPARATOR = '\u0000'

/**
 * What a tag of the `standing` index says about a draft at a destination: the state of its item
 * there, or, for a SKU created there, `changed` (its payload differs from what stands there, and
 * no run holds it nor a refusal of this very content), `no-id` (the platform's id of it is
 * unknown) and `gone` (an update found it no longer there).
 */
export type StandingTagState = ItemState | 'changed' | 'no-id' | 'gone'

/** The index tag of drafts in `state` at `destination`. */
export function standingTag(destination: string, state: StandingTagState): string {
  return `${destination}${SEPARATOR}${state}`
}

/**
 * The index tag of a SKU whose barcode at `destination` is `barcode` while its draft now carries
 * another: the send gates count the draft as carrying it still (a tryout edited a created SKU's
 * barcode, imported the file again, and the platform got the SKU twice).
 */
export function standsAsTag(destination: string, barcode: string): string {
  return `${destination}${SEPARATOR}stands as${SEPARATOR}${barcode}`
}

/** The index tags of every state at `destination`: the drafts sent there, whatever came of it. */
export function destinationTags(destination: string): string[] {
  return ITEM_STATES.map((state) => standingTag(destination, state))
}

/** The index tag of drafts in a live state at any destination (what a restart looks for). */
export function liveTag(state: LiveState): string {
  return standingTag(ANY_DESTINATION, state)
}

/** The index tags of drafts a run holds, at any destination. */
export function liveTags(): string[] {
  return LIVE_STATES.map(liveTag)
}

/**
 * Whether a draft with this payload is "changed since sent" to where it stands: created there,
 * with a payload other than what stands there, not held by a run, and not the very content an
 * update of it was refused for (an edit offers it again, as after a refused creation).
 */
export function isChangedSince(standing: DestinationStanding, fingerprint: () => string): boolean {
  if (standing.state !== 'synced' || standing.sent === undefined) return false
  const { update } = standing
  if (update && (isLiveState(update.state) || update.gone)) return false
  const now = fingerprint()
  if (now === standing.sent) return false
  return !(update?.state === 'rejected' && update.sent === now)
}

/**
 * The destinations where a draft whose payload has this fingerprint is "changed since sent"
 * (`isChangedSince`): where the Sync page offers it as an update. An import's dry run asks it of a
 * row before anything is written, and its writes of each draft they update.
 */
export function changedSinceAt(sync: DraftSync | undefined, fingerprint: () => string): string[] {
  return Object.entries(sync ?? {}).flatMap(([destination, standing]) =>
    isChangedSince(standing, fingerprint) ? [destination] : [],
  )
}

/**
 * What the drafts' multi-entry `standing` index holds for a draft: one tag a destination it was
 * sent to (the list filters and the pre-flight counts read these), one for a live state anywhere,
 * and for a SKU created there whether it changed since, whether its id is unknown and whether an
 * update found it gone. `payload` is the draft's now (its fingerprint is taken only when needed).
 */
export function standingTags(sync: DraftSync | undefined, payload: unknown): string[] {
  const tags: string[] = []
  let fingerprint: string | undefined
  const now = () => (fingerprint ??= payloadFingerprint(payload))
  for (const [destination, standing] of Object.entries(sync ?? {})) {
    tags.push(standingTag(destination, standing.state))
    if (isLiveState(standing.state)) tags.push(liveTag(standing.state))
    const { update } = standing
    if (update && isLiveState(update.state)) tags.push(liveTag(update.state))
    if (
      standing.barcode &&
      standing.state !== 'rejected' &&
      standing.barcode !== barcodeKey(isRecord(payload) ? payload.barcode : undefined)
    )
      tags.push(standsAsTag(destination, standing.barcode))
    if (standing.state !== 'synced' || standing.sent === undefined) continue
    if (isChangedSince(standing, now)) tags.push(standingTag(destination, 'changed'))
    if (standing.remoteId === undefined) tags.push(standingTag(destination, 'no-id'))
    if (update?.gone) tags.push(standingTag(destination, 'gone'))
  }
  return tags
}

/**
 * The draft's sync columns after its standing at `destination` changes: `next` undefined means
 * back to `draft` there (never sent, or a refusal cleared).
 */
export function withStanding(
  draft: { sync: DraftSync | undefined; payload: unknown },
  destination: string,
  next: DestinationStanding | undefined,
): { sync: DraftSync; standing: string[] } {
  const { [destination]: _previous, ...others } = draft.sync ?? {}
  const updated: DraftSync = next ? { ...others, [destination]: next } : others
  return { sync: updated, standing: standingTags(updated, draft.payload) }
}

/** Whether two drafts' standings are the same: no run took, sent or decided anything between them. */
export function sameStandings(a: DraftSync | undefined, b: DraftSync | undefined): boolean {
  const left = Object.entries(a ?? {})
  if (left.length !== Object.keys(b ?? {}).length) return false
  return left.every(([destination, standing]) => {
    const other = b?.[destination]
    return (
      other?.run === standing.run &&
      other.position === standing.position &&
      other.state === standing.state &&
      other.update?.run === standing.update?.run &&
      other.update?.position === standing.update?.position &&
      other.update?.state === standing.update?.state
    )
  })
}
