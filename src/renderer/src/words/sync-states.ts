import { destinationAddressName } from '#shared/sync/destination.ts'
import { standingTag, stateAt, type DraftSync, type SyncState } from '#shared/sync/standing.ts'

/**
 * The sync states in a person's words: one map for the SKU list, its filters, the Sync page's
 * progress and history, and the apps list, so a state reads the same everywhere. (The log may say
 * a service "refused" something as a verb; as a state it is "Rejected".)
 */
export const SYNC_STATE_WORDS: Readonly<Record<SyncState, string>> = {
  draft: 'Not sent',
  queued: 'Queued',
  sending: 'Sending',
  synced: 'Synced',
  rejected: 'Rejected',
  failed: 'Failed',
  unknown: 'Unknown',
}

/** The same for app drafts, where a synced app is one the service created. */
export const APP_SYNC_STATE_WORDS: Readonly<Record<SyncState, string>> = {
  ...SYNC_STATE_WORDS,
  synced: 'Created',
}

/** A destination with the name its profiles give it. */
interface NamedPlace {
  destination: string
  name: string
}

/** A draft's standings, with the tags its index keeps of them (whether it changed since, there). */
interface Standings {
  sync: DraftSync
  standing: readonly string[]
}

/**
 * Where a draft stands elsewhere, in one line: "Staging: changed since sent · Production: not
 * sent". Every place but `except` (the active one), then any destination it was sent to that no
 * profile leads to any more, named by its address. A place that holds an older version of it says
 * so: which destination still has the old one shows without making it the active profile (a
 * tryout's "Staging: synced" was a SKU edited since it was created there).
 */
export function standingSummary(
  draft: Standings,
  places: readonly NamedPlace[],
  except: string | undefined,
  words: Readonly<Record<SyncState, string>> = SYNC_STATE_WORDS,
): string {
  const known = new Set(places.map((place) => place.destination))
  const at = (destination: string, name: string) => {
    const said = words[stateAt(draft.sync, destination)].toLowerCase()
    return draft.standing.includes(standingTag(destination, 'changed'))
      ? `${name}: changed since sent`
      : `${name}: ${said}`
  }
  const parts = places
    .filter((place) => place.destination !== except)
    .map((place) => at(place.destination, place.name))
  for (const destination of Object.keys(draft.sync))
    if (!known.has(destination) && destination !== except)
      parts.push(at(destination, destinationAddressName(destination)))
  return parts.join(' · ')
}

/**
 * The same line for a list's row, where room is short: only the other places the draft was sent
 * to ("Staging: changed since sent"), nothing for those it never reached.
 */
export function sentElsewhere(
  draft: Standings,
  places: readonly NamedPlace[],
  except: string | undefined,
  words: Readonly<Record<SyncState, string>> = SYNC_STATE_WORDS,
): string {
  const sent = places.filter((place) => draft.sync[place.destination] !== undefined)
  return standingSummary(draft, sent, except, words)
}
