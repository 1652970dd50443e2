import { CLAIM_TTL_MS, type ClaimHeld, type ClaimsTaken, type DraftToClaim } from '#shared/team/claims.ts'
import type { ClaimedDraft } from '#shared/team/claims.ts'
import type { RunOutcome, SendRecord } from '#shared/team/send-records.ts'
import { checkClaim, type ClaimDocument } from '#shared/team/shared-documents.ts'
import type { Workspace } from './replica.ts'
import { destinationDocumentId, ServerSendRecords } from './send-records.ts'
import { ServerDocuments } from './server-documents.ts'
import { agreeFormat } from './workspace-format.ts'

/** A draft's claim document on a destination (`ClaimDocument`). */
export const claimId = (destination: string, draft: ClaimedDraft) =>
  destinationDocumentId('claim', destination, draft)

/**
 * One run's claims on one destination (issue #42), as main holds them while the run is alive:
 * taken, renewed, released, each straight on the workspace's server (a replica would take any
 * claim and let CouchDB pick a winner later: too late to hold a send back). The revisions of the
 * claims taken are kept here, so a renewal or a release is refused (409) for a claim another desk
 * took over meanwhile. Should main stop, the claims stay until their expiry, which is what tells
 * the other desks that this run stopped mid-send: the next to claim those drafts takes them over
 * and records their outcome as not known, for a person to decide.
 */
export class RunClaims {
  readonly #server: ServerDocuments
  readonly #records: ServerSendRecords
  readonly #owner: string
  readonly #run: string
  readonly #destination: string
  readonly #action: 'update' | undefined
  readonly #ttlMs: number
  /** The claims this run holds: their documents as last written, by id. */
  readonly #held = new Map<string, ClaimDocument & { _rev: string }>()
  /** The workspace's format agreed for this run (`agreeFormat`), before its first claim. */
  #formatAgreed = false

  constructor(
    workspace: Workspace,
    claim: { owner: string; run: string; destination: string; action?: 'update' | undefined },
    ttlMs = CLAIM_TTL_MS,
  ) {
    this.#server = new ServerDocuments(workspace)
    this.#records = new ServerSendRecords(this.#server, claim.destination)
    this.#owner = claim.owner
    this.#run = claim.run
    this.#destination = claim.destination
    this.#action = claim.action
    this.#ttlMs = ttlMs
  }

  /** How many claims the run holds. */
  get size(): number {
    return this.#held.size
  }

