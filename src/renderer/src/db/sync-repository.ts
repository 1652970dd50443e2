import { db } from './index.ts'
import { SyncRunRepository } from './sync-runs.ts'

/** The app's sync runs, beside its drafts (`db/index.ts`), in the same database. */
export const syncRuns = new SyncRunRepository(db)
