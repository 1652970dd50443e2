import { createSyncRun } from '#shared/sync/engine.ts'
import type { RunEvents, SyncRun } from '#shared/sync/run.ts'
import { db } from '../db/index.ts'
import { DexieSyncOutbox } from '../db/sync-outbox.ts'
import type { SyncRunRecord } from '../db/sync-records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { onlineWaiter } from './network.ts'
import { profilesInMain } from './profiles.ts'
import { bridgeTransport } from './sync-transport.ts'

/**
 * The engine for one run in the app: its outbox in IndexedDB, its requests over the bridge to
 * main with the run's own profile, the page's clock, and a wait for the network that probes the
 * service with an empty batch (it creates nothing). `needsNetwork` says whether the run's
 * destination needs the network: for one on this computer the probes go on while the page says
 * it is offline.
 */
export function createAppSyncRun(
  run: SyncRunRecord,
  events: RunEvents,
  { needsNetwork }: { needsNetwork(): boolean },
): SyncRun {
  return createSyncRun(
    {
      outbox: new DexieSyncOutbox(db, run),
      transport: bridgeTransport(run),
      clock: systemClock,
      waitUntilOnline: onlineWaiter({
        probe: async () => (await profilesInMain.testConnection(run.profileId)).kind !== 'unreachable',
        online: () => !needsNetwork() || navigator.onLine,
      }),
    },
    // The profile's concurrency is the most at once; the engine finds how many the service keeps up with.
    {
      runId: run.id,
      kind: run.kind,
      action: run.action ?? 'create',
      batchSize: run.batchSize,
      concurrency: run.concurrency,
      adaptive: true,
    },
    events,
  )
}
