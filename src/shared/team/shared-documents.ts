import { isRecord } from '../is-record.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-depth.ts'
import type { SyncKind } from '../sync/ports.ts'

/**
 * What a team workspace holds (issue #41), one CouchDB document a shared thing: a SKU draft
 * (`sku:<draft id>`) or an app draft (`app:<draft id>`), its payload as the editor keeps it and
 * who edited it last. A deletion is a version like any other (`deleted: true`), not CouchDB's
 * `_deleted`: a deletion against an edit is then a conflict both desks see, where a `_deleted`
 * leaf would lose to the edit without a word.
 */
export interface SharedDraft {
  _id: string
  _rev?: string
  type: SharedKind
  payload: Record<string, unknown>
  deleted: boolean
  /** The workspace user (the desk's CouchDB name) who wrote this version. */
  editedBy: string
  /** When, in ms since the epoch, by that desk's clock. */
  editedAt: number
}

export type SharedKind = 'sku' | 'app'
const KINDS: readonly SharedKind[] = ['sku', 'app']

/** The kind of a draft's documents in the workspace, and the kind of draft a document is. */
export const SHARED_KIND: Readonly<Record<SyncKind, SharedKind>> = { skus: 'sku', apps: 'app' }
export const DRAFT_KIND_OF: Readonly<Record<SharedKind, SyncKind>> = { sku: 'skus', app: 'apps' }

/**
 * A saved column mapping (`mapping:<32 hex digits of the header's SHA-256>`): the field a
 * spreadsheet's header is imported into (null: ignored), saved on a desk by its workspace user.
 */
export interface SharedMapping {
  _id: string
  _rev?: string
  type: 'mapping'
  header: string
  path: string | null
  editedBy: string
  editedAt: number
}

/**
 * The workspace's format (one document, `format`): the newest shape of the shared documents any
 * desk of the team writes, as that desk's version knows it (`TEAM_FORMAT`). A desk sets aside the
 * documents it does not know the shape of, so a desk of an earlier version could miss a newer
 * desk's send records and offer its drafts for creation again. Every desk raises the format to its
 * own before it claims drafts, and claims none while the format is newer than its own (src/node/
 * team/workspace-format.ts). Read by every version to come: its check takes any other field.
 */
export interface FormatDocument {
  _id: typeof FORMAT_ID
  _rev?: string
  type: 'format'
  format: number
  /** The desk that raised it to this, and when (its clock). */
  desk: string
  at: number
}

export const FORMAT_ID = 'format'

/**
 * The shape of the documents this version writes. 1: drafts, mappings, claims, send records; 2:
 * a claim and a send record may say `action: 'update'` (corrections, which a desk of format 1 sets
 * aside). Raise it with any change a desk of the earlier format would not read.
 */
export const TEAM_FORMAT = 2

/** The workspace's format, when `doc` is its document (`_id` checked by the caller). */
export function checkFormat(doc: Record<string, unknown>): { format: number; desk?: string } | undefined {
  const { format, desk } = doc
  if (doc.type !== 'format' || typeof format !== 'number' || !Number.isSafeInteger(format) || format < 1)
    return undefined
  return { format, ...(typeof desk === 'string' && desk.length <= MAX_NAME_CHARS && { desk }) }
}

/**
 * Claims (issue #42): before a desk sends drafts to a shared destination it claims each one with a
 * document written straight to the workspace's server, never through its replica, so the server
 * alone decides who holds a draft: a second claim on it is refused (409), and the desk that holds
 * it is named. A claim is the draft's on one destination (`claim:<destination's digest>:<kind>:<id>`),
 * lasts until `expiresAt` by the server's clock (renewed while its run is alive) and is removed
 * when the run ends. One still there after its expiry is a desk that stopped mid-send.
 */
export interface ClaimDocument {
  _id: string
  _rev?: string
  type: 'claim'
  /** The destination's address, as `destinationOf` gives it. */
  destination: string
  kind: SharedKind
  /** The draft's id. */
  draft: string
  /** The draft's item in the run: where that run's record of it would be. */
  position: number
  /** The workspace user (the desk's name) whose run holds it. */
  owner: string
  /** The run that holds it, on the owner's desk. */
  run: string
  /** When it was taken, and until when it holds: ms since the epoch, by the server's clock. */
  claimedAt: number
  expiresAt: number
  /**
   * An update run's claim: its drafts were created there, and its stopping never makes their
   * creation unknown (the next desk records nothing for it). Absent: a creation run's.
   */
  action?: 'update'
}