  /**
   * Claims `drafts`: each is taken unless another run holds it (the server refuses the second
   * document), which is answered with its owner and expiry. A claim this run already holds (an
   * answer lost on the way) is taken again as it is. A claim that ran out, by the server's clock,
   * is a run that stopped mid-send: it is taken over on the revision read (of desks trying at
   * once, the server lets one), and a draft that run left no record of is recorded for it as
   * "outcome unknown" (it may have been sent), for a person to decide on any desk. Answers too the
   * records the server holds for the drafts taken: what other runs sent there already. Refused
   * (thrown) while a desk of a newer version writes the workspace's documents (`agreeFormat`).
   */
  async take(drafts: readonly DraftToClaim[]): Promise<ClaimsTaken> {
    if (!this.#formatAgreed) {
      await agreeFormat(this.#server, this.#owner)
      this.#formatAgreed = true
    }
    const serverNow = await this.#server.now()
    const asked = new Map(drafts.map((draft) => [claimId(this.#destination, draft), draft]))
    const claimOf = (id: string, rev?: string): ClaimDocument => {
      const { kind, id: draft, position } = asked.get(id)!
      return {
        _id: id,
        ...(rev ? { _rev: rev } : {}),
        type: 'claim',
        destination: this.#destination,
        kind,
        draft,
        position,
        owner: this.#owner,
        run: this.#run,
        claimedAt: serverNow,
        expiresAt: serverNow + this.#ttlMs,
        ...(this.#action && { action: this.#action }),
      }
    }
    let refused = await this.#write([...asked.keys()].map((id) => claimOf(id)))
    let held = await this.#holders(refused)
    // A claim released between the refusal and the reading is free: taken at a second try.
    if (held.freed.length) {
      refused = await this.#write(held.freed.map((id) => claimOf(id)))
      const again = await this.#holders(refused)
      held = { ...again, claims: [...held.claims, ...again.claims] }
    }
    const ranOut = held.claims.filter((claim) => claim.expired && claim.owner !== '')
    const takenOver: ClaimHeld[] = []
    if (ranOut.length) {
      const ids = ranOut.map((claim) => claimId(this.#destination, claim))
      const lost = await this.#write(ids.map((id) => claimOf(id, held.revs.get(id))))
      takenOver.push(...ranOut.filter((_, at) => !lost.includes(ids[at]!)))
      // Another desk took some over first: it holds them now.
      const others = await this.#holders(lost)
      held = {
        ...held,
        claims: [...held.claims.filter((claim) => !ranOut.includes(claim)), ...others.claims],
      }
    }
    const taken = [...this.#held.values()]
      .filter((claim) => asked.has(claim._id))
      .map(({ kind, draft }) => ({ kind, id: draft }))
    const recorded = await this.#records.read(taken)
    // An update run that stopped left its drafts created, whatever came of the update; so did any
    // run with a draft recorded as created there (a creation run that had left it out): "unknown"
    // written over them would offer them for creation again.
    const stopped = takenOver.filter(
      (claim) =>
        claim.action !== 'update' &&
        !recorded.some(
          (record) => record.draft === claim.id && (record.run === claim.run || record.state === 'synced'),
        ),
    )
    const unknown = stopped.map((claim) =>
      this.#stoppedRecord(claim, asked.get(claimId(this.#destination, claim))!, serverNow),
    )
    await this.#records.write(unknown)
    const unknownOf = new Set(unknown.map((record) => record.draft))
    return {
      taken,
      held: held.claims,
      stopped,
      serverNow: held.serverNow ?? serverNow,
      // This run's own records are its items already, unless another desk wrote them.
      recorded: [...recorded.filter((record) => !unknownOf.has(record.draft)), ...unknown].filter(
        (record) => record.run !== this.#run || record.recordedBy !== undefined,
      ),
    }
  }

  /** The record of a draft whose claim ran out with no outcome recorded: not known, said by this desk. */
  #stoppedRecord(claim: ClaimHeld, draft: DraftToClaim, serverNow: number): SendRecord {
    return {
      destination: this.#destination,
      kind: claim.kind,
      draft: claim.id,
      desk: claim.owner,
      run: claim.run,
      position: claim.position,
      label: draft.label,
      state: 'unknown',
      at: serverNow,
      message: `${claim.owner}’s desk stopped while it held this draft to send (its claim ran out): whether it was created is not known.`,
      recordedBy: this.#owner,
    }
  }

  /**
   * Writes the run's outcomes as the drafts' send records, straight on the server: the claims
   * still held, so no other desk reads the drafts' records before these are there.
   */
  async record(outcomes: readonly RunOutcome[]): Promise<void> {
    await this.#records.write(
      outcomes.map((outcome) => ({
        ...outcome,
        destination: this.#destination,
        desk: this.#owner,
        run: this.#run,
      })),
    )
  }

  /** Writes new claims (or takes over those whose revision is given); answers the ids refused. */
  async #write(docs: readonly ClaimDocument[]): Promise<string[]> {
    if (docs.length === 0) return []
    const answers = await this.#server.bulk(docs)
    const refused: string[] = []
    answers.forEach((answer, at) => {
      if (answer.rev) this.#held.set(docs[at]!._id, { ...docs[at]!, _rev: answer.rev })
      else refused.push(docs[at]!._id)
    })
    return refused
  }

  /** Moves every claim's expiry on by the TTL from the server's now; answers those lost meanwhile. */
  async renew(): Promise<ClaimedDraft[]> {
    const serverNow = await this.#server.now()
    const docs = [...this.#held.values()].map((doc) => ({ ...doc, expiresAt: serverNow + this.#ttlMs }))
    if (docs.length === 0) return []
    const answers = await this.#server.bulk(docs)
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
    if (docs.length) await this.#server.bulk(docs)
    for (const id of ids) this.#held.delete(id)
  }

  /**
   * Who holds the claims `ids` (refused to this run): read with the server's time, so whether each
   * has expired is judged by the server's clock. One of this run's own (its answer lost) is taken.
   */
  async #holders(
    ids: readonly string[],
  ): Promise<{ claims: ClaimHeld[]; freed: string[]; revs: Map<string, string>; serverNow?: number }> {
    const revs = new Map<string, string>()
    if (ids.length === 0) return { claims: [], freed: [], revs }
    const { rows, serverNow } = await this.#server.read(ids)
    const claims: ClaimHeld[] = []
    const freed: string[] = []
    for (const { key: id, doc } of rows) {
      const [, , kind, draft] = id.split(':') as [string, string, ClaimedDraft['kind'], string]
      if (doc === undefined || doc === null) {
        freed.push(id)
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
      if (checked) revs.set(id, checked._rev)
      claims.push(
        checked
          ? { ...heldBy(checked), expired: checked.expiresAt <= serverNow }
          : { kind, id: draft, position: 0, owner: '', run: '', claimedAt: 0, expiresAt: 0, expired: true },
      )
    }
    return { claims, freed, revs, serverNow }
  }
}

function heldBy({
  kind,
  draft,
  position,
  owner,
  run,
  claimedAt,
  expiresAt,
  action,
}: ClaimDocument): Omit<ClaimHeld, 'expired'> {
  return { kind, id: draft, position, owner, run, claimedAt, expiresAt, ...(action && { action }) }
}
