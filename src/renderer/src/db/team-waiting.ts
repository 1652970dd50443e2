import type { DBCore, Middleware, Transaction } from 'dexie'
import type { DraftMeta } from './records.ts'
import { isUntouchedNew } from './untouched-new.ts'

// Which drafts wait to be shared with the team workspace (issue #41), kept by the database itself:
// every write of a draft, whatever writes it (a save, an import, a bulk edit, an undo, the
// exchange), passes through `teamWaitingMark`, which marks the draft `teamWaiting: 1` while it
// waits and takes the mark away once it does not. IndexedDB leaves a record without the field out
// of its index, so the index holds only the drafts waiting: the exchange finds them without
// reading the drafts that arrived from the workspace, however many.

/** Edited here since the workspace had it (or never shared), and not a "New" draft left untouched. */
export const isWaitingToShare = (draft: DraftMeta): boolean =>
  !isUntouchedNew(draft) && draft.updatedAt !== draft.team?.sharedAt

/** The tables whose records are drafts, shared with a workspace. */
const DRAFT_TABLES = new Set(['skuDrafts', 'appDrafts'])

/** The draft as it is stored: with the mark when it waits, without when it does not. */
function withWaitingMark<T extends DraftMeta>(draft: T): T {
  const waiting = isWaitingToShare(draft)
  if (waiting === (draft.teamWaiting === 1)) return draft
  const { teamWaiting: _, ...unmarked } = draft
  return (waiting ? { ...unmarked, teamWaiting: 1 } : unmarked) as T
}

/** Dexie middleware: marks each draft written (`add`, `put`; `modify` and `update` are puts). */
export const teamWaitingMark: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'teamWaitingMark',
  create: (down) => ({
    ...down,
    table(name) {
      const table = down.table(name)
      if (!DRAFT_TABLES.has(name)) return table
      return {
        ...table,
        mutate: (request) =>
          table.mutate(
            request.type === 'add' || request.type === 'put'
              ? { ...request, values: request.values.map(withWaitingMark) }
              : request,
          ),
      }
    },
  }),
}

/**
 * The upgrade to version 14: on a desk joined to a workspace, the drafts that wait are marked
 * (written again through the middleware). A desk never joined marks nothing: joining marks them.
 */
export async function upgradeToWaitingMarks(tx: Transaction): Promise<void> {
  const exchange = (await tx.table('teamExchange').get('exchange')) as { workspace?: string } | undefined
  if (!exchange?.workspace) return
  for (const name of DRAFT_TABLES)
    await tx
      .table<DraftMeta, string>(name)
      .filter(isWaitingToShare)
      .modify((draft) => {
        draft.teamWaiting = 1
      })
}