/** The outcomes a send record keeps: the states an item of a run ends in. */
export const SENT_STATES = ['synced', 'rejected', 'failed', 'unknown'] as const
export type SentState = (typeof SENT_STATES)[number]

/**
 * A draft's send record at one destination (issue #42, send-records.ts):
 * `sent:<destination's digest>:<kind>:<id>`, its latest outcome there as the run that sent it
 * recorded it, replaced by the next run that sends it there. Written straight to the server by the
 * desk whose run sent it, before the run releases its claims, so the next desk to claim the draft
 * finds it there; it replicates to every desk, which then shows the same outcome.
 */
export interface SentDocument {
  _id: string
  _rev?: string
  type: 'sent'
  /** The destination's address, as `destinationOf` gives it. */
  destination: string
  kind: SharedKind
  /** The draft's id. */
  draft: string
  /** The workspace user (the desk's name) whose run sent it. */
  desk: string
  /** The run on that desk, the item's place in it, and how a person finds the draft (its barcode). */
  run: string
  position: number
  label: string
  state: SentState
  /** When the outcome came, in ms since the epoch by the sending desk's clock. */
  at: number
  /** The platform's id of what it created, when the answer said it. */
  remoteId?: string
  /** Why it was refused, failed or is unknown. */
  message?: string
  /** Exactly what was sent: what a later version of the draft is compared with, and updated from. */
  sent?: unknown
  /**
   * An update applied to what a desk created there (a SKU's correction): its `sent` is what stands
   * there now, the base of the next update's changes. Absent: a creation's outcome. Only an applied
   * update is recorded: one refused or not known leaves the creation's record, so a SKU created
   * there never looks uncreated to another desk.
   */
  action?: 'update'
  /**
   * The desk that wrote this record when it is not the sending desk's own account: another desk that
   * found the sending desk's claim run out (the outcome not known), or that decided about it.
   */
  recordedBy?: string
  /**
   * A person's decision about an outcome that was not known, on `recordedBy`'s desk: created after
   * all (the record is then `synced`), or to be sent again (the draft is free for a new run).
   */
  decision?: SentDecision
}

/** What a person decided about a draft whose outcome at a destination was not known. */
export type SentDecision = 'created' | 'resend'

/** The hex digits of the destination's SHA-256 a claim's id carries (its address can be long). */
export const DESTINATION_DIGEST_CHARS = 16

/**
 * A document that arrived, checked: a draft's version, a column mapping, a desk's claim on a draft
 * (claims.ts: written on the server, they replicate like the rest), or the removal of any
 * (a `_deleted` leaf).
 */
export type Arrival =
  | { ok: true; draft: SharedDraft & { _rev: string } }
  | { ok: true; mapping: SharedMapping & { _rev: string } }
  | { ok: true; claim: ClaimDocument & { _rev: string } }
  | { ok: true; sent: SentDocument & { _rev: string } }
  | { ok: true; format: { format: number; desk?: string } }
  | { ok: true; removed: { _id: string; _rev: string } }
  | { ok: false; id: string; reason: string }

/**
 * The most a shared document may weigh, as JSON. A SKU draft is a few kilobytes; CouchDB's own
 * limit (`max_document_size`) is 8 MB by default, and a document that large from a workspace would
 * be a mistake or an attack: set aside, never applied.
 */
export const MAX_SHARED_DOCUMENT_BYTES = 1024 * 1024

/** Keys that, copied into an object, would reach its prototype: a document holding one is refused. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const DRAFT_ID = '(sku|app):[A-Za-z0-9_-]{1,100}'
const ID = new RegExp(
  `^${DRAFT_ID}$|^mapping:[0-9a-f]{32}$|^(claim|sent):[0-9a-f]{${DESTINATION_DIGEST_CHARS}}:${DRAFT_ID}$|^${FORMAT_ID}$`,
)
const REV = /^\d{1,10}-[0-9a-f]{1,64}$/
const MAX_NAME_CHARS = 200
/** A destination's address: as long as a profile's may be. */
const MAX_DESTINATION_CHARS = 2_000
/** A header longer than any sheet's; a field path longer than the contract's deepest. */
const MAX_HEADER_CHARS = 500
const MAX_PATH_CHARS = 300
/** A draft's label (its barcode or name) and an outcome's message, as a run keeps them. */
const MAX_LABEL_CHARS = 1_000
const MAX_MESSAGE_CHARS = 10_000

/**
 * Checks a document from the workspace before anything of it reaches a draft: its size, its depth,
 * no prototype key at any depth, then its shape, field by field (unknown top-level fields refused,
 * the payload kept as the editor would keep a draft's: its validity is the draft's own business).
 * Never throws: a bad document is an answer naming it and why.
 */
