import type {
  DraftArrival,
  DraftShare,
  DraftShared,
  DraftVersion,
  ConflictChoice,
  ConflictSettled,
  TeamArrivals,
} from '#shared/team/draft-exchange.ts'
import { recordOf } from '#shared/team/send-records.ts'
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
  const answer: TeamArrivals = { arrivals: [], mappings: [], records: [], setAside: [], last }
  for (const change of changes) {
    const checked = checkArrival(change.doc)
    if (!checked.ok) answer.setAside.push({ id: checked.id, reason: checked.reason })
    // Claims, and the workspace's format, are read on the server when a desk sends (claims.ts).
    else if ('claim' in checked || 'format' in checked) continue
    else if ('sent' in checked) answer.records.push(recordOf(checked.sent))
    else if ('mapping' in checked) {
      const { header, path, editedBy, editedAt } = checked.mapping
      answer.mappings.push({ header, path, editedBy, editedAt })
    } else if ('removed' in checked) {
      // A mapping removed outside the app is forgotten by the workspace only: desks keep theirs.
      // A claim removed is a run that ended; a send record removed (by hand) changes no draft; nor
      // does the workspace's format removed (the next claim writes it again).
      if (!/^(mapping|claim|sent):|^format$/.test(checked.removed._id))
        answer.arrivals.push({
          ...draftKey(checked.removed._id),
          rev: checked.removed._rev,
          deleted: true,
          conflicts: change.conflicts.length,
        })
    } else {
      const { _id, _rev, deleted } = checked.draft
      // A deletion against an edit: the draft stays, as the latest version that keeps it, marked
      // in conflict until a person settles it (CouchDB may make either the winner). It goes under
      // that version's revision, so an edit made on it continues the edit, never the deletion.
      const shown = deleted && change.conflicts.length ? await latestKept(replica, _id) : undefined
      const { payload, editedBy, editedAt } = shown ?? checked.draft
      answer.arrivals.push({
        ...draftKey(_id),
        rev: shown?.rev ?? _rev,
        payload,
        deleted: shown ? false : deleted,
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

/** Every version of a draft in the replica, each checked: the winner first, then those in conflict. */
export async function versionsOf(replica: TeamReplica, documentId: string): Promise<DraftVersion[]> {
  const versions: DraftVersion[] = []
  for (const stored of await replica.versions(documentId)) {
    const checked = checkArrival(stored)
    if (!checked.ok || !('draft' in checked)) continue
    const { _rev, payload, deleted, editedBy, editedAt } = checked.draft
    versions.push({ rev: _rev, payload, deleted, editedBy, editedAt })
  }
  return versions
}

/** The most recently edited version of a draft that does not delete it, if any. */
async function latestKept(replica: TeamReplica, documentId: string): Promise<DraftVersion | undefined> {
  return (await versionsOf(replica, documentId))
    .filter((version) => !version.deleted)
    .sort((a, b) => b.editedAt - a.editedAt)[0]
}

/**
 * Settles a conflict as a person chose (`kept`: one version's fields, a merge, or the deletion),
 * written as `editedBy` on the winner with every other version removed, in one request: every desk
 * then has one version again. Refused when the versions are no longer those the person compared
 * (`seen`): another desk's edit arrived meanwhile, and choosing again must include it.
 */
export async function settleConflict(
  replica: TeamReplica,
  editedBy: string,
  { kind, id, kept, seen, at }: ConflictChoice & { at: number },
): Promise<ConflictSettled> {
  const documentId = `${kind}:${id}`
  // The versions a person can have compared: a version set aside on arrival is never shown, and
  // settling removes it with the others.
  const now = (await versionsOf(replica, documentId)).map((version) => version.rev)
  if (now.length !== seen.length || now.some((rev) => !seen.includes(rev)))
    return { ok: false, reason: 'changed' }
  const written = await replica.resolve(documentId, {
    type: kind,
    payload: kept.payload,
    deleted: kept.deleted,
    editedBy,
    editedAt: at,
  })
  return written.ok ? { ok: true, rev: written.rev } : { ok: false, reason: 'changed' }
}
