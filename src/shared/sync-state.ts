import { ITEM_STATES } from './sync/ports.ts'

/**
 * Where a draft stands with the service. `draft` is editable; the rest are the states of the
 * draft's item in its latest sync run (`ITEM_STATES`), mirrored by the outbox in the same
 * transaction, per the sync outcome table of the architecture guide.
 */
export const SYNC_STATES = ['draft', ...ITEM_STATES] as const
export type SyncState = (typeof SYNC_STATES)[number]
