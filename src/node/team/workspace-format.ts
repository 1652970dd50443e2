import { isRecord } from '#shared/is-record.ts'
import { checkFormat, FORMAT_ID, TEAM_FORMAT, type FormatDocument } from '#shared/team/shared-documents.ts'
import type { ServerDocuments } from './server-documents.ts'

/** Writes that lost to another desk's at once, read again, before the claim is given up. */
const ATTEMPTS = 3

/**
 * Agrees the workspace's format (`FormatDocument`) before a desk claims drafts, straight on the
 * server: one a desk of this version reads is raised to `TEAM_FORMAT` (written first when there is
 * none); one newer than this desk's refuses the claim, saying why, as the desk could not read
 * what the newer desks record of what they sent, and would offer their drafts for creation again.
 * A format document of no known shape is written over.
 */
export async function agreeFormat(server: ServerDocuments, desk: string): Promise<void> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const { rows } = await server.read([FORMAT_ID])
    const doc = rows[0]?.doc
    const there = isRecord(doc) ? checkFormat(doc) : undefined
    if (there && there.format > TEAM_FORMAT) throw new Error(newerFormatWords(there))
    if (there?.format === TEAM_FORMAT) return
    const rev = isRecord(doc) && typeof doc._rev === 'string' ? doc._rev : undefined
    const written: FormatDocument = {
      _id: FORMAT_ID,
      ...(rev && { _rev: rev }),
      type: 'format',
      format: TEAM_FORMAT,
      desk,
      at: Date.now(),
    }
    const [answer] = await server.bulk([written])
    if (answer?.rev) return
  }
  throw new Error(
    'The workspace’s format could not be written: other desks kept writing it at the same moment. Try again.',
  )
}

function newerFormatWords({ format, desk }: { format: number; desk?: string }): string {
  const where = desk ? `on ${desk}’s desk` : 'on a desk of this team'
  return `A newer Catalog Desk runs ${where}: it records what it sends in a form this one cannot read (the workspace’s format ${format}, this desk’s ${TEAM_FORMAT}), so this desk could send again what that desk created. Update Catalog Desk on this desk, then send.`
}
