import { destinationAddressName } from '#shared/sync/destination.ts'
import { stateAt, type DraftSync, type SyncState } from '#shared/sync/standing.ts'

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

/**
 * Where a draft stands elsewhere, in one line: "Staging: synced · Production: not sent". Every
 * place but `except` (the active one), then any destination it was sent to that no profile leads
 * to any more, named by its address.
 */
export function standingSummary(
  sync: DraftSync,
  places: readonly NamedPlace[],
  except: string | undefined,
  words: Readonly<Record<SyncState, string>> = SYNC_STATE_WORDS,
): string {
  const known = new Set(places.map((place) => place.destination))
  const parts = places
    .filter((place) => place.destination !== except)
    .map((place) => `${place.name}: ${words[stateAt(sync, place.destination)].toLowerCase()}`)
  for (const destination of Object.keys(sync))
    if (!known.has(destination) && destination !== except)
      parts.push(`${destinationAddressName(destination)}: ${words[stateAt(sync, destination)].toLowerCase()}`)
  return parts.join(' · ')
}

/**
 * The same line for a list's row, where room is short: only the other places the draft was sent
 * to ("Staging: synced"), nothing for those it never reached.
 */
export function sentElsewhere(
  sync: DraftSync,
  places: readonly NamedPlace[],
  except: string | undefined,
  words: Readonly<Record<SyncState, string>> = SYNC_STATE_WORDS,
): string {
  const sent = places.filter((place) => sync[place.destination] !== undefined)
  return standingSummary(sync, sent, except, words)
}
