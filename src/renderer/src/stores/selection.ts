import type { ListQuery } from '../db/sku-list-query.ts'

/**
 * Which drafts are selected: some ids, or every draft matching a query except some. "Select all
 * 100,000 matching" stays two small objects; the ids are read only when an action runs.
 */
export type Selection =
  | { kind: 'ids'; ids: ReadonlySet<string> }
  | { kind: 'matching'; query: ListQuery; except: ReadonlySet<string> }

export const NOTHING: Selection = { kind: 'ids', ids: new Set() }

export function isSelected(selection: Selection, id: string): boolean {
  return selection.kind === 'ids' ? selection.ids.has(id) : !selection.except.has(id)
}

/** How many drafts are selected, given how many match the list's query now. */
export function selectedCount(selection: Selection, matching: number): number {
  return selection.kind === 'ids' ? selection.ids.size : Math.max(0, matching - selection.except.size)
}

export function only(id: string): Selection {
  return { kind: 'ids', ids: new Set([id]) }
}

export function allMatching(query: ListQuery): Selection {
  return { kind: 'matching', query, except: new Set() }
}

/** The selection with `ids` selected (or not). */
export function including(selection: Selection, ids: readonly string[], selected: boolean): Selection {
  if (selection.kind === 'ids') {
    const next = new Set(selection.ids)
    for (const id of ids) {
      if (selected) next.add(id)
      else next.delete(id)
    }
    return { kind: 'ids', ids: next }
  }
  const except = new Set(selection.except)
  for (const id of ids) {
    if (selected) except.delete(id)
    else except.add(id)
  }
  return { ...selection, except }
}

/**
 * The selection without drafts that are gone (an undo removed them): they no longer count as
 * selected, nor as left out of "all matching" (which no longer matches them either).
 */
export function withoutDrafts(selection: Selection, gone: readonly string[]): Selection {
  const held = selection.kind === 'ids' ? selection.ids : selection.except
  if (!gone.some((id) => held.has(id))) return selection
  const kept = new Set(held)
  for (const id of gone) kept.delete(id)
  return selection.kind === 'ids' ? { kind: 'ids', ids: kept } : { ...selection, except: kept }
}

export function toggled(selection: Selection, id: string): Selection {
  return including(selection, [id], !isSelected(selection, id))
}
