/**
 * Where a draft stands with the service. `draft` is editable; the rest follow the sync outcome
 * table of the architecture guide and mirror the draft's item in its latest sync run
 * (src/shared/sync/ports.ts `ItemState`, written by the outbox in the same transaction).
 */
export const SYNC_STATES = ['draft', 'queued', 'sending', 'synced', 'rejected', 'failed', 'unknown'] as const
export type SyncState = (typeof SYNC_STATES)[number]
