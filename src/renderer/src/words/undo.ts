import type { Replacement } from '#shared/values/replace-text.ts'
import { count, counted, drafts } from './counting.ts'

/*
 * The undo history's words: each action's label, written when the action is, and what an undo
 * did. Kept with the action rather than made again on reading, so a label stays what it said.
 */

/** "Set Category on 42 drafts", or "Removed Category from 42 drafts" when the value was removed. */
export function setFieldLabel(title: string, n: number, removed: boolean): string {
  return removed ? `Removed ${title} from ${drafts(n)}` : `Set ${title} on ${drafts(n)}`
}

/**
 * 'Replaced "https://old-cdn/" with "https://cdn.example.net/" in Model address of 3D asset 1 on
 * 1,000 drafts' ("at the start of" for an address's start).
 */
export function replaceLabel(title: string, { find, replace, mode }: Replacement, n: number): string {
  const where = mode === 'start' ? `at the start of ${title}` : `in ${title}`
  return `Replaced “${find}” with “${replace}” ${where} on ${drafts(n)}`
}

/** A field set before the history named its actions (the upgrade's): which field is not known. */
export function changedFieldLabel(n: number): string {
  return `Changed a field on ${drafts(n)}`
}

/** "Duplicated 42 drafts". */
export function duplicateLabel(n: number): string {
  return `Duplicated ${drafts(n)}`
}

/** "Deleted 42 drafts". */
export function deleteLabel(n: number): string {
  return `Deleted ${drafts(n)}`
}

/** "Imported 300 rows from shop.csv", or without the file when it is not known. */
export function importLabel(rows: number, file?: string): string {
  return `Imported ${counted(rows, 'row')}${file ? ` from ${file}` : ''}`
}

/**
 * What an undo did, by draft (the undo log's `UndoResult`; spelled out here, as the database's
 * labels are written with this module's words).
 */
interface UndoCounts {
  restored: number
  removed: number
  keptEdited: number
  keptSent: number
}

/** "was" or "were", for a count of drafts. */
const was = (n: number) => (n === 1 ? 'was' : 'were')
/** "as it is" or "as they are". */
const asTheyAre = (n: number) => (n === 1 ? 'as it is' : 'as they are')

/** The drafts an undo left alone, each kind a sentence: "1 draft edited since was kept as it is." */
function keptSentences(result: UndoCounts): string[] {
  const parts = []
  if (result.keptEdited)
    parts.push(
      `${drafts(result.keptEdited)} edited since ${was(result.keptEdited)} kept ${asTheyAre(result.keptEdited)}.`,
    )
  if (result.keptSent)
    parts.push(
      `${drafts(result.keptSent)} queued or sent since ${was(result.keptSent)} kept ${asTheyAre(result.keptSent)}.`,
    )
  return parts
}

/**
 * What an undo of `actions` actions did, said after it: "2 drafts restored. 1 draft it added was
 * removed." Each draft counts once, for what became of it (the undo log's `UndoResult`).
 */
export function undoneText(result: UndoCounts, actions = 1): string {
  const parts = []
  if (result.restored) parts.push(`${drafts(result.restored)} restored.`)
  // Drafts the action had added (copies, imported rows) go again.
  if (result.removed)
    parts.push(
      `${drafts(result.removed)} ${actions > 1 ? 'they' : 'it'} added ${was(result.removed)} removed.`,
    )
  parts.push(...keptSentences(result))
  return parts.join(' ') || 'Nothing left to undo.'
}

/** "3 actions undone." before what they did together, when more than one was undone. */
export function undoneActionsText(actions: number, result: UndoCounts): string {
  const what = undoneText(result, actions)
  return actions > 1 ? `${count(actions)} actions undone. ${what}` : what
}

/** The import page's word for its own undo: "Import undone: 3 drafts removed. 1 draft put back as it was." */
export function importUndoneText(result: UndoCounts): string {
  const restored = result.restored
    ? ` ${drafts(result.restored)} put back as ${result.restored === 1 ? 'it was' : 'they were'}.`
    : ''
  const kept = keptSentences(result)
  return `Import undone: ${drafts(result.removed)} removed.${restored}${kept.length ? ` ${kept.join(' ')}` : ''}`
}
