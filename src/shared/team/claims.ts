import type { SendRecord } from './send-records.ts'
import type { SharedKind } from './shared-documents.ts'

// Claims (issue #42), as main's claims (src/node/team/claims.ts) answer the page: the document
// itself is `ClaimDocument`, with the workspace's other documents (shared-documents.ts).

/** A draft as a claim names it. */
export interface ClaimedDraft {
  kind: SharedKind
  id: string
}

/** A draft as a run claims it: its item's place in the run, and how a person finds it (its barcode). */
export interface DraftToClaim extends ClaimedDraft {
  position: number
  label: string
}

/** A claim another desk holds: whose, until when (the server's clock), and whether that has passed. */
export interface ClaimHeld extends ClaimedDraft {
  /** The draft's item in the holder's run. */
  position: number
  owner: string
  run: string
  claimedAt: number
  expiresAt: number
  expired: boolean
  /** The holder is an update run (`ClaimDocument.action`). */
  action?: 'update'
}

/**
 * What claiming came to: the drafts this run now holds, those another run holds, the server's
 * time, and the send records the server holds for the drafts taken, from other runs: what another
 * desk sent there already, which this desk's replica may not have yet.
 */
export interface ClaimsTaken {
  /** Of the drafts asked for, those this run holds now. */
  taken: ClaimedDraft[]
  held: ClaimHeld[]
  /**
   * Of those taken, the claims that had run out with no outcome recorded by their run: it stopped
   * mid-send, and their outcome is now recorded as not known (in `recorded`).
   */
  stopped: ClaimHeld[]
  serverNow: number
  recorded: SendRecord[]
}

/** How long a claim holds unless renewed: a run renews its claims well within it. */
export const CLAIM_TTL_MS = 2 * 60_000

/** A run's claim on drafts about to be sent to `destination` (`destinationOf`). */
export interface ClaimRequest {
  destination: string
  /** The run's id on this desk. */
  run: string
  drafts: DraftToClaim[]
  /** An update run's claims say so (`ClaimDocument.action`). */
  action?: 'update'
}

/** What claiming came to, or why nothing could be claimed (no workspace, its server out of reach). */
export type ClaimAnswer = ({ ok: true } & ClaimsTaken) | { ok: false; message: string }
