import { createHash } from 'node:crypto'
import { messageOf } from '#shared/error-message.ts'
import { CLAIM_TTL_MS, type ClaimedDraft, type ClaimHeld, type ClaimsTaken } from '#shared/team/claims.ts'
import type { RunOutcome, SendRecord } from '#shared/team/send-records.ts'
import {
  checkClaim,
  checkSent,
  DESTINATION_DIGEST_CHARS,
  type ClaimDocument,
  type SentDocument,
} from '#shared/team/shared-documents.ts'
import type { Workspace } from './replica.ts'
import { askServer } from './server-request.ts'

/** A draft's claim document on a destination (`ClaimDocument`). */
export function claimId(destination: string, draft: ClaimedDraft): string {
  return documentId('claim', destination, draft)
}

/** A draft's send record on a destination (`SentDocument`). */
export function sentId(destination: string, draft: ClaimedDraft): string {
  return documentId('sent', destination, draft)
}

function documentId(type: 'claim' | 'sent', destination: string, { kind, id }: ClaimedDraft): string {
  const digest = createHash('sha256').update(destination).digest('hex').slice(0, DESTINATION_DIGEST_CHARS)
  return `${type}:${digest}:${kind}:${id}`
}

/**
 * One run's claims on one destination (issue #42), as main holds them while the run is alive:
 * taken, renewed, released, each straight on the workspace's server (a replica would take any
 * claim and let CouchDB pick a winner later: too late to hold a send back). The revisions of the
 * claims taken are kept here, so a renewal or a release is refused (409) for a claim another desk
 * took over meanwhile. Should main stop, the claims stay until their expiry, which is what tells
 * the other desks that this run stopped mid-send.
 */
export class RunClaims {
  readonly #workspace: Workspace
  readonly #owner: string
  readonly #run: string
  readonly #destination: string
  readonly #ttlMs: number
  /** The claims this run holds: their documents as last written, by id. */
  readonly #held = new Map<string, ClaimDocument & { _rev: string }>()
  /** The revisions of the send records of the drafts claimed, as the server last answered them. */
  readonly #recordRevs = new Map<string, string>()

  constructor(
    workspace: Workspace,
    claim: { owner: string; run: string; destination: string },
    ttlMs = CLAIM_TTL_MS,
  ) {
    this.#workspace = workspace
    this.#owner = claim.owner
    this.#run = claim.run
    this.#destination = claim.destination
    this.#ttlMs = ttlMs
  }

  /** How many claims the run holds. */
  get size(): number {
    return this.#held.size
  }

