import { createHash } from 'node:crypto'
import type { MappingShare } from '#shared/team/draft-exchange.ts'
import type { SharedMapping } from '#shared/team/shared-documents.ts'
import type { TeamReplica } from './replica.ts'

/**
 * The saved column mappings' side of the team workspace (issue #41): one document a header, so two
 * desks saving different headers never meet. A mapping is a preference, not work: two desks saving
 * the same header apart are settled by CouchDB's choice of winner, the same on every desk, with no
 * one asked (the drafts' conflicts are a person's to settle: draft-exchange.ts).
 */

/** A header's document: a digest, since a header may hold any character and any length. */
export const mappingDocumentId = (header: string): string =>
  `mapping:${createHash('sha256').update(header).digest('hex').slice(0, 32)}`

/** Writes the column mappings saved on this desk, as `editedBy`, each over its header's latest. */
export async function shareMappings(
  replica: TeamReplica,
  editedBy: string,
  shares: readonly MappingShare[],
): Promise<void> {
  for (const { header, path, editedAt } of shares) {
    const doc: SharedMapping = {
      _id: mappingDocumentId(header),
      type: 'mapping',
      header,
      path,
      editedBy,
      editedAt,
    }
    // Written on the replica's latest revision; one replicated in between is read again, once.
    for (let attempt = 0; attempt < 2; attempt++) {
      const rev = await replica.latest(doc._id)
      if ((await replica.write({ ...doc, ...(rev ? { _rev: rev } : {}) })).ok) break
    }
  }
}
