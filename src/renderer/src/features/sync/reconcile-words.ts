import type { ReconcilePlan, UndecidedDraft } from '#renderer/db/sync-reconcile.ts'
import { count } from '#renderer/words/counting.ts'

/**
 * What a list of barcodes the platform has may be getting wrong, before anyone sends again on its
 * word: a list that matches few of the undecided drafts while many of its own barcodes match none
 * is more often a list written differently (a spreadsheet that dropped leading zeros, or wrote the
 * barcodes as numbers) than a platform that lacks them. Sending those again would create them twice.
 */
export interface ListDoubt {
  /** Drafts not on the list that are on it once written alike: the list's barcode, and the draft's. */
  nearMatches: Array<{ listed: string; draft: string }>
  /** Few of the list matches while many of its barcodes match no undecided draft. */
  fewMatch: boolean
}

/**
 * A barcode as a spreadsheet may have rewritten it: without leading zeros, a trailing ".0", or the
 * spaces and hyphens a person may type between its digits. Only to find near matches: a barcode is
 * compared as written everywhere else.
 */
function loosely(barcode: string): string {
  return barcode
    .replace(/[\s-]/g, '')
    .replace(/\.0+$/, '')
    .replace(/^0+(?=.)/, '')
}

/** What may be wrong with a list, from what it would do (`planReconcile`). */
export function listDoubt(plan: Pick<ReconcilePlan, 'listed' | 'rest' | 'unmatched'>): ListDoubt {
  const unmatched = new Map<string, string>()
  for (const barcode of plan.unmatched) {
    const key = loosely(barcode)
    if (!unmatched.has(key)) unmatched.set(key, barcode)
  }
  const nearMatches = plan.rest.flatMap((draft) => {
    const listed = draft.barcode === '' ? undefined : unmatched.get(loosely(draft.barcode))
    return listed === undefined ? [] : [{ listed, draft: draft.barcode }]
  })
  const { listed, rest } = plan
  const fewMatch = rest.length > 0 && plan.unmatched.length > listed.length && listed.length < rest.length
  return { nearMatches, fewMatch }
}

/** The warning a doubtful list gets in the dialog, in words; empty when the list looks sound. */
export function doubtWords(doubt: ListDoubt, plan: Pick<ReconcilePlan, 'listed' | 'unmatched'>): string {
  const near = doubt.nearMatches
  if (near.length > 0) {
    const { listed, draft } = near[0]!
    const zeros = /^0/.test(draft) && !/^0/.test(listed)
    return (
      `${count(near.length)} of the drafts not on the list ${near.length === 1 ? 'is' : 'are'} on it written differently: ` +
      `the list has ${listed} where the draft has ${draft}. ` +
      `${zeros ? 'A spreadsheet most likely dropped the leading zeros.' : 'A spreadsheet most likely rewrote the barcodes as numbers.'} ` +
      'Format the barcode column as text, copy the barcodes from the platform again, and import that list.'
    )
  }
  if (!doubt.fewMatch) return ''
  const matched =
    plan.listed.length === 0
      ? 'None of the list’s barcodes matches an undecided draft'
      : `Only ${count(plan.listed.length)} of the list’s barcodes ${plan.listed.length === 1 ? 'matches' : 'match'} an undecided draft`
  return (
    `${matched}, and ${count(plan.unmatched.length)} match none. ` +
    'If the list went through a spreadsheet, check how it wrote them first: dropped leading zeros ' +
    '(0012 read as 12) or long numbers shortened (8.90123E+12) make a barcode match nothing.'
  )
}

/** The risk of sending again the drafts not on the list, counted: how many may be there already. */
export function resendRisk(rest: readonly UndecidedDraft[], place: string): string {
  const unknown = rest.filter((draft) => draft.state === 'unknown').length
  const failed = rest.length - unknown
  if (rest.length === 1) {
    const why = unknown ? 'had no answer (outcome unknown)' : 'failed with a server error'
    return (
      `It ${why}: the service may have created it. Sent to ${place} once more, it would be created a ` +
      'second time if it is there after all (a list that is incomplete or written differently): a duplicate.'
    )
  }
  const states =
    unknown && failed
      ? `Of these ${count(rest.length)}, ${count(unknown)} had no answer (outcome unknown) and ${count(failed)} failed with a server error`
      : `All ${count(rest.length)} ${unknown ? 'had no answer (outcome unknown)' : 'failed with a server error'}`
  return (
    `${states}: the service may have created any of them. ` +
    `Sent to ${place} once more, each that is there after all (a list that is incomplete or written ` +
    `differently) would be created a second time: up to ${count(rest.length)} duplicates.`
  )
}

/** A confirming button's words from its actions: "Mark 6 as created, record 3 platform ids and send 2 again". */
export function actionWords(parts: readonly string[]): string {
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '')
  return text.charAt(0).toUpperCase() + text.slice(1)
}
