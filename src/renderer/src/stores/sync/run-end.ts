import type { RunSummary } from '#shared/sync/run.ts'
import { syncRuns } from '../../db/index.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import { logCount, notSentLine } from '../../words/sync-log.ts'
import type { LiveRun } from './live-run.ts'

/**
 * Records how the run ended; a cancelled run's queued drafts go back to draft. A run is recorded
 * finished only when the store says nothing of it is queued or sending: otherwise it stays open,
 * to be resumed. `patch` shows the stored counts in the progress panel.
 */
export async function recordRunEnd(
  run: SyncRunRecord,
  summary: RunSummary,
  { addLog, patch }: { addLog(text: string): void; patch(change: Partial<LiveRun>): void },
) {
  const { status } = summary
  if (status.state === 'finished' && status.cancelled) {
    const returned = await syncRuns.releaseQueued(run.id)
    if (returned > 0) addLog(notSentLine(run, returned))
    patch({ counts: { ...(await syncRuns.counts(run.id)), queued: 0 } })
  } else if (status.state === 'finished') {
    // The store's counts, not the engine's: the outbox may have failed an item the engine counted queued.
    const stored = await syncRuns.counts(run.id)
    patch({ counts: stored })
    if (stored.queued === 0 && stored.sending === 0) {
      await syncRuns.setState(run.id, 'finished', { lastMessage: '' })
    } else {
      const left = logCount(run.kind, stored.queued + stored.sending)
      const message = `The run ended with ${left} not sent: resume it or cancel it.`
      addLog(message)
      await syncRuns.setState(run.id, 'open', { lastMessage: message })
    }
  } else if (status.state === 'stopped') {
    // Nothing more can go out with this run: what it had not sent goes back to draft, editable
    // and ready for a new run once the address or the records are put right.
    const returned = await syncRuns.releaseQueued(run.id)
    if (returned > 0) addLog(notSentLine(run, returned))
    await syncRuns.setState(run.id, 'stopped', { lastMessage: status.message })
    patch({ counts: await syncRuns.counts(run.id) })
  } else if (status.state === 'paused') {
    await syncRuns.setState(run.id, 'open', { lastPause: status.reason, lastMessage: status.message })
  }
}
