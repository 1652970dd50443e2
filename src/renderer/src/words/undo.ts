import { count, counted, drafts } from './counting.ts'

/*
 * The undo history's words: each action's label, written when the action is, and what an undo
 * did. Kept with the action rather than made again on reading, so a label stays what it said.
 */

/** "Set Category on 42 drafts", or "Removed Category from 42 drafts" when the value was removed. */
export function setFieldLabel(title: string, n: number, removed: boolean): string {
  return removed ? `Removed ${title} from ${drafts(n)}` : `Set ${title} on ${drafts(n)}`
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

/** What an undo did, said after it: "2 drafts restored. 1 draft it added removed." */
export function undoneText(result: UndoCounts): string {
  const parts = []
  if (result.restored) parts.push(`${drafts(result.restored)} restored.`)
  // Drafts the action had added (copies, imported rows) go again.
  if (result.removed) parts.push(`${drafts(result.removed)} it added removed.`)
  if (result.keptEdited) parts.push(`${drafts(result.keptEdited)} edited since were kept as they are.`)
  if (result.keptSent) parts.push(`${drafts(result.keptSent)} queued or sent since were kept as they are.`)
  return parts.join(' ') || 'Nothing left to undo.'
}

/** "3 actions undone." before what they did together, when more than one was undone. */
export function undoneActionsText(actions: number, result: UndoCounts): string {
  const what = undoneText(result)
  return actions > 1 ? `${count(actions)} actions undone. ${what}` : what
}
