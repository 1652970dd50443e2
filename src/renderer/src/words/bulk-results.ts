import type { BulkResult, DuplicateResult, SetFieldResult, Skipped } from '../db/sku-bulk-edits.ts'
import { count, drafts } from './counting.ts'

/*
 * What the SKU list says once a bulk action is done: how many drafts it changed, and which it
 * left alone and why. The snackbar shows it, with the action's Undo.
 */

function skippedText({ inRun, sent, missing }: Skipped): string {
  const parts: string[] = []
  if (inRun) parts.push(`${drafts(inRun)} skipped: they are being sent.`)
  if (sent)
    parts.push(
      `${drafts(sent)} skipped: drafts sent beyond the Sandbox are kept, so they are never created twice.`,
    )
  if (missing) parts.push(`${drafts(missing)} no longer existed.`)
  return parts.length ? ` ${parts.join(' ')}` : ''
}

/**
 * Before a delete: the drafts it keeps, said apart from those it deletes ("2 drafts sent beyond the
 * Sandbox are kept, so they are never created twice."); empty when it keeps none.
 */
export function keptOnDeleteText({ inRun, sent }: Skipped): string {
  const parts: string[] = []
  const are = (n: number) => (n === 1 ? 'is' : 'are')
  const noun = (n: number) => (n === 1 ? 'draft' : 'drafts')
  if (sent)
    parts.push(
      `${count(sent)} ${noun(sent)} sent beyond the Sandbox ${are(sent)} kept, so ${sent === 1 ? 'it is' : 'they are'} never created twice.`,
    )
  if (inRun) parts.push(`${count(inRun)} ${noun(inRun)} being sent ${are(inRun)} kept.`)
  return parts.join(' ')
}

/** Edited drafts sent before: where they stand now, and what the Sync page does with them. */
function changedSinceSentText({ changedSinceSent: n }: SetFieldResult): string {
  if (!n) return ''
  return ` ${drafts(n)} sent before ${n === 1 ? 'is' : 'are'} now changed since sent: the Sync page offers ${n === 1 ? 'it' : 'them'} as ${n === 1 ? 'an update' : 'updates'}.`
}

/** A field set on (or, `removed`, taken off) the drafts, `title` naming the field. */
export function setFieldText(title: string, removed: boolean, result: SetFieldResult): string {
  const verb = removed ? `${title} removed from` : `${title} set on`
  const unchanged = result.unchanged ? ` ${count(result.unchanged)} already had it.` : ''
  return `${verb} ${drafts(result.count)}.${unchanged}${changedSinceSentText(result)}${skippedText(result.skipped)}`
}

/** A find-and-replace in the field `title` names. */
export function replacedText(title: string, result: SetFieldResult): string {
  return `${title} changed on ${drafts(result.count)}.${changedSinceSentText(result)}${skippedText(result.skipped)}`
}

export function duplicatedText(result: DuplicateResult): string {
  return (
    `${drafts(result.count)} duplicated; the ${result.count === 1 ? 'copy is' : 'copies are'} selected. ` +
    `Copies keep the barcode until you edit it.${skippedText(result.skipped)}`
  )
}

export function deletedText(result: BulkResult): string {
  return `${drafts(result.count)} deleted.${skippedText(result.skipped)}`
}
