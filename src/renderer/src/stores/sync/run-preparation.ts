import { ref, shallowRef, type Ref } from 'vue'
import { messageOf } from '#shared/error-message.ts'
import type { ProfileView } from '#shared/profile.ts'
import type { RunAction, SyncKind } from '#shared/sync/ports.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import type { Enqueued } from '../../db/sync-runs.ts'
import type { useLiveRun } from './live-run.ts'

/** How one kind of run is queued, and what the log says of it. */
export interface RunSteps {
  /** Stores the run under `id`, a chunk at a time, saying how far it got. */
  queue(
    profile: ProfileView,
    id: string,
    onProgress: (queued: number, read: number, total: number) => void,
  ): Promise<Enqueued>
  nothing(profile: ProfileView): string
  queued(n: number, profile: ProfileView): string
  onQueued?(): void
}

/** What preparing a run touches of the rest of the store. */
export interface PreparationDeps {
  running: Pick<ReturnType<typeof useLiveRun>, 'slot' | 'sending'>
  target: Readonly<Ref<ProfileView | undefined>>
  error: Ref<string>
  addLog(text: string): void
  refresh(): Promise<void>
  launch(run: SyncRunRecord): Promise<void>
}

/**
 * A new run being queued, before it is sent: one at a time, and none while one is sent, with its
 * progress shown (a large run is stored a chunk at a time).
 */
export function useRunPreparation({ running, target, error, addLog, refresh, launch }: PreparationDeps) {
  const { slot, sending } = running
  /** The run being queued, of which kind, and how far. */
  const preparing = shallowRef<{
    kind: SyncKind
    action: RunAction
    queued: number
    read: number
    total: number
  }>()
  const busy = ref(false)

  /**
   * What `start` and `startUpdates` share: a run prepared a chunk at a time with its progress shown
   * (`queue` stores it under the id it is given), then sent in the background; no run is stored
   * when nothing is due, so a click with nothing ready leaves no history.
   */
  async function prepareAndLaunch(
    kind: SyncKind,
    action: RunAction,
    steps: RunSteps,
  ): Promise<string | undefined> {
    const profile = target.value
    if (!profile || busy.value || sending.value || slot.engine) return undefined
    error.value = ''
    busy.value = true
    const id = crypto.randomUUID()
    slot.preparing = id
    try {
      preparing.value = { kind, action, queued: 0, read: 0, total: 0 }
      const { run, queued } = await steps.queue(profile, id, (done, read, total) => {
        preparing.value = { kind, action, queued: done, read, total }
      })
      preparing.value = undefined
      if (queued === 0) {
        addLog(steps.nothing(profile))
        await refresh()
        return undefined
      }
      addLog(steps.queued(queued, profile))
      steps.onQueued?.()
      busy.value = false
      slot.preparing = undefined
      void launch(run)
      return run.id
    } catch (failure) {
      error.value = messageOf(failure)
      return undefined
    } finally {
      slot.preparing = undefined
      preparing.value = undefined
      busy.value = false
    }
  }

  return { preparing, busy, prepareAndLaunch }
}
