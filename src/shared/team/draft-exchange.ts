import type { SharedKind } from './shared-documents.ts'

/**
 * What passes between the page's drafts and main's replica of the team workspace (issue #41):
 * the page shares what a desk edited, on the revision it last had; main answers with what arrived
 * in the replica since a sequence the page keeps, each document checked first
 * (`checkArrival`), a bad one set aside by its id and why, never handed over.
 */

/** One draft's version as this desk wrote it, for the workspace. */
export interface DraftShare {
  kind: SharedKind
  /** The draft's id in the page (the document's is `<kind>:<id>`). */
  id: string
  /** The revision the edit was based on: the last the draft had from the workspace; none when new. */
  base?: string
  payload: Record<string, unknown>
  deleted: boolean
  /** When it was edited, by this desk's clock (ms since the epoch). */
  editedAt: number
}

/** What the replica made of a share: its revision, and whether it stands beside a later version. */
export interface DraftShared {
  kind: SharedKind
  id: string
  rev: string
  /**
   * Based on a version the workspace has moved past (another desk edited it meanwhile): written
   * beside the later one, so the two are versions in conflict, both kept, for a person to settle.
   */
  conflict: boolean
}

/** A draft's winning version as it arrived in the replica, checked. */
export interface DraftArrival {
  kind: SharedKind
  id: string
  rev: string
  /** Absent for a removal made outside the app (a CouchDB `_deleted`), which `deleted` says. */
  payload?: Record<string, unknown>
  deleted: boolean
  /** The workspace user who wrote it; absent for a removal made outside the app. */
  editedBy?: string
  editedAt?: number
  /** How many other versions are in conflict with it (CouchDB keeps them all). */
  conflicts: number
}

/** A document from the workspace that was not applied: its id and why. */
export interface SetAside {
  id: string
  reason: string
}

/** What arrived after a sequence: the drafts, what was set aside, and the sequence to ask from next. */
export interface TeamArrivals {
  arrivals: DraftArrival[]
  setAside: SetAside[]
  last: string
}

/** The most shares one request carries, and the most arrivals one answer does. */
export const EXCHANGE_BATCH = 500