export function checkArrival(doc: unknown): Arrival {
  const id = isRecord(doc) && typeof doc._id === 'string' ? doc._id.slice(0, 120) : '(no id)'
  const refuse = (reason: string): Arrival => ({ ok: false, id, reason })
  if (!isRecord(doc)) return refuse('not an object')
  const bytes = sizeOf(doc)
  if (bytes === undefined || bytes > MAX_SHARED_DOCUMENT_BYTES)
    return refuse(`larger than ${MAX_SHARED_DOCUMENT_BYTES / 1024 / 1024} MB`)
  if (nestsDeeperThan(doc, MAX_JSON_DEPTH)) return refuse(`nested deeper than ${MAX_JSON_DEPTH} levels`)
  const key = prototypeKeyIn(doc)
  if (key) return refuse(`holds a "${key}" key`)
  if (typeof doc._id !== 'string' || !ID.test(doc._id)) return refuse('its id is not a shared draft’s')
  if (typeof doc._rev !== 'string' || !REV.test(doc._rev)) return refuse('its revision is not CouchDB’s')
  if (doc._deleted === true) {
    const extra = Object.keys(doc).filter((name) => !['_id', '_rev', '_deleted'].includes(name))
    return extra.length
      ? refuse(`a removal with fields (${extra.join(', ')})`)
      : { ok: true, removed: { _id: doc._id, _rev: doc._rev } }
  }
  const fields = doc as Record<string, unknown> & { _id: string; _rev: string }
  if (fields._id.startsWith('claim:')) {
    const claim = checkClaim(fields)
    return claim ? { ok: true, claim } : refuse('not a claim’s shape')
  }
  if (fields._id === FORMAT_ID) {
    const format = checkFormat(fields)
    return format ? { ok: true, format } : refuse('not the workspace format’s shape')
  }
  if (fields._id.startsWith('sent:')) {
    const sent = checkSent(fields)
    return typeof sent === 'string' ? refuse(sent) : { ok: true, sent }
  }
  return fields._id.startsWith('mapping:') ? mappingOf(fields, refuse) : draftOf(fields, refuse)
}

/** A claim as the server holds it, when it has a claim's shape (its id checked by `checkArrival`). */
export function checkClaim(doc: unknown): (ClaimDocument & { _rev: string }) | undefined {
  if (!isRecord(doc)) return undefined
  const {
    _id,
    _rev,
    type,
    destination,
    kind,
    draft,
    position,
    owner,
    run,
    claimedAt,
    expiresAt,
    action,
    ...rest
  } = doc
  const text = (value: unknown, most: number) =>
    typeof value === 'string' && value.length > 0 && value.length <= most
  const time = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0
  const place = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
  const fits =
    Object.keys(rest).length === 0 &&
    typeof _id === 'string' &&
    typeof _rev === 'string' &&
    REV.test(_rev) &&
    type === 'claim' &&
    text(destination, MAX_DESTINATION_CHARS) &&
    KINDS.includes(kind as SharedKind) &&
    text(draft, 100) &&
    _id.endsWith(`:${String(kind)}:${String(draft)}`) &&
    place(position) &&
    text(owner, MAX_NAME_CHARS) &&
    text(run, MAX_NAME_CHARS) &&
    time(claimedAt) &&
    time(expiresAt) &&
    (action === undefined || action === 'update')
  return fits ? (doc as unknown as ClaimDocument & { _rev: string }) : undefined
}

/**
 * A send record as the server holds it, or what is wrong with it: another desk's account of what
 * it sent, which becomes this desk's record of the draft there, so each field is checked (the
 * payload sent is kept as it came: only compared with the draft and sent on as an update's base).
 */
