import { createSyncRun } from '#shared/sync/engine.ts'
import type { ItemState, ItemUpdate, OutboxItem, RequestRecord, SyncOutbox } from '#shared/sync/ports.ts'
import type { RunEvents, SyncRun } from '#shared/sync/run.ts'
import { db } from '../db/index.ts'
import { DexieSyncOutbox, itemsInState } from '../db/sync-outbox.ts'
import type { SyncRunRecord } from '../db/sync-records.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { onlineWaiter } from './network.ts'
import { profilesInMain } from './profiles.ts'
import { answersInMain, bridgeTransport } from './sync-transport.ts'
import { counted } from '#shared/counted.ts'
import type { SyncAnswers } from '#shared/ipc.ts'

/**
 * The engine for one run in the app: its outbox in IndexedDB, its requests over the bridge to
 * main with the run's own profile, the page's clock, and a wait for the network that probes the
 * service with an empty batch (it creates nothing). `needsNetwork` says whether the run's
 * destination needs the network: for one on this computer the probes go on while the page says
 * it is offline. `recorded` hears which items ended, and when, once the outbox has written it: each
 * request's, and those a crash left sending, recovered as unknown (a team's send records follow them).
 */
export function createAppSyncRun(
  run: SyncRunRecord,
  events: RunEvents,
  {
    needsNetwork,
    recorded,
  }: {
    needsNetwork(): boolean
    recorded?(keys: readonly string[], at: number): void
  },
): SyncRun {
  // A run taken up again after its page was gone waits for main's answers to what that page sent.
  const outbox = new DexieSyncOutbox(db, run, answersInMain({ wait: true }))
  return createSyncRun(
    {
      outbox: recorded ? new TellingOutbox(outbox, run.id, recorded) : outbox,
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

/**
 * Before a run is taken up again: requests a page that is gone sent for it, which main still has
 * out, are waited for, and the log says so (outside the engine's turn, where a wait would hold
 * Pause, Cancel and decisions). Says whether the run had any such request, answered or not.
 */
export async function awaitAnswersLeftOut(run: SyncRunRecord, log: (line: string) => void): Promise<boolean> {
  const open = await new DexieSyncOutbox(db, run).openRequestIds()
  if (open.length === 0) return false
  const answers: SyncAnswers = await answersInMain({ wait: false })(open).catch(() => ({}))
  const out = open.filter((id) => answers[id] === 'sending')
  if (out.length === 0) return true
  log(
    `Waiting for the service's answer to ${counted(out.length, 'request')} sent before the window was reloaded or closed…`,
  )
  await answersInMain({ wait: true })(out).catch(() => undefined)
  return true
}

/** An outbox that tells `recorded` which items ended once the outbox has written it. */
class TellingOutbox implements SyncOutbox {
  private readonly outbox: SyncOutbox
  private readonly runId: string
  private readonly recorded: (keys: readonly string[], at: number) => void

  constructor(outbox: SyncOutbox, runId: string, recorded: (keys: readonly string[], at: number) => void) {
    this.outbox = outbox
    this.runId = runId
    this.recorded = recorded
  }

  queuedAfter(after: number, limit: number): Promise<OutboxItem[]> {
    return this.outbox.queuedAfter(after, limit)
  }

  beginRequest(request: RequestRecord): Promise<void> {
    return this.outbox.beginRequest(request)
  }

  async endRequest(request: RequestRecord, updates: readonly ItemUpdate[]): Promise<void> {
    await this.outbox.endRequest(request, updates)
    this.recorded(
      updates.filter((update) => update.state !== 'queued').map((update) => update.key),
      request.endedAt ?? systemClock.now(),
    )
  }

  async recoverInterrupted(message: string): Promise<number> {
    const sending = await itemsInState(db, this.runId, 'sending').toArray()
    const recovered = await this.outbox.recoverInterrupted(message)
    if (sending.length)
      this.recorded(
        sending.map((item) => item.key),
        systemClock.now(),
      )
    return recovered
  }

  counts(): Promise<Record<ItemState, number>> {
    return this.outbox.counts()
  }
}
