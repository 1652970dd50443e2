import { ITEM_STATES, type ItemState } from './sync/ports.ts'

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
 * record of what was sent, the exact payload included, and what came of it).
 */
export interface DestinationStanding {
  state: ItemState
  run: string
  /** The item's place in its run: `[run, position]` is the item's key. */
  position: number
  /** When it took this state (ms since the epoch). */
  at: number
  /** For an app the service created: its `_id` there. */
  remoteId?: string
  /** For an app: when the service's answer came. */
  remoteCreatedAt?: number
  /**
   * For an app: the `app` as that service returned it, untrusted (never rendered as HTML) and
   * size-limited (absent when it was too large to keep).
   */
  response?: unknown
}

/** A draft's standings by destination; a destination it was never sent to is absent. */
export type DraftSync = Readonly<Record<string, DestinationStanding>>

/** The draft's state at `destination`. */
export function stateAt(sync: DraftSync | undefined, destination: string): SyncState {
  return sync?.[destination]?.state ?? 'draft'
}

type LiveState = (typeof LIVE_STATES)[number]

function isLiveState(state: ItemState): state is LiveState {
  return (LIVE_STATES as readonly ItemState[]).includes(state)
}

/** The destination a run holds the draft for (queued or being sent there), if one does. */
export function liveDestination(sync: DraftSync | undefined): string | undefined {
  return Object.entries(sync ?? {}).find(([, standing]) => isLiveState(standing.state))?.[0]
}

/** Whether a run holds the draft at some destination (it is then not edited, deleted or queued again). */
export function isLive(sync: DraftSync | undefined): boolean {
  return liveDestination(sync) !== undefined
}

/**
 * Whether the draft was sent anywhere (or is being sent): it is then the record that keeps it from
 * being created twice, so it is not deleted, nor replaced by an import.
 */
export function wasSent(sync: DraftSync | undefined): boolean {
  return Object.keys(sync ?? {}).length > 0
}

/** Stands for every destination in the index's live tags. */
const ANY_DESTINATION = '*'
/** Between a destination and a state in a tag: a character no address holds. */
const SEPARATOR = '\u0000'

/** The index tag of drafts in `state` at `destination`. */
export function standingTag(destination: string, state: ItemState): string {
  return `${destination}${SEPARATOR}${state}`
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
 * What the drafts' multi-entry `standing` index holds for a draft: one tag a destination it was
 * sent to (the list filters and the pre-flight counts read these), and one for a live state anywhere.
 */
export function standingTags(sync: DraftSync | undefined): string[] {
  const tags: string[] = []
  for (const [destination, standing] of Object.entries(sync ?? {})) {
    tags.push(standingTag(destination, standing.state))
    if (isLiveState(standing.state)) tags.push(liveTag(standing.state))
  }
  return tags
}

/**
 * The draft's sync columns after its standing at `destination` changes: `next` undefined means
 * back to `draft` there (never sent, or a refusal cleared).
 */
export function withStanding(
  sync: DraftSync | undefined,
  destination: string,
  next: DestinationStanding | undefined,
): { sync: DraftSync; standing: string[] } {
  const { [destination]: _previous, ...others } = sync ?? {}
  const updated: DraftSync = next ? { ...others, [destination]: next } : others
  return { sync: updated, standing: standingTags(updated) }
}

/** Whether two drafts' standings are the same: no run took, sent or decided anything between them. */
export function sameStandings(a: DraftSync | undefined, b: DraftSync | undefined): boolean {
  const left = Object.entries(a ?? {})
  if (left.length !== Object.keys(b ?? {}).length) return false
  return left.every(([destination, standing]) => {
    const other = b?.[destination]
    return (
      other?.run === standing.run && other.position === standing.position && other.state === standing.state
    )
  })
}
