import type { DraftArrival, DraftShare, DraftShared, TeamArrivals } from '#shared/team/draft-exchange.ts'
import { checkArrival, type SharedDraft, type SharedKind } from '#shared/team/shared-documents.ts'
import type { TeamReplica } from './replica.ts'

/**
 * Writes what this desk edited into the replica, as `editedBy`, each on the revision it was based
 * on. An edit of a version the replica has moved past (another desk's edit arrived meanwhile) is
 * written beside the later one: both are kept as versions in conflict, and every desk sees them.
 */
export async function shareDrafts(
  replica: TeamReplica,
  editedBy: string,
  shares: readonly DraftShare[],
): Promise<DraftShared[]> {
  const answers: DraftShared[] = []
  for (const { kind, id, base, payload, deleted, editedAt } of shares) {
    const doc: SharedDraft = {
      _id: `${kind}:${id}`,
      ...(base ? { _rev: base } : {}),
      type: kind,
      payload,
      deleted,
      editedBy,
      editedAt,
    }
    const written = await replica.write({ ...doc })
    answers.push(
      written.ok
        ? { kind, id, rev: written.rev, conflict: false }
        : { kind, id, rev: await replica.writeBeside({ ...doc }, base), conflict: true },
    )
  }
  return answers
}

/**
 * What arrived in the replica after `since` (its local sequence; '0' for everything), at most
 * `limit` documents, each checked (`checkArrival`: size, depth, prototype keys, shape) before it is
 * handed to the page; a document that fails is set aside by its id and why, never handed over.
 */
export async function arrivalsSince(
  replica: TeamReplica,
  since: string,
  limit: number,
): Promise<TeamArrivals> {
  const { changes, last } = await replica.changes(since, limit)
  const answer: TeamArrivals = { arrivals: [], setAside: [], last }
  for (const change of changes) {
    const checked = checkArrival(change.doc)
    if (!checked.ok) answer.setAside.push({ id: checked.id, reason: checked.reason })
    else if ('removed' in checked)
      answer.arrivals.push({
        ...draftKey(checked.removed._id),
        rev: checked.removed._rev,
        deleted: true,
        conflicts: change.conflicts.length,
      })
    else {
      const { _id, _rev, payload, deleted, editedBy, editedAt } = checked.draft
      answer.arrivals.push({
        ...draftKey(_id),
        rev: _rev,
        payload,
        deleted,
        editedBy,
        editedAt,
        conflicts: change.conflicts.length,
      })
    }
  }
  return answer
}

/** The draft a document is (`sku:<id>`: checked by `checkArrival`). */
function draftKey(documentId: string): Pick<DraftArrival, 'kind' | 'id'> {
  const at = documentId.indexOf(':')
  return { kind: documentId.slice(0, at) as SharedKind, id: documentId.slice(at + 1) }
}
