import { liveTag } from '#shared/sync/standing.ts'
import { RECOVERED_MESSAGE } from '#shared/sync/ports.ts'
import type { CatalogDatabase } from '../db/database.ts'
import { DexieSyncOutbox, itemsInState } from '../db/sync-outbox.ts'
import type { SyncRunRepository } from '../db/sync-runs.ts'
import { ifRunIdle } from '../adapters/run-lock.ts'

export interface Recovery {
  /** Drafts that were `sending` and are now `unknown`. */
  recovered: number
  /** Open runs another window is sending: left alone. */
  busyElsewhere: string[]
}

/**
 * Runs left with items `sending` (by a crash, a closed window, or a run that stopped because its
 * outcome could not be written): those items become `unknown` (the requests may have been
 * processed), unless another window is sending the run; an open run with nothing left to send is
 * finished. Done when the app starts, before anything shows a draft, and again when the Sync page
 * opens; a second pass finds nothing to change.
 */
export async function recoverInterruptedRuns(
  db: CatalogDatabase,
  runs: SyncRunRepository,
  skip: (runId: string) => boolean = () => false,
): Promise<Recovery> {
  const recovery: Recovery = { recovered: 0, busyElsewhere: [] }
  // A draft is `sending` somewhere exactly while its item is (the outbox writes both in one
  // transaction): two counts on the drafts' indexes say whether any run beyond the open ones needs
  // a look, so the app's start does not read the whole history of runs.
  const [skusSending, appsSending] = await Promise.all([
    db.skuDrafts.where('standing').equals(liveTag('sending')).count(),
    db.appDrafts.where('standing').equals(liveTag('sending')).count(),
  ])
  const candidates = skusSending + appsSending > 0 ? await db.syncRuns.toArray() : await runs.open()
  for (const run of candidates) {
    if (skip(run.id)) continue
    if (run.state !== 'open' && (await itemsInState(db, run.id, 'sending').count()) === 0) continue
    const idle = await ifRunIdle(run.id, async () => {
      recovery.recovered += await new DexieSyncOutbox(db, run).recoverInterrupted(RECOVERED_MESSAGE)
    })
    if (!idle) {
      recovery.busyElsewhere.push(run.id)
      continue
    }
    const left = await runs.counts(run.id)
    // Nothing left to send: the run is over, only decisions remain.
    if (run.state === 'open' && left.queued === 0 && left.sending === 0)
      await runs.setState(run.id, 'finished')
  }
  return recovery
}

/** What the person reads about drafts a recovery marked unknown. */
export const recoveredMessage = (drafts: string) =>
  `${drafts} were being sent when the app closed: they are now "unknown". Check them on the platform, then decide on the Sync page.`
