/**
 * Where a draft stands with the service. `draft` is editable; the rest follow the sync outcome
 * table of the architecture guide (the engine arrives with the sync feature).
 */
export const SYNC_STATES = ['draft', 'queued', 'sending', 'synced', 'rejected', 'failed', 'unknown'] as const
export type SyncState = (typeof SYNC_STATES)[number]
