import { shallowRef } from 'vue'
import type { ItemState, SyncKind } from '#shared/sync/ports.ts'
import { syncRuns } from '../db/index.ts'
import type { SyncRunRecord } from '../db/sync-records.ts'
import type { Preflight } from '../db/sync-runs.ts'

/** A run of the history with its items counted by state. */
export interface RunView {
  run: SyncRunRecord
  counts: Record<ItemState, number>
}

/** How often at most the history's counts are read again while a run is sending. */
const REFRESH_EVERY_MS = 2_000

async function viewOf(run: SyncRunRecord): Promise<RunView> {
  return { run, counts: await syncRuns.counts(run.id) }
}

/**
 * What the Sync page shows of the runs in the store: each kind's pre-flight, the history, and the
 * open runs a person may resume (but not those `isTaken` says this page is sending or preparing,
 * nor those another window is sending: `elsewhere`).
 */
export function useRunViews(isTaken: (runId: string) => boolean, destination: () => string | undefined) {
  /** Each kind's pre-flight summary at the active profile's destination (for apps, `synced` means already created). */
  const preflights = shallowRef<Partial<Record<SyncKind, Preflight>>>({})
  const history = shallowRef<RunView[]>([])
  /** Runs a crash, a closed window or an offline stop left open: offered for resuming. */
  const resumable = shallowRef<RunView[]>([])
  /** Runs another window of the app is sending right now. */
  const elsewhere = shallowRef<string[]>([])

  /** The last `refresh` begun: an earlier one that ends after it shows nothing of what it read. */
  let latest = 0

  /** Reads the pre-flight summaries (at the active profile's destination), the history and the open runs again. */
  async function refresh() {
    const call = ++latest
    const where = destination()
    const [skus, apps, recent, open] = await Promise.all([
      where === undefined ? undefined : syncRuns.preflight('skus', where),
      where === undefined ? undefined : syncRuns.preflight('apps', where),
      syncRuns.recent(),
      syncRuns.open(),
    ])
    if (call !== latest) return
    preflights.value = skus && apps ? { skus, apps } : {}
    const [views, openViews] = await Promise.all([
      Promise.all(recent.map(viewOf)),
      Promise.all(open.filter((run) => !isTaken(run.id) && !elsewhere.value.includes(run.id)).map(viewOf)),
    ])
    if (call !== latest) return
    history.value = views
    resumable.value = openViews
  }

  // The history's counts follow a live run, read again at most every two seconds.
  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  function refreshSoon() {
    if (refreshTimer) return
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined
      void refresh().catch(() => {})
    }, REFRESH_EVERY_MS)
  }

  /** A run this page takes up again leaves the list of runs to resume at once. */
  function taken(runId: string) {
    resumable.value = resumable.value.filter((view) => view.run.id !== runId)
  }

  return { preflights, history, resumable, elsewhere, refresh, refreshSoon, taken }
}
