import type { AppDraftRecord } from '../../db/records.ts'

/**
 * The id the service gave the app once sync created it (`app._id`), if the draft's record carries
 * one. The sync engine's ports call it `remoteId` (ItemUpdate); the record does not declare the
 * field yet, so it is read defensively. Until sync writes it, every draft shows none.
 */
export function createdAppId(record: AppDraftRecord): string | undefined {
  const id = (record as AppDraftRecord & { remoteId?: unknown }).remoteId
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** Sync states in a person's words, for the list and the editor. */
export const SYNC_STATE_TEXT: Record<AppDraftRecord['syncState'], string> = {
  draft: 'Not sent',
  queued: 'Queued',
  sending: 'Sending',
  synced: 'Created',
  rejected: 'Rejected',
  failed: 'Failed',
  unknown: 'Unknown',
}
