import type { Transaction } from 'dexie'
import { bulkFields } from '#shared/validation/bulk-fields.ts'
import type { SkuActionName, SkuActionRecord } from './records.ts'

/** An action as versions 8 to 11 stored it: its words written out, no key. */
type LabelledAction = Omit<SkuActionRecord, 'name'> & { label?: string; name?: SkuActionName }

/**
 * Database v12: the undo history keeps a key for each action, not its words (`SkuActionName`;
 * words/undo.ts makes the words where the history is shown). Each label stored before is read
 * back into its key by the English it was written in, frozen here as it was then; a label no
 * pattern reads, or reads two ways, is kept word for word (`other`), so no action loses its name.
 */
export async function upgradeToActionNames(tx: Transaction): Promise<void> {
  await tx
    .table<LabelledAction, number>('skuActions')
    .toCollection()
    .modify((action) => {
      if (action.name || action.label === undefined) return
      action.name = nameOfLabel(action.label, action.count)
      delete action.label
    })
}

/** The number in a label ("1,000", "1 000"), as written for `count` drafts or rows. */
const sameCount = (written: string, count: number) => Number(written.replace(/\D/g, '')) === count

/** The path of a field by its title as the labels wrote it (else the path itself, as they did). */
function pathOf(title: string): string | undefined {
  const fields = bulkFields()
  return (fields.find((field) => field.title === title) ?? fields.find((field) => field.path === title))?.path
}

const N = String.raw`(\d[\d\s.,\u00a0\u202f]*)`
const SET = new RegExp(String.raw`^Set (.+) on ${N} drafts?$`, 's')
const REMOVED = new RegExp(String.raw`^Removed (.+) from ${N} drafts?$`, 's')
// Lazy and greedy: a find or replace text holding the pattern's own words reads two ways.
const REPLACED = [
  new RegExp(String.raw`^Replaced “(.*?)” with “(.*?)” (at the start of|in) (.+) on ${N} drafts?$`, 's'),
  new RegExp(String.raw`^Replaced “(.*)” with “(.*)” (at the start of|in) (.+) on ${N} drafts?$`, 's'),
]
const CHANGED = new RegExp(String.raw`^Changed a field on ${N} drafts?$`)
const DUPLICATED = new RegExp(String.raw`^Duplicated ${N} drafts?$`)
const DELETED = new RegExp(String.raw`^Deleted ${N} drafts?$`)
const IMPORTED = new RegExp(String.raw`^Imported ${N} rows?(?: from (.+))?$`, 's')

/** The key an old label says, or `other` keeping its words. */
export function nameOfLabel(label: string, count: number): SkuActionName {
  const read = (pattern: RegExp, countAt: number) => {
    const match = label.match(pattern)
    return match && sameCount(match[countAt]!, count) ? match : undefined
  }
  const set = read(SET, 2) ?? read(REMOVED, 2)
  const setPath = set && pathOf(set[1]!)
  if (setPath) return { key: 'set-field', path: setPath, removed: set.input!.startsWith('Removed') }
  const [lazy, greedy] = REPLACED.map((pattern) => read(pattern, 5))
  const replacePath = lazy && lazy.join('\n') === greedy?.join('\n') && pathOf(lazy[4]!)
  if (replacePath) {
    const [, find, replace, where] = lazy
    return {
      key: 'replace',
      path: replacePath,
      find: find!,
      replace: replace!,
      mode: where === 'in' ? 'text' : 'start',
    }
  }
  if (read(CHANGED, 1)) return { key: 'changed-field' }
  if (read(DUPLICATED, 1)) return { key: 'duplicate' }
  if (read(DELETED, 1)) return { key: 'delete' }
  const imported = read(IMPORTED, 1)
  if (imported) return imported[2] === undefined ? { key: 'import' } : { key: 'import', file: imported[2] }
  return { key: 'other', text: label }
}
