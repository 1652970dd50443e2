import { createHash } from 'node:crypto'
import type { ClaimedDraft } from '#shared/team/claims.ts'
import { recordOf, type SendRecord } from '#shared/team/send-records.ts'
import { checkSent, DESTINATION_DIGEST_CHARS, type SentDocument } from '#shared/team/shared-documents.ts'
import type { ServerDocuments } from './server-documents.ts'

/** A draft's document of `type` about a destination: `<type>:<16 hex of its SHA-256>:<kind>:<id>`. */
export function destinationDocumentId(
  type: 'claim' | 'sent',
  destination: string,
  { kind, id }: ClaimedDraft,
): string {
  const digest = createHash('sha256').update(destination).digest('hex').slice(0, DESTINATION_DIGEST_CHARS)
  return `${type}:${digest}:${kind}:${id}`
}

/** A draft's send record on a destination (`SentDocument`). */
export const sentId = (destination: string, draft: ClaimedDraft) =>
  destinationDocumentId('sent', destination, draft)

/**
 * The send records of one destination on the workspace's server (issue #42), read and written
 * straight: one document a draft, replaced by each later outcome or decision. The revisions read
 * or written are kept, so the next write of a record goes on the one this desk last saw; a record
 * written elsewhere meanwhile is read again and written over, once, unless it holds a person's
 * decision and what would replace it is a run's account (a crash's recovered "unknown", say): the
 * decision stands.
 */
export class ServerSendRecords {
  readonly #server: ServerDocuments
  readonly #destination: string
  readonly #revs = new Map<string, string>()

  constructor(server: ServerDocuments, destination: string) {
    this.#server = server
    this.#destination = destination
  }

  /** The records the server holds for `drafts`, each checked (one that is not a record's shape is none). */
  async read(drafts: readonly ClaimedDraft[]): Promise<SendRecord[]> {
    if (drafts.length === 0) return []
    const { rows } = await this.#server.read(drafts.map((draft) => sentId(this.#destination, draft)))
    const found: SendRecord[] = []
    for (const { key, doc } of rows) {
      if (doc === undefined || doc === null) continue
      const checked = checkSent(doc)
      if (typeof checked === 'string' || checked._id !== key) {
        // Written over by the next record of the draft.
        const rev = (doc as { _rev?: unknown })._rev
        if (typeof rev === 'string') this.#revs.set(key, rev)
        continue
      }
      this.#revs.set(key, checked._rev)
      found.push(recordOf(checked))
    }
    return found
  }

  /** Writes `records` (each of this destination) as the drafts' send records. */
  async write(records: readonly SendRecord[]): Promise<void> {
    let waiting = [...records]
    for (let attempt = 0; waiting.length > 0; attempt++) {
      const docs = waiting.map((record) => this.#documentOf(record))
      const answers = await this.#server.bulk(docs)
      waiting = waiting.filter((_, at) => {
        const rev = answers[at]!.rev
        if (rev) this.#revs.set(docs[at]!._id, rev)
        return !rev
      })
      if (waiting.length === 0) return
      if (attempt > 0)
        throw new Error(
          `The workspace's server refused ${waiting.length} send records (written elsewhere meanwhile).`,
        )
      const there = await this.read(waiting.map((record) => ({ kind: record.kind, id: record.draft })))
      const decided = new Set(
        there.filter((record) => record.decision !== undefined).map((record) => record.draft),
      )
      waiting = waiting.filter((record) => record.decision !== undefined || !decided.has(record.draft))
    }
  }

  #documentOf(record: SendRecord): SentDocument {
    const _id = sentId(this.#destination, { kind: record.kind, id: record.draft })
    const _rev = this.#revs.get(_id)
    return { ...record, _id, ...(_rev ? { _rev } : {}), type: 'sent' }
  }
}
