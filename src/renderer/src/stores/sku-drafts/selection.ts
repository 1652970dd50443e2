import { shallowRef, watch, type Ref } from 'vue'
import { skuList } from '../../db/index.ts'
import { sameMatches, type ListQuery } from '../../db/sku-list-query.ts'

// The SKU list's selection: what one is, the steps the list takes on it (`use-list-selection.ts`),
// and the SKU drafts store's part that holds it, since other pages act on it too (a sync of the
// selection). A value and its store part, so both live beside the store rather than in the list.

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

/**
 * The SKU drafts store's selection: cleared when the query comes to match other drafts (a selection
 * is of the drafts the user could see), and read as ids when an action runs.
 */
export function useSkuSelection(query: Ref<ListQuery>) {
  const selection = shallowRef<Selection>(NOTHING)

  watch(query, (next, previous) => {
    if (!sameMatches(next, previous)) selection.value = NOTHING
  })

  /** The ids a selection stands for now. */
  async function resolve(chosen: Selection): Promise<string[]> {
    if (chosen.kind === 'ids') return [...chosen.ids]
    const ids = await (await skuList.open(chosen.query)).allIds()
    return chosen.except.size ? ids.filter((id) => !chosen.except.has(id)) : ids
  }

  /** The selected drafts' ids, for an action of another page (a sync of the selection). */
  function selectedIds(): Promise<string[]> {
    return resolve(selection.value)
  }

  return { selection, resolve, selectedIds }
}
