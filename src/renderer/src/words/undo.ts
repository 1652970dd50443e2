import { bulkField } from '#shared/validation/bulk-fields.ts'
import type { SkuActionName, SkuActionRecord } from '#renderer/db/records.ts'
import { count, counted, drafts } from './counting.ts'

/*
 * The undo history's words: each action's label, made from the key the database keeps for it
 * (`SkuActionName`) where the history is shown, and what an undo did.
 */

/** An action of the history with the words a person reads for it. */
export type NamedAction = SkuActionRecord & { label: string }

/** A field as the bulk edits title it ("Model address of 3D asset 1"), else its path. */
const titleOf = (path: string) => bulkField(path)?.title ?? path

/** Each key's words for `n` drafts (rows, for an import). */
const LABELS: {
  [K in SkuActionName['key']]: (name: Extract<SkuActionName, { key: K }>, n: number) => string
} = {
  // "Set Category on 42 drafts", or "Removed Category from 42 drafts" when the value was removed.
  'set-field': ({ path, removed }, n) =>
    removed ? `Removed ${titleOf(path)} from ${drafts(n)}` : `Set ${titleOf(path)} on ${drafts(n)}`,
  // 'Replaced "https://old-cdn/" with "https://cdn.example.net/" at the start of Model address of
  // 3D asset 1 on 1,000 drafts' ("in" for anywhere in the text).
  replace: ({ path, find, replace, mode }, n) =>
    `Replaced “${find}” with “${replace}” ${mode === 'start' ? 'at the start of' : 'in'} ${titleOf(path)} on ${drafts(n)}`,
  // A field set before the history named its actions (the upgrade's): which field is not known.
  'changed-field': (_, n) => `Changed a field on ${drafts(n)}`,
  duplicate: (_, n) => `Duplicated ${drafts(n)}`,
  delete: (_, n) => `Deleted ${drafts(n)}`,
  // "Imported 300 rows from shop.csv", or without the file when it is not known.
  import: ({ file }, n) => `Imported ${counted(n, 'row')}${file ? ` from ${file}` : ''}`,
  other: ({ text }) => text,
}

/** What a person reads for an action in the history: "Set Brand on 3 drafts". */
export function actionLabel({ name, count: n }: Pick<SkuActionRecord, 'name' | 'count'>): string {
  const words = LABELS[name.key] as (name: SkuActionName, n: number) => string
  return words(name, n)
}

/** The history's actions with their words. */
export function namedActions(actions: readonly SkuActionRecord[]): NamedAction[] {
  return actions.map((action) => ({ ...action, label: actionLabel(action) }))
}

/** What an undo did, by draft (the undo log's `UndoResult`). */
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
