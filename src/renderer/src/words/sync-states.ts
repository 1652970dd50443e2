import type { SyncState } from '#shared/sync-state.ts'

/**
 * The sync states in a person's words: one map for the SKU list, its filters, the Sync page's
 * progress and history, and the apps list, so a state reads the same everywhere. (The log may say
 * a service "refused" something as a verb; as a state it is "Rejected".)
 */
export const SYNC_STATE_WORDS: Readonly<Record<SyncState, string>> = {
  draft: 'Not sent',
  queued: 'Queued',
  sending: 'Sending',
  synced: 'Synced',
  rejected: 'Rejected',
  failed: 'Failed',
  unknown: 'Unknown',
}

/** The same for app drafts, where a synced app is one the service created. */
export const APP_SYNC_STATE_WORDS: Readonly<Record<SyncState, string>> = {
  ...SYNC_STATE_WORDS,
  synced: 'Created',
}
