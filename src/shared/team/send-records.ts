import type { SentDocument } from './shared-documents.ts'

// Shared send records (issue #42): what a desk's runs sent to a shared destination, as every desk
// of the workspace sees it. The document and its check: `SentDocument` (shared-documents.ts).

/**
 * A draft's latest outcome at one destination, as the run that sent it recorded it: one record a
 * draft and destination in the workspace, replaced by the next run that sends it there.
 */
export type SendRecord = Omit<SentDocument, '_id' | '_rev' | 'type'>

/**
 * An outcome of a run of this desk, as the page hands it to main (`recordTeamSends`): main adds
 * the destination (the run's claims') and the desk's name.
 */
export type RunOutcome = Omit<SendRecord, 'destination' | 'desk' | 'run'>

/** A person's decision about a draft whose outcome was not known, as its send record says it. */
export type DecidedRecord = SendRecord & Required<Pick<SendRecord, 'recordedBy' | 'decision'>>

/** A checked send record's document as the record it holds: without CouchDB's fields and its type. */
export function recordOf({ _id, _rev, type: _type, ...record }: SentDocument): SendRecord {
  return record
}
