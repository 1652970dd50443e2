import type { Preflight } from '#renderer/db/sync-runs.ts'
import type { CountTile } from '#renderer/ui/CountTiles.vue'
import { count, drafts } from '#renderer/words/counting.ts'
import { ERRORS_FILTER } from '#renderer/words/validity.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { apps } from './sync-format.ts'

/** A link inside a sentence of the pre-flight. */
export interface NoteLink {
  to: string
  text: string
}

/**
 * What the Sync page's start panel says and offers for one kind of draft: SKUs are sent in
 * batches, may take the drafts that failed before, and show their queuing; apps are created one
 * at a time, and a failed one waits for a decision in the history.
 */
export interface StartCopy {
  heading: string
  /** The heading's id, which labels the section. */
  headingId: string
  /** Drafts of the kind, counted: "3 drafts", "1 app". */
  count(n: number): string
  /**
   * The count tiles, which add up to every draft of the kind (of the scope, when one is chosen);
   * `held`: how many drafts the gates before sending hold back of those a run would take (SKUs
   * only; counted as ready in `found`).
   */
  tiles(found: Preflight, held: number): CountTile[]
  /** Where the drafts with errors are fixed, and what follows the link inside the brackets. */
  fixLink: NoteLink & { after: string }
  /**
   * Those already created at the destination (named `target`): never created there again (a kind
   * the service can update is updated once changed; one it cannot keeps its edits to itself).
   */
  synced(n: number, target: string): string
  unknown(n: number): string
  /** A note on the failed drafts, where they wait for a decision instead of being offered again. */
  failed?(n: number): string
  /** A choice to send the failed drafts again, where the kind offers it. */
  resendFailed?(n: number): string
  /** What the list says when there is nothing at all of the kind. */
  empty?: { before: string; link: NoteLink }
  button(n: number, target: string): string
  /**
   * For a kind with promotions (drafts synced on another destination first), while they are on
   * offer: the run of every ready draft, the second choice beside them, saying how many of its
   * drafts were never tested on `places` (the promotions' destinations: "Sandbox or Staging").
   */
  buttonBesidePromotions?(n: number, target: string, untested: number, places: string): string
  /** How this kind is sent, when it does not follow the profile's batch size and concurrency. */
  sending?: string
}

/**
 * What the Sync page says while the computer is offline, about the active profile (`place`): a
 * destination on this computer is synced to as ever; a run to any other waits for the network.
 */
export function offlineNote(place: string, needsNetwork: boolean): string {
  return needsNetwork
    ? `This computer is offline: nothing reaches ${place} until the connection is back. A run started now waits, paused, and sends by itself once it is.`
    : `This computer is offline, and ${place} is on this computer: syncing to it works offline.`
}

/**
 * From a team workspace (issue #42): how a run to `place` goes out, and that nothing can while the
 * workspace's server is out of reach.
 */
export function teamNote(place: string, desk: string, unreachable: boolean): string {
  return unreachable
    ? `The team workspace's server is out of reach: nothing can be sent to ${place} until it answers, since each draft is claimed there first so that no two desks send it.`
    : `Sent as ${desk}’s desk of the team workspace: each draft is claimed on its server first, so no two desks send it, and what ${place} answers is shared with every desk.`
}

/** The verb and the pronoun that agree with a count, for the notes of either kind. */
export const isAre = (n: number) => (n === 1 ? 'is' : 'are')
export const itThem = (n: number) => (n === 1 ? 'it' : 'them')

/**
 * What the "fix first" tile holds, named by what it counts, in the words of the list's Checks
 * filter and badges: "With errors", "With errors or held back", "With errors, refused or held back".
 */
function fixFirst(counts: { invalid: number; refused: number; held: number }): string {
  const words = (['invalid', 'refused', 'held'] as const)
    .filter((key) => key === 'invalid' || counts[key] > 0)
    .map((key) => ({ invalid: 'with errors', refused: 'refused', held: 'held back' })[key])
  const text = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0]!
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export const START_COPY: Readonly<Record<SyncKind, StartCopy>> = {
  skus: {
    heading: 'SKUs to send',
    headingId: 'sync-start-title',
    count: drafts,
    tiles: (found, held) => [
      { label: 'Ready to send', value: found.ready, tone: 'valid' },
      {
        label: `${fixFirst({ invalid: found.invalid, refused: found.rejected, held })}: fix first`,
        value: found.invalid + found.rejected + held,
        tone: 'invalid',
      },
      { label: 'Already synced here', value: found.synced },
      { label: 'Unknown or failed: your decision', value: found.unknown + found.failed, tone: 'warnings' },
      ...(found.inRun ? [{ label: 'In a run not finished', value: found.inRun }] : []),
    ],
    fixLink: { to: '/skus', text: 'SKU list', after: `, filter “${ERRORS_FILTER}”` },
    synced: (n, target) =>
      `${drafts(n)} already created on ${target} ${isAre(n)} not created there again: an edit made since is sent as an update. Other destinations still can have ${itThem(n)}.`,
    unknown: (n) =>
      `${drafts(n)} may or may not have been created: decide about ${itThem(n)} in the history below before anything is sent again.`,
    resendFailed: (n) =>
      `Also send the ${drafts(n)} whose last sending failed (a server error). The service may have created some of them already: sending again can make duplicates.`,
    button: (n, target) =>
      n === 0 ? `Nothing new to create on ${target}` : `Create ${count(n)} new on ${target}`,
    buttonBesidePromotions: (n, target, untested, places) =>
      n === 0 || untested === 0
        ? START_COPY.skus.button(n, target)
        : `Create all ${count(n)} new on ${target}, ${count(untested)} never tested on ${places}`,
  },
  apps: {
    heading: 'Apps to create',
    headingId: 'sync-apps-title',
    count: apps,
    tiles: (found) => [
      { label: 'Ready to create', value: found.ready, tone: 'valid' },
      { label: 'With errors: fix first', value: found.invalid, tone: 'invalid' },
      { label: 'Already created here', value: found.synced },
      { label: 'Unknown or failed: your decision', value: found.unknown + found.failed, tone: 'warnings' },
    ],
    fixLink: { to: '/apps', text: 'App drafts', after: '' },
    synced: (n, target) =>
      `${apps(n)} already created on ${target} ${isAre(n)} not sent there again, and changes made since stay in the app: the platform has no update for apps. Duplicate one to create a new app from it.`,
    unknown: (n) => `${apps(n)} may or may not have been created: decide in the history below.`,
    failed: (n) =>
      `${apps(n)} failed with a server error (the service may have created ${itThem(n)}): decide in the history below.`,
    empty: { before: 'No app draft yet: ', link: { to: '/apps', text: 'configure one' } },
    button: (n, target) => (n === 0 ? `No app to create on ${target}` : `Create ${apps(n)} on ${target}`),
    sending: "One app a request, one at a time; each app's id comes back and is kept on its draft.",
  },
}
