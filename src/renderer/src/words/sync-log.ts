import { draftKind } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { RunStatus } from '#shared/sync/run.ts'
import { holdHeading, HOLD_REASONS, type HoldReason } from '#shared/sync/send-gates.ts'
import type { SyncRunRecord } from '../db/sync-records.ts'
import type { Resolution } from '../db/sync-runs.ts'
import type { ClaimHeld } from '#shared/team/claims.ts'
import type { SendRecord } from '#shared/team/send-records.ts'
import { SENT_STATES, type SentState } from '#shared/team/shared-documents.ts'
import { count, counted } from './counting.ts'
import { formatTime } from './format.ts'

/*
 * What the Sync page's live log says of a run, in the app's words: the sync store writes these
 * lines as a run is queued, sent, decided about and ended.
 */

/** Drafts counted for the log in the app's words: "3 drafts" for SKUs (as the SKU list says), "2 apps". */
export function logCount(kind: SyncKind, n: number): string {
  return counted(n, draftKind(kind).listNoun)
}

/**
 * The log's line for a decision. `sending` is how the engine stood when the run was being sent:
 * it says when a batch queued again goes out (a cancelled or stopped run releases what it had
 * queued back to draft).
 */
export function decisionLine(
  kind: SyncKind,
  choice: Resolution,
  changed: number,
  sending?: { status: RunStatus; offline: boolean; cancelling: boolean },
): string {
  const what = logCount(kind, changed)
  if (choice === 'created') return `${what} marked as created.`
  if (!sending) return `${what} queued to be sent again.`
  const { status, offline, cancelling } = sending
  if (cancelling || status.state === 'finished' || status.state === 'stopped')
    return `${what} queued to be sent again, but the run is ending: they go back to draft.`
  if (status.state === 'running') return `${what} queued to be sent again with the rest of the run.`
  if (offline || status.reason === 'offline')
    return `${what} queued to be sent again: the run is paused and sends them when the connection is back.`
  return `${what} queued to be sent again: the run stays paused and sends them when you press Resume.`
}

/**
 * The reasons SKUs are held back, from their counts by reason: "2 empty (nothing filled in), 1
 * missing a product name or a barcode".
 */
export function heldBackWords(counts: Record<HoldReason, number>, place: string): string {
  return HOLD_REASONS.filter((reason) => counts[reason] > 0)
    .map((reason) => `${count(counts[reason])} ${holdHeading(reason, place)}`)
    .join(', ')
}

/**
 * The log's line for the queued items a run that ended did not send: a creation's go back to
 * draft; an update's drafts were never anything but created and changed, and are offered again.
 */
export function notSentLine(run: SyncRunRecord, n: number): string {
  return run.action === 'update'
    ? `${counted(n, draftKind(run.kind).noun)} not updated: still changed, Update offers ${n === 1 ? 'it' : 'them'} again.`
    : `${logCount(run.kind, n)} not sent went back to draft.`
}

/** How many drafts' labels a line of the log names before "and N more". */
const LABELS_NAMED = 5

/** " (8901000000001, 8901000000002 and 3 more)": the drafts by their labels in the run; '' for none known. */
function named(labels: readonly (string | undefined)[]): string {
  const known = labels.filter((label): label is string => !!label).sort()
  if (known.length === 0) return ''
  const shown = known.slice(0, LABELS_NAMED)
  const more = known.length - shown.length
  return ` (${shown.join(', ')}${more > 0 ? ` and ${count(more)} more` : ''})`
}

/**
 * The log's lines for the drafts left out of a run because another desk's run holds them on the
 * same destination (issue #42), a line for each desk: one still sending, or one whose claim ran
 * out (its run stopped mid-send: what it sent is not known). Each names the drafts by `labelOf`
 * (their labels in this run).
 */
export function heldByOthersLines(
  run: SyncRunRecord,
  held: readonly ClaimHeld[],
  labelOf: (id: string) => string | undefined = () => undefined,
): string[] {
  const groups = new Map<string, ClaimHeld[]>()
  for (const claim of held) {
    const key = `${claim.owner}\n${claim.expired}`
    groups.set(key, [...(groups.get(key) ?? []), claim])
  }
  return [...groups.values()].map((claims) => {
    const { owner, expired } = claims[0]!
    const what = `${logCount(run.kind, claims.length)} left out${named(claims.map((claim) => labelOf(claim.id)))}`
    const them = claims.length === 1 ? 'it' : 'them'
    const place = run.profileName
    if (!owner) return `${what}: a claim on ${place} that the app cannot read holds ${them}.`
    if (!expired) return `${what}: ${owner}’s desk is sending ${them} to ${place}.`
    const ranOut = Math.max(...claims.map((claim) => claim.expiresAt))
    return `${what}: ${owner}’s desk was sending ${them} to ${place} and stopped (its claim ran out ${formatTime(ranOut)}); whether ${place} created ${them} is not known: decide in the history below.`
  })
}

/**
 * The log's lines for drafts a run left out because another desk of the team already sent them to
 * its destination (issue #42), desk by desk, with what came of it there.
 */
export function sentElsewhereLines(run: SyncRunRecord, records: readonly SendRecord[]): string[] {
  const byDesk = new Map<string, SendRecord[]>()
  for (const record of records) byDesk.set(record.desk, [...(byDesk.get(record.desk) ?? []), record])
  return [...byDesk].map(([desk, sent]) => {
    const them = sent.length === 1 ? 'it' : 'them'
    const outcomes = SENT_STATES.flatMap((state) => {
      const n = sent.filter((record) => record.state === state).length
      return n ? [`${count(n)} ${SENT_OUTCOME_WORDS[state]}`] : []
    })
    return `${logCount(run.kind, sent.length)} left out${named(sent.map((record) => record.label))}: ${desk}’s desk sent ${them} to ${run.profileName} already (${outcomes.join(', ')}).`
  })
}

/** What came of another desk's sending, as `sentElsewhereLines` counts it. */
const SENT_OUTCOME_WORDS: Readonly<Record<SentState, string>> = {
  synced: 'created',
  rejected: 'refused',
  failed: 'failed with a server error',
  unknown: 'with an unknown outcome',
}

/** The log's line once a person decided about another desk's drafts whose outcome was not known. */
export function recordedDecisionLine(run: SyncRunRecord, choice: Resolution, n: number): string {
  const what = `${logCount(run.kind, n)} ${run.sentBy ?? 'another desk'}’s desk sent`
  return choice === 'created'
    ? `${what} marked as created, as you decided: every desk of the team sees it.`
    : `${what} ${n === 1 ? 'is' : 'are'} free to send again, as you decided: counted in “Ready to send” again.`
}
