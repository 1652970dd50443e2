import { systemClock } from '#shared/sync/system-clock.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { ConflictChoice, ConflictSettled, DraftVersion } from '#shared/team/draft-exchange.ts'
import { teamWorkspaceInMain } from '../adapters/team-workspace.ts'
import { db } from '../db/index.ts'
import { SHARED_KIND } from '#shared/team/shared-documents.ts'
import { applySettled } from '../db/team-exchange.ts'
import { TELL_DRAFTS_CHANGED } from './draft-lists.ts'

/** A draft's versions in the team workspace, the winner first, for a person to compare (issue #41). */
export function conflictVersions(kind: SyncKind, id: string): Promise<DraftVersion[]> {
  return teamWorkspaceInMain.versions(SHARED_KIND[kind], id)
}

/**
 * Settles a draft's conflict in the team workspace as a person chose (issue #41): main writes the
 * kept version as this desk's name over every other, then this desk's draft takes it, and the
 * kind's list reads its drafts again. Answers 'changed' when another version arrived meanwhile.
 */
export async function settleConflict(
  kind: SyncKind,
  choice: Omit<ConflictChoice, 'kind'>,
): Promise<ConflictSettled> {
  const answer = await teamWorkspaceInMain.settle({ ...choice, kind: SHARED_KIND[kind] })
  if (!answer.ok) return answer
  const status = await teamWorkspaceInMain.status()
  const editedBy = status.state === 'joined' ? status.name : ''
  await applySettled(db, kind, choice.id, { kept: choice.kept, rev: answer.rev, editedBy }, systemClock.now())
  await TELL_DRAFTS_CHANGED[kind]()
  return answer
}
