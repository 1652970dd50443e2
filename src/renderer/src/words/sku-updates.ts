import type { ItemState } from '#shared/sync/ports.ts'
import type { DestinationStanding, SyncState } from '#shared/sync/standing.ts'
import { count, counted } from './counting.ts'
import { SYNC_STATE_WORDS } from './sync-states.ts'

/**
 * What the app says of updating SKUs created on a destination (issue #34), in one place for the
 * Sync page's pre-flight, its history and the editor's banner: an update sends only the fields that
 * changed since what stands there, to the SKU's platform id, one SKU a request.
 */

const isAre = (n: number) => (n === 1 ? 'is' : 'are')
const itThem = (n: number) => (n === 1 ? 'it' : 'them')
const itsTheir = (n: number) => (n === 1 ? 'its' : 'their')

/** Where the platform's ids come from when the bulk upload's answer did not give them. */
export const GET_IDS = '“Check the platform”'

/** The title where an update found the SKU gone. */
export const GONE_TITLE = 'Not on the platform any more'

/** The Sync page's button: "Update 3 changed on Production". */
export function updateButton(n: number, place: string): string {
  return n === 0 ? `Nothing changed to update on ${place}` : `Update ${count(n)} changed on ${place}`
}

/**
 * "3 SKUs created on Production changed since: Update sends their changed fields, one SKU a
 * request", saying how many go whole (`whole` of them: what stands there is not known field by
 * field; a tryout read "changed fields" above a retry that sent every field).
 */
export function readyWords(n: number, place: string, whole = 0): string {
  const start = `${counted(n, 'SKU')} created on ${place} changed since:`
  if (whole >= n)
    return `${start} Update sends ${n === 1 ? 'it' : 'each'} whole, one SKU a request: ${WHY_WHOLE}.`
  const some = whole > 0 ? `; ${count(whole)} of them whole: ${WHY_WHOLE}` : ''
  return `${start} Update sends ${itsTheir(n)} changed fields, one SKU a request${some}.`
}

/** The note under the Update button. */
export function updateNote(whole: number): string {
  const fields =
    whole > 0 ? `with the fields that changed (${count(whole)} whole)` : 'with only the fields that changed'
  return `One SKU a request, ${fields}; a field removed in the draft stays on the platform.`
}

export function heldWords(n: number, place: string): string {
  return `${counted(n, 'SKU')} changed ${isAre(n)} held back, not updated until fixed: errors, no product name or barcode, a field ${place} requires, or versions of two desks to settle.`
}

/** "2 changed cannot be updated: the platform's id of them is unknown." */
export function noIdWords(n: number): string {
  return `${count(n)} changed cannot be updated: the platform's id of ${itThem(n)} is unknown.`
}

/** The way to the ids, after `noIdWords`. */
export function getIdsWords(n: number): string {
  return `Import a list from the platform with ${itsTheir(n)} ids in ${GET_IDS} below.`
}

/** "Removed in the draft, stays on the platform: meta.notes" (a partial update cannot remove a field). */
export function keptWords(paths: readonly string[]): string {
  return `Removed in the draft, stays on the platform: ${paths.join(', ')}`
}

/** Why an update sends the whole SKU, not its changed fields. */
const WHY_WHOLE =
  'what stands there is not known field by field (an earlier update’s outcome was not known, or an earlier version of the app kept no copy of what it created)'

export const WHOLE_WORDS = `The whole SKU is sent: ${WHY_WHOLE}.`

/** The preview's summary line: "8901234567890: 2 fields changed". */
export function changedFieldsWords(label: string, changes: number, whole: boolean): string {
  if (whole) return `${label}: the whole SKU`
  return `${label}: ${counted(changes, 'field')} changed`
}

/** What the editor's banner says of a SKU created at `place`, by its standing there. */
export interface CreatedWords {
  title: string
  body: string
  tone: 'ok' | 'warning' | 'error' | 'plain'
  /** Whether to offer the way to the Sync page (to update it, or to get its id). */
  toSync: boolean
}

/**
 * The banner's words for a SKU whose standing at `place` is `synced` (created there), knowing
 * whether the draft as edited differs from what stands there.
 */
export function createdWords(standing: DestinationStanding, place: string, changed: boolean): CreatedWords {
  const update = standing.update
  if (update?.gone)
    return {
      title: `${GONE_TITLE}: ${place} has no SKU with its id.`,
      body: `An update found it gone (deleted there, or the id the app kept is wrong). Create it again on ${place}, or forget that it was created there.`,
      tone: 'error',
      toSync: false,
    }
  if (update && (update.state === 'queued' || update.state === 'sending'))
    return {
      title: `Being updated on ${place}.`,
      body: 'It cannot be edited while a sync run holds it. Cancelling the run leaves it changed, to be updated later.',
      tone: 'warning',
      toSync: true,
    }
  if (!changed && update?.state === 'rejected')
    return {
      title: `${place} refused the last update: it stands there as it was.`,
      body: 'Fix what the service named: an edit offers the update again.',
      tone: 'error',
      toSync: false,
    }
  if (!changed)
    return {
      title: `Created on ${place}; unchanged since.`,
      body: `Edits made here are sent to ${place} as an update from the Sync page: only the fields that changed.`,
      tone: 'ok',
      toSync: false,
    }
  if (standing.remoteId === undefined)
    return {
      title: `Changed since it was created on ${place}, but the platform's id of it is unknown: import a list from the platform with its ids (Sync › Check the platform).`,
      body: `Until ${place}'s id of it is known, the changes stay in this draft.`,
      tone: 'warning',
      toSync: true,
    }
  const doubt =
    update?.state === 'unknown' || update?.state === 'failed'
      ? ' Whether the last update reached it is not known: Update sends it again (an update sent twice changes nothing more).'
      : ''
  return {
    title: `Changed since it was created on ${place}: Update sends the changed fields.`,
    body: `Update it from the Sync page; compare below with what stands there.${doubt}`,
    tone: 'warning',
    toSync: true,
  }
}

/** An update run's name in the history and the progress panel. */
export const UPDATE_RUN = 'Update run'

/** The states' words for an update run's progress and history: "Updated" where a creation says "Synced". */
export const UPDATE_RUN_STATE_WORDS: Readonly<Record<SyncState, string>> = {
  ...SYNC_STATE_WORDS,
  synced: 'Updated',
}

/** An update's item state, as a draft's history says it ("update applied"). */
export const UPDATE_STATE_WORDS: Readonly<Record<ItemState, string>> = {
  queued: 'update queued',
  sending: 'update being sent',
  synced: 'update applied',
  rejected: 'update refused',
  failed: 'update failed',
  unknown: 'update outcome unknown',
}
