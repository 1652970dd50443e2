import { liveTag } from '#shared/sync/standing.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { RECOVERED_MESSAGE } from '#shared/sync/ports.ts'
import type { CatalogDatabase } from '../db/database.ts'
import { DexieSyncOutbox, itemsInState, type MainAnswers } from '../db/sync-outbox.ts'
import type { SyncRunRepository } from '../db/sync-runs.ts'
import type { SyncRunRecord } from '../db/sync-records.ts'
import { ifRunIdle } from '../adapters/run-lock.ts'
import { answersInMain } from '../adapters/sync-transport.ts'

export interface Recovery {
  /** Drafts that were `sending` and are now `unknown`. */
  recovered: number
  /** Open runs another window is sending: left alone. */
  busyElsewhere: string[]
  /**
   * Requests a page that is gone (this window before a reload, say) sent and main still has out:
   * their drafts stay `sending` until main has the answers (`recoverInterruptedRuns` again then).
   */
  stillOut: string[]
  /** Items that were `sending` and are not any more, by run: the team's send records follow them. */
  ended: Array<{ run: SyncRunRecord; keys: string[]; at: number }>
}

/**
 * Runs left with items `sending` (by a crash, a closed window, a reload, or a run that stopped
 * because its outcome could not be written): what main answered meanwhile to the requests the
 * page that is gone sent is written as that page would have written it; the requests main still
 * has out are left sending; the other items become `unknown` (the requests may have been
 * processed), unless another window is sending the run. An open run with nothing left to send is
 * finished. Done when the app starts, before anything shows a draft (so main is never waited
 * for), and again when the Sync page opens; a second pass finds nothing to change.
 */
export async function recoverInterruptedRuns(
  db: CatalogDatabase,
  runs: SyncRunRepository,
  skip: (runId: string) => boolean = () => false,
  answers: MainAnswers = answersInMain({ wait: false }),
): Promise<Recovery> {
  const recovery: Recovery = { recovered: 0, busyElsewhere: [], stillOut: [], ended: [] }
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
      const { recovered, stillOut, ended } = await recoverRun(db, run, answers)
      recovery.recovered += recovered
      recovery.stillOut.push(...stillOut)
      if (ended) recovery.ended.push(ended)
    })
    if (!idle) {
      recovery.busyElsewhere.push(run.id)
      continue
    }
    // A run cancelled while main still had a request out: what the answer put back in the queue
    // (a batch not taken, one to split) goes back to draft, as the cancel did with the rest.
    if (run.state === 'cancelled') await runs.releaseQueued(run.id)
    const left = await runs.counts(run.id)
    // Nothing left to send: the run is over, only decisions remain.
    if (run.state === 'open' && left.queued === 0 && left.sending === 0)
      await runs.setState(run.id, 'finished')
  }
  return recovery
}

/**
 * One run's recovery (see `recoverInterruptedRuns`), its lock held: main's answers written, the
 * requests main still has out named, the items that were sending and are not any more. Also a
 * resumed run's, before its claims (stores/sync/run-launch.ts).
 */
export async function recoverRun(
  db: CatalogDatabase,
  run: SyncRunRecord,
  answers: MainAnswers,
): Promise<Pick<Recovery, 'recovered' | 'stillOut'> & { ended?: Recovery['ended'][number] }> {
  const sendingKeys = async () =>
    (await itemsInState(db, run.id, 'sending').toArray()).map((item) => item.key)
  const before = await sendingKeys()
  const outbox = new DexieSyncOutbox(db, run, answers)
  const recovered = await outbox.recoverInterrupted(RECOVERED_MESSAGE)
  // What it left open, main still has out.
  const stillOut = await outbox.openRequestIds()
  const still = new Set(await sendingKeys())
  const keys = before.filter((key) => !still.has(key))
  return { recovered, stillOut, ...(keys.length > 0 && { ended: { run, keys, at: systemClock.now() } }) }
}

/** What the person reads about drafts a recovery marked unknown. */
export const recoveredMessage = (drafts: string) =>
  `${drafts} were being sent when the app closed: they are now "unknown". Check them on the platform, then decide on the Sync page.`