  /**
   * Claims `drafts`: each is taken unless another run holds it (the server refuses the second
   * document), which is answered with its owner and expiry. A claim this run already holds (an
   * answer lost on the way) is taken again as it is.
   */
  async take(drafts: readonly ClaimedDraft[]): Promise<ClaimsTaken> {
    const serverNow = await this.#serverNow()
    const claimOf = (draft: ClaimedDraft): ClaimDocument => ({
      _id: claimId(this.#destination, draft),
      type: 'claim',
      destination: this.#destination,
      kind: draft.kind,
      draft: draft.id,
      owner: this.#owner,
      run: this.#run,
      claimedAt: serverNow,
      expiresAt: serverNow + this.#ttlMs,
    })
    let refused = await this.#write(drafts.map(claimOf))
    let held = await this.#holders(refused)
    // A claim released between the refusal and the reading is free: taken at a second try.
    if (held.freed.length) {
      refused = await this.#write(held.freed.map(claimOf))
      const again = await this.#holders(refused)
      held = { ...again, claims: [...held.claims, ...again.claims] }
    }
    const taken = [...this.#held.values()].map(({ kind, draft }) => ({ kind, id: draft }))
    const asked = new Set(drafts.map((draft) => claimId(this.#destination, draft)))
    const recorded = await this.#records(
      taken.filter((draft) => asked.has(claimId(this.#destination, draft))),
    )
    return {
      taken,
      held: held.claims,
      serverNow: held.serverNow ?? serverNow,
      recorded: recorded.filter((record) => record.run !== this.#run),
    }
  }

  /**
   * Writes the run's outcomes as the drafts' send records, straight on the server: the claims
   * still held, so no other desk reads the drafts' records before these are there. A record
   * another desk wrote meanwhile (a decision about it) is read again and written over once.
   */
  async record(outcomes: readonly RunOutcome[]): Promise<void> {
    const docOf = (outcome: RunOutcome): SentDocument => {
      const _id = sentId(this.#destination, { kind: outcome.kind, id: outcome.draft })
      const _rev = this.#recordRevs.get(_id)
      return {
        ...outcome,
        destination: this.#destination,
        desk: this.#owner,
        run: this.#run,
        _id,
        ...(_rev ? { _rev } : {}),
        type: 'sent',
      }
    }
    let waiting = [...outcomes]
    for (let attempt = 0; waiting.length > 0; attempt++) {
      const docs = waiting.map(docOf)
      const answers = await this.#bulk(docs)
      waiting = waiting.filter((_, at) => {
        const rev = answers[at]!.rev
        if (rev) this.#recordRevs.set(docs[at]!._id, rev)
        return !rev
      })
      if (waiting.length === 0) return
      if (attempt > 0)
        throw new Error(
          `The workspace's server refused ${waiting.length} send records (written elsewhere meanwhile).`,
        )
      await this.#records(waiting.map((outcome) => ({ kind: outcome.kind, id: outcome.draft })))
    }
  }

  /** The send records the server holds for `drafts`, each checked; their revisions are kept for `record`. */
  async #records(drafts: readonly ClaimedDraft[]): Promise<SendRecord[]> {
    if (drafts.length === 0) return []
    const ids = drafts.map((draft) => sentId(this.#destination, draft))
    const answer = await this.#request<{ rows?: unknown }>('POST', '/_all_docs?include_docs=true', {
      keys: ids,
    })
    const found: SendRecord[] = []
    for (const { key, doc } of listOf<{ key: string; doc?: unknown }>(answer.body.rows)) {
      if (!ids.includes(key) || doc === undefined || doc === null) continue
      const checked = checkSent(doc)
      // One that is not a send record's shape is written over by this run's outcome.
      if (typeof checked === 'string' || checked._id !== key) {
        const rev = (doc as { _rev?: unknown })._rev
        if (typeof rev === 'string') this.#recordRevs.set(key, rev)
        continue
      }
      const { _id, _rev, type: _type, ...record } = checked
      this.#recordRevs.set(key, _rev)
      found.push(record)
    }
    return found
  }

  /** Writes new claims; those written are held, and the ids of those refused are answered. */
  async #write(docs: readonly ClaimDocument[]): Promise<string[]> {
    const answers = await this.#bulk(docs)
    const refused: string[] = []
    answers.forEach((answer, at) => {
      if (answer.rev) this.#held.set(docs[at]!._id, { ...docs[at]!, _rev: answer.rev })
      else refused.push(docs[at]!._id)
    })
    return refused
  }

  /** Moves every claim's expiry on by the TTL from the server's now; answers those lost meanwhile. */
  async renew(): Promise<ClaimedDraft[]> {
    const serverNow = await this.#serverNow()
    const docs = [...this.#held.values()].map((doc) => ({ ...doc, expiresAt: serverNow + this.#ttlMs }))
    const answers = await this.#bulk(docs)
    const lost: ClaimedDraft[] = []
    answers.forEach((answer, at) => {
      const doc = docs[at]!
      if (answer.rev) this.#held.set(doc._id, { ...doc, _rev: answer.rev })
      else {
        this.#held.delete(doc._id)
        lost.push({ kind: doc.kind, id: doc.draft })
      }
    })
    return lost
  }

  /** Removes the claims of `drafts` (every claim when none is named): the run is done with them. */
  async release(drafts?: readonly ClaimedDraft[]): Promise<void> {
    const ids = drafts ? drafts.map((draft) => claimId(this.#destination, draft)) : [...this.#held.keys()]
    const docs = ids.flatMap((id) => {
      const doc = this.#held.get(id)
      return doc ? [{ _id: id, _rev: doc._rev, _deleted: true }] : []
    })
    if (docs.length) await this.#bulk(docs)
    for (const id of ids) this.#held.delete(id)
  }

  /**
   * Who holds the claims `ids` (refused to this run): read with the server's time, so whether each
   * has expired is judged by the server's clock. One of this run's own (its answer lost) is taken.
   */
  async #holders(
    ids: readonly string[],
  ): Promise<{ claims: ClaimHeld[]; freed: ClaimedDraft[]; serverNow?: number }> {
    if (ids.length === 0) return { claims: [], freed: [] }
    const answer = await this.#request<{ rows?: unknown }>('POST', '/_all_docs?include_docs=true', {
      keys: ids,
    })
    // Each row by its key: a claim removed since has no document (and CouchDB no id for one gone).
    const rows = listOf<{ key: string; doc?: unknown }>(answer.body.rows)
    const claims: ClaimHeld[] = []
    const freed: ClaimedDraft[] = []
    for (const { key: id, doc } of rows) {
      if (!ids.includes(id)) continue
      const [, , kind, draft] = id.split(':') as [string, string, ClaimedDraft['kind'], string]
      if (doc === undefined || doc === null) {
        freed.push({ kind, id: draft })
        continue
      }
      const claim = checkClaim(doc)
      const checked = claim?._id === id ? claim : undefined
      if (checked && checked.owner === this.#owner && checked.run === this.#run) {
        this.#held.set(id, checked)
        continue
      }
      // A document there that is not a claim (written by hand, damaged) holds the draft as firmly:
      // named as unreadable, and taken as expired, for a person to settle.
      claims.push(
        checked
          ? { ...heldBy(checked), expired: checked.expiresAt <= answer.serverNow }
          : { kind, id: draft, owner: '', run: '', claimedAt: 0, expiresAt: 0, expired: true },
      )
    }
    return { claims, freed, serverNow: answer.serverNow }
  }

  /** The server's clock now, from the `Date` its answer to a cheap request carries. */
  async #serverNow(): Promise<number> {
    return (await this.#request('GET', '')).serverNow
  }

  /** Writes `docs` in one request; each answers its new revision, or none when refused (409). */
  async #bulk(docs: readonly object[]): Promise<Array<{ rev?: string }>> {
    const answer = await this.#request<unknown>('POST', '/_bulk_docs', { docs })
    const results = listOf<{ rev?: unknown; error?: unknown }>(answer.body)
    if (results.length !== docs.length)
      throw new Error(`The workspace's server answered ${results.length} of ${docs.length} claims.`)
    return results.map((result) =>
      !result.error && typeof result.rev === 'string' ? { rev: result.rev } : {},
    )
  }

  async #request<T>(
    method: 'GET' | 'POST',
    path: string,
    json?: object,
  ): Promise<{ body: T; serverNow: number }> {
    const { url } = this.#workspace
    const address = `${url}${path}`
    let response
    try {
      response = await askServer(this.#workspace, address, { method, json })
    } catch (error) {
      throw new Error(
        `The workspace's server at ${new URL(url).origin} did not answer: ${messageOf(error)}`,
        { cause: error },
      )
    }
    if (response.statusCode >= 300)
      throw new Error(
        `The workspace's server refused the claims (HTTP ${response.statusCode} at ${address}).`,
      )
    const serverNow = Date.parse(response.headers.date ?? '')
    if (!Number.isFinite(serverNow))
      throw new Error(
        `The workspace's server at ${new URL(url).origin} did not say its time (a Date header).`,
      )
    return { body: response.body as T, serverNow }
  }
}

function heldBy({
  kind,
  draft,
  owner,
  run,
  claimedAt,
  expiresAt,
}: ClaimDocument): Omit<ClaimHeld, 'expired'> {
  return { kind, id: draft, owner, run, claimedAt, expiresAt }
}

/** The server's answer as the list CouchDB gives (each entry an object), or an error saying not. */
function listOf<T extends object>(value: unknown): T[] {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'object' || entry === null))
    throw new Error('The workspace’s server answered the claims in a form CouchDB never does.')
  return value as T[]
}
