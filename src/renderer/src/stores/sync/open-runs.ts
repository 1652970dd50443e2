import type { Ref } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import { db, syncRuns } from '../../db/index.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import { drafts } from '../../words/counting.ts'
import { logCount, notSentLine } from '../../words/sync-log.ts'
import { recoverInterruptedRuns, recoveredMessage } from '../interrupted-sync.ts'
import { recordEndedWhileAway } from './run-claims.ts'
import type { useProfilesStore } from '../profiles.ts'
import type { useLiveRun } from './live-run.ts'

/** What the open runs' actions touch of the rest of the store. */
export interface OpenRunsDeps {
  profiles: ReturnType<typeof useProfilesStore>
  running: Pick<ReturnType<typeof useLiveRun>, 'slot' | 'isSending'>
  busy: Readonly<Ref<boolean>>
  /** Open runs another window is sending (the run views' list). */
  elsewhere: Ref<string[]>
  error: Ref<string>
  addLog(text: string): void
  refresh(): Promise<void>
  launch(run: SyncRunRecord): Promise<void>
}

/**
 * The runs a crash, a closed window or an offline stop left open, and those that ended with
 * drafts refused: recovered as the Sync page opens, then resumed, cancelled or given back to
 * editing by the person. None is taken up while this page sends or prepares a run.
 */
export function useOpenRuns({
  profiles,
  running,
  busy,
  elsewhere,
  error,
  addLog,
  refresh,
  launch,
}: OpenRunsDeps) {
  const { slot } = running

  /** On the page's start: see `recoverInterruptedRuns` (the app's start has usually done it already). */
  async function recover() {
    const { recovered, busyElsewhere, ended } = await recoverInterruptedRuns(db, syncRuns, running.isSending)
    await recordEndedWhileAway(ended)
    if (recovered > 0) addLog(recoveredMessage(drafts(recovered)))
    elsewhere.value = busyElsewhere
  }

  async function init() {
    error.value = ''
    try {
      await profiles.load()
      if (!slot.engine) await recover()
      await refresh()
    } catch (failure) {
      error.value = messageOf(failure)
    }
  }

  /** Whether this page is sending or preparing a run, so it takes up no other (or this one twice). */
  const taken = (runId: string) => !!slot.engine || busy.value || runId === slot.preparing

  /** Ends an open run without sending more: its queued drafts go back to draft. */
  async function discardRun(runId: string) {
    if (taken(runId)) return
    const run = await syncRuns.get(runId)
    const returned = await syncRuns.releaseQueued(runId)
    addLog(`Run cancelled: ${run ? notSentLine(run, returned) : `${logCount('skus', returned)} not sent.`}`)
    await refresh()
  }

  /** Sends an open run again (one a crash, a closed window or an offline stop left). */
  async function resumeRun(runId: string) {
    if (taken(runId)) return
    const run = await syncRuns.get(runId)
    if (!run) return
    addLog(`Resuming the run of ${new Date(run.createdAt).toLocaleString()} to ${run.profileName}.`)
    await launch(run)
  }

  /** The drafts a run's service refused go back to draft, to be fixed and sent by a new run. */
  async function returnRejected(runId: string) {
    const run = await syncRuns.get(runId)
    const returned = await syncRuns.returnRejected(runId)
    addLog(
      `${logCount(run?.kind ?? 'skus', returned)} refused by the service went back to draft: fix them, then sync again.`,
    )
    await refresh()
  }

  return { init, discardRun, resumeRun, returnRejected }
}
