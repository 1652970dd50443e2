import type { SendRecord } from './send-records.ts'
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

/** One version of a draft in the workspace, as a person compares them to settle a conflict. */
export interface DraftVersion {
  rev: string
  payload: Record<string, unknown>
  deleted: boolean
  editedBy: string
  editedAt: number
}

/** A person's choice among a draft's versions in conflict: what to keep, having seen `seen`. */
export interface ConflictChoice {
  kind: SharedKind
  id: string
  /** One version's fields, fields taken from several, or the deletion. */
  kept: { payload: Record<string, unknown>; deleted: boolean }
  /** The revisions of the versions the person compared. */
  seen: string[]
}

/** What settling a conflict came to: the version kept, or another version arrived meanwhile. */
export type ConflictSettled = { ok: true; rev: string } | { ok: false; reason: 'changed' }

/** A document from the workspace that was not applied: its id and why. */
export interface SetAside {
  id: string
  reason: string
}

/**
 * A column mapping saved on this desk, for the workspace: a header and the field it is imported
 * into (null: ignored), and when it was saved. The workspace keeps one document a header.
 */
export interface MappingShare {
  header: string
  path: string | null
  editedAt: number
}

/** A column mapping as it arrived: saved on a desk, by that desk's workspace user. */
export interface MappingArrival extends MappingShare {
  editedBy: string
}

/**
 * What arrived after a sequence: the drafts, the column mappings, the send records (issue #42),
 * what was set aside, and the sequence to ask from next.
 */
export interface TeamArrivals {
  arrivals: DraftArrival[]
  mappings: MappingArrival[]
  records: SendRecord[]
  setAside: SetAside[]
  last: string
}

/** The most shares one request carries, and the most arrivals one answer does. */
export const EXCHANGE_BATCH = 500

/**
 * What an edit in an editor was made on: the version it showed (its fields, and its revision in the
 * team workspace). The workspace's arrivals may replace a draft while an editor is open on it.
 */
export interface EditBase {
  payload: unknown
  rev: string | undefined
}
