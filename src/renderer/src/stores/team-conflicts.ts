import { systemClock } from '#shared/sync/system-clock.ts'
import type { ConflictChoice, ConflictSettled } from '#shared/team/draft-exchange.ts'
import { teamWorkspaceInMain } from '../adapters/team-workspace.ts'
import { db } from '../db/index.ts'
import { applySettled } from '../db/team-exchange.ts'
import { useSkuDraftsStore } from './sku-drafts.ts'

/**
 * Settles a SKU draft's conflict in the team workspace as a person chose (issue #41): main writes
 * the kept version as this desk's name over every other, then this desk's draft takes it, and the
 * list reads its drafts again. Answers 'changed' when another version arrived meanwhile.
 */
export async function settleSkuConflict(choice: Omit<ConflictChoice, 'kind'>): Promise<ConflictSettled> {
  const answer = await teamWorkspaceInMain.settle({ ...choice, kind: 'sku' })
  if (!answer.ok) return answer
  const status = await teamWorkspaceInMain.status()
  const editedBy = status.state === 'joined' ? status.name : ''
  await applySettled(
    db,
    'skus',
    choice.id,
    { kept: choice.kept, rev: answer.rev, editedBy },
    systemClock.now(),
  )
  useSkuDraftsStore().changed()
  return answer
}