export function checkSent(doc: unknown): (SentDocument & { _rev: string }) | string {
  if (!isRecord(doc)) return 'not an object'
  const { _id, _rev, type, destination, kind, draft, desk, run, position, label, state, at, ...optional } =
    doc
  // `sent` is what was sent, any JSON: kept as it came.
  const { remoteId, message, sent: _sent, recordedBy, decision, action, ...rest } = optional
  const text = (value: unknown, most: number) =>
    typeof value === 'string' && value.length > 0 && value.length <= most
  const unknown = Object.keys(rest)
  if (unknown.length) return `unknown fields (${unknown.slice(0, 5).join(', ')})`
  if (type !== 'sent' || typeof _id !== 'string' || typeof _rev !== 'string' || !REV.test(_rev))
    return 'its type does not match its id'
  if (
    !KINDS.includes(kind as SharedKind) ||
    !text(draft, 100) ||
    !_id.endsWith(`:${String(kind)}:${String(draft)}`)
  )
    return '"kind" and "draft" do not match its id'
  if (!text(destination, MAX_DESTINATION_CHARS)) return '"destination" is not an address'
  if (!text(desk, MAX_NAME_CHARS)) return '"desk" is not a user’s name'
  if (!text(run, MAX_NAME_CHARS)) return '"run" is not a run’s id'
  if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0)
    return '"position" is not a place in a run'
  if (typeof label !== 'string' || label.length > MAX_LABEL_CHARS) return '"label" is not a draft’s label'
  if (!SENT_STATES.includes(state as SentState)) return `"state" is not one of ${SENT_STATES.join(', ')}`
  if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) return '"at" is not a time'
  if (remoteId !== undefined && !text(remoteId, MAX_NAME_CHARS)) return '"remoteId" is not an id'
  if (message !== undefined && (typeof message !== 'string' || message.length > MAX_MESSAGE_CHARS))
    return '"message" is not a message'
  if (recordedBy !== undefined && !text(recordedBy, MAX_NAME_CHARS))
    return '"recordedBy" is not a user’s name'
  if (decision !== undefined && decision !== 'created' && decision !== 'resend')
    return '"decision" is not created or resend'
  if (action !== undefined && (action !== 'update' || state !== 'synced'))
    return '"action" is not an applied update'
  return doc as unknown as SentDocument & { _rev: string }
}

function mappingOf(
  doc: Record<string, unknown> & { _id: string; _rev: string },
  refuse: (reason: string) => Arrival,
): Arrival {
  const { _id, _rev, type, header, path, editedBy, editedAt, ...rest } = doc
  const unknown = Object.keys(rest)
  if (unknown.length) return refuse(`unknown fields (${unknown.slice(0, 5).join(', ')})`)
  if (type !== 'mapping') return refuse('its type does not match its id')
  if (typeof header !== 'string' || header.trim() === '' || header.length > MAX_HEADER_CHARS)
    return refuse('"header" is not a column’s header')
  if (path !== null && (typeof path !== 'string' || path === '' || path.length > MAX_PATH_CHARS))
    return refuse('"path" is not a field’s path')
  const who = whoAndWhen(editedBy, editedAt)
  if (who) return refuse(who)
  return {
    ok: true,
    mapping: { _id, _rev, type, header, path, editedBy: editedBy as string, editedAt: editedAt as number },
  }
}

/** What is wrong with a version's author and time, if anything. */
function whoAndWhen(editedBy: unknown, editedAt: unknown): string | undefined {
  if (typeof editedBy !== 'string' || editedBy.length === 0 || editedBy.length > MAX_NAME_CHARS)
    return '"editedBy" is not a user’s name'
  if (typeof editedAt !== 'number' || !Number.isFinite(editedAt) || editedAt < 0)
    return '"editedAt" is not a time'
  return undefined
}

function draftOf(
  doc: Record<string, unknown> & { _id: string; _rev: string },
  refuse: (reason: string) => Arrival,
): Arrival {
  const { _id, _rev, type, payload, deleted, editedBy, editedAt, ...rest } = doc
  const unknown = Object.keys(rest)
  if (unknown.length) return refuse(`unknown fields (${unknown.slice(0, 5).join(', ')})`)
  if (!KINDS.includes(type as SharedKind) || !_id.startsWith(`${String(type)}:`))
    return refuse('its type does not match its id')
  if (!isRecord(payload)) return refuse('its payload is not an object')
  if (typeof deleted !== 'boolean') return refuse('"deleted" is not true or false')
  const who = whoAndWhen(editedBy, editedAt)
  if (who) return refuse(who)
  return {
    ok: true,
    draft: {
      _id,
      _rev,
      type: type as SharedKind,
      payload,
      deleted,
      editedBy: editedBy as string,
      editedAt: editedAt as number,
    },
  }
}

/** The document's size as JSON, in bytes; undefined when it cannot be written as JSON. */
function sizeOf(doc: Record<string, unknown>): number | undefined {
  try {
    return new TextEncoder().encode(JSON.stringify(doc)).byteLength
  } catch {
    return undefined
  }
}

/** The first prototype key found at any depth (own keys only; depth already bounded). */
function prototypeKeyIn(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) return key
    const found = prototypeKeyIn((value as Record<string, unknown>)[key])
    if (found) return found
  }
  return undefined
}
