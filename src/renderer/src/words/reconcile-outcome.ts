import type { Reconciled } from '../db/sync-reconcile.ts'
import { drafts } from './counting.ts'
import { idsOutcome } from './platform-ids.ts'

/*
 * What a confirmed list of barcodes did ("Check the platform" on the Sync page), in the sentences
 * the reconcile panel shows once it is recorded.
 */

/** The list as its outcome names it: its file, where it was read for, and what its plan held. */
export interface ConfirmedList {
  file: string
  place: string
  /** Drafts it marks created, and created drafts it gives an id. */
  listed: number
  ids: number
}

/** What the list recorded: drafts marked created, ids given, drafts that moved on meanwhile. */
export function recordedLines(result: Reconciled, list: ConfirmedList): string[] {
  const lines: string[] = []
  // A list that only gave ids marked nothing: it says what it did instead.
  if (list.listed > 0 || list.ids === 0)
    lines.push(`${drafts(result.created)} marked as created: on the platform's list ${list.file}.`)
  const named = idsOutcome(result, list.place)
  if (named) lines.push(named)
  if (result.movedOn > 0)
    lines.push(
      `${drafts(result.movedOn)} had been decided or taken by a run meanwhile and were left as they are.`,
    )
  return lines
}

/** The `n` drafts not on the list chosen to be sent again: sent by a new run, or (none started) back to draft. */
export function resentLine(n: number, started: boolean, place: string): string {
  return started
    ? `${drafts(n)} not on the list ${n === 1 ? 'is' : 'are'} sent again by a new run to ${place}.`
    : `${drafts(n)} not on the list went back to draft and ${n === 1 ? 'was' : 'were'} not sent (see the log): sync them from here when ready.`
}

/** The `n` drafts not on the list that have errors since they were edited: back to draft until fixed. */
export function withErrorsLine(n: number): string {
  const one = n === 1
  return `${drafts(n)} not on the list ${one ? 'has' : 'have'} errors since ${one ? 'it was' : 'they were'} edited: back to draft, ${one ? 'it is' : 'they are'} sent once fixed.`
}
