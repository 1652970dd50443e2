import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { draftKind } from '#shared/sync/kinds.ts'
import { noItems, type SyncKind } from '#shared/sync/ports.ts'
import type { RunCounts, RunStatus, RunSummary, SyncRun } from '#shared/sync/run.ts'
import { db, sendGates, skuDrafts, syncRuns, syncSelection } from '../db/index.ts'
import { countByReason, type DraftGate, type GateTarget, type HeldBack } from '../db/sku-send-gates.ts'
import { holdHeading, HOLD_REASONS, type Hold } from '#shared/sync/send-gates.ts'
import type { SyncItemRecord, SyncRequestRecord, SyncRunRecord } from '../db/sync-records.ts'
import type { RunAction } from '#shared/sync/ports.ts'
import {
  eligible,
  type Enqueued,
  type Preflight,
  type Resolution,
  type RunTarget,
  type UpdateGate,
  type UpdatePreview,
  type UpdatesPreflight,
} from '../db/sync-runs.ts'
import { appDrafts } from '../db/app-drafts.ts'
import type { AppDraftRecord } from '../db/records.ts'
import type { SentComparison } from '../db/sync-selection.ts'
import { assetFailuresIn, type AssetFailures } from '../db/asset-check-standing.ts'
import { createAppSyncRun } from '../adapters/sync-run.ts'
import { recoverInterruptedRuns, recoveredMessage } from './interrupted-sync.ts'
import { holdingRun } from '../adapters/run-lock.ts'
import { runTargetProblem } from '#shared/sync/run-target.ts'
import { needsNetwork, takesSamples } from '#shared/sync/destination.ts'
import { isOffline, watchNetwork } from '../adapters/network.ts'
import { counted, drafts } from '../words/counting.ts'
import type { ProfileView } from '#shared/profile.ts'
import type { DraftSync } from '#shared/sync/standing.ts'
import { useProfilesStore } from './profiles.ts'
import { useRunLog } from './run-log.ts'
import { useRunViews } from './run-views.ts'
import { useThroughput } from './throughput.ts'
import { messageOf } from '#shared/error-message.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/** The run this page is sending (or sent last), as the progress panel shows it. */
export interface LiveRun {
  run: SyncRunRecord
  status: RunStatus
  counts: RunCounts
  /** Paused by the page because the computer went offline; resumes when it is back. */
  offline: boolean
  /**
   * Whether its destination needs the network (`needsNetwork` in src/shared/sync/destination.ts):
   * only such a run is paused while the computer is offline; one on this computer goes on.
   */
  needsNetwork: boolean
  /** When sending (re)started, and how many items were done then: the throughput's base. */
  startedAt: number
  endedAt?: number
  /** Requests the engine may have in flight now (`limit`) and at most (`max`); absent until it says. */
  concurrency?: { limit: number; max: number }
}

/** A run's batches as its page lists them, a page of requests at a time. */
export interface RunBatches {
  /** Those still waiting for a person's decision. */
  undecided: SyncRequestRecord[]
  requests: SyncRequestRecord[]
  /** How many requests the run sent in all. */
  total: number
  /** For a run of apps: each listed request's item (one app), for its app id. */
  items?: Map<string, SyncItemRecord | undefined>
}

/**
 * The SKUs a run takes when not every ready draft: the list's selection or filter, or a promotion
 * (those synced on another destination and not sent to the active one).
 */
export interface SyncScope {
  ids: string[]
  /** What they are, after a count: "selected drafts", "drafts matching the filter". */
  description: string
  /** For a promotion: the destination they were synced on, and its name. */
  promotedFrom?: { destination: string; name: string }
}

/** Drafts synced on another destination and not sent to the active one: a promotion on offer. */
export interface Promotion {
  destination: string
  /** The profile that leads there. */
  name: string
  count: number
}

/**
 * Sync from the page: the pre-flight summary, the run being sent (the engine in `src/shared/sync`
 * over the Dexie outbox and the bridge), its log, the history, and the person's decisions about
 * batches whose outcome is not known. Kept in a store so a run goes on while the person looks at
 * other pages.
 */
export const useSyncStore = defineStore('sync', () => {
  const profiles = useProfilesStore()
  /** Per kind: whether a new run takes the drafts whose last sending failed too (the pre-flight's choice). */
  const includeFailed = ref<Record<SyncKind, boolean>>({ skus: false, apps: false })
  /** The run being queued, of which kind, and how far. */
  const preparing = shallowRef<{
    kind: SyncKind
    action: RunAction
    queued: number
    read: number
    total: number
  }>()
  const live = shallowRef<LiveRun>()
  /** Bumped when a request of the live run ended, so its batch list reads again. */
  const requestsRevision = ref(0)
  const error = ref('')
  const busy = ref(false)
  /** Whether the page says the computer is offline now. */
  const offline = ref(isOffline())
  /** Whether the active profile's destination needs the network: offline, nothing reaches it. */
  const targetNeedsNetwork = computed(() => !!profiles.active && needsNetwork(profiles.active))
  const cancelRequested = ref(false)
  let engine: SyncRun | undefined
  /** The run `engine` sends, and a promise that resolves once that engine is gone and its end recorded. */
  let engineOf: { runId: string; gone: Promise<void> } | undefined
  /** The run `start` is preparing: stored from its first chunk on, but not one to resume. */
  let preparingRun: string | undefined
  const { log, addLog } = useRunLog()
  const throughput = useThroughput(() => {
    const current = live.value
    if (!current || current.status.state !== 'running') return undefined
    return current.counts.queued + current.counts.sending
  })
  const { rate, secondsLeft } = throughput
  const {
    preflights,
    history,
    resumable,
    elsewhere,
    refresh: refreshRuns,
    refreshSoon,
    ...runViews
  } = useRunViews(
    (runId) => runId === preparingRun || (!!engine && live.value?.run.id === runId),
    () => profiles.active?.destination,
  )
  /**
   * Batches whose decision the person confirmed, from that moment on: they leave the batches
   * waiting at once (and a second press does nothing) while the decision is recorded.
   */
  const deciding = shallowRef<ReadonlySet<string>>(new Set())
  /** The SKUs a new run takes when not all: see `SyncScope`. */
  const scope = shallowRef<SyncScope>()
  /** The pre-flight of exactly the scope's drafts. */
  const scopePreflight = shallowRef<Preflight>()
  /** The SKUs the gates before sending hold back from a new run (of the scope, when one is chosen). */
  const heldBack = shallowRef<HeldBack>()
  /** How many are held back for each reason that holds any, in the gates' order. */
  const heldReasons = computed(() => {
    const counts = heldBack.value ? countByReason(heldBack.value) : undefined
    return HOLD_REASONS.flatMap((reason) => (counts?.[reason] ? [{ reason, n: counts[reason] }] : []))
  })
  /** The SKUs a new run would send whose last asset check found errors: a warning, not a gate. */
  const assetFailures = shallowRef<AssetFailures>()
  /** For a promotion: which drafts changed since they were sent to the source destination. */
  const comparison = shallowRef<SentComparison>()
  /** Per other destination, the SKUs synced there and not sent to the active one. */
  const promotions = shallowRef<Promotion[]>([])
  /**
   * Of the SKUs a run of every ready draft would send, how many the promotions on offer hold
   * (tested on another destination first); the rest were never tested there.
   */
  const promotedReady = ref(0)
  /**
   * The updates on offer at the active destination: SKUs created there and changed since, by what
   * can be done with them (of the scope's drafts, when one is chosen).
   */
  const updates = shallowRef<UpdatesPreflight>()
  /** The first updates "Update" would send, each with what it changes, for the pre-flight. */
  const updatePreviews = shallowRef<UpdatePreview[]>([])
  /** SKUs an update found no longer on the platform at the active destination (the first few). */
  const gone = shallowRef<GoneSku[]>([])

  /** Reads the pre-flights, the promotions on offer, the history and the open runs again. */
  async function refresh() {
    await refreshRuns()
    const active = profiles.active
    const chosen = scope.value
    scopePreflight.value =
      active && chosen ? await syncSelection.preflightOf('skus', active.destination, chosen.ids) : undefined
    heldBack.value = active ? await readHeldBack(active, chosen?.ids) : undefined
    assetFailures.value =
      active && heldBack.value
        ? await assetFailuresIn(db, {
            destination: active.destination,
            includeFailed: includeFailed.value.skus,
            scope: chosen && new Set(chosen.ids),
            heldBack: new Set(heldBack.value.holds.keys()),
          })
        : undefined
    const offered = active ? await promotionsTo(active) : []
    promotions.value = offered.map(({ destination, name, count }) => ({ destination, name, count }))
    promotedReady.value =
      active && !chosen && offered.length
        ? await readyOf(active, [...new Set(offered.flatMap((promotion) => promotion.ids))])
        : 0
    await refreshUpdates(active, chosen?.ids)
  }

  /** Reads the updates on offer at `active`'s destination, their previews and the SKUs found gone. */
  async function refreshUpdates(active: ProfileView | undefined, ids: readonly string[] | undefined) {
    if (!active) {
      updates.value = undefined
      updatePreviews.value = []
      gone.value = []
      return
    }
    const gate = updateGate(active)
    const found = await syncRuns.updatesPreflight(active.destination, gate, ids)
    updates.value = found
    updatePreviews.value = found.ready
      ? await syncRuns.updatePreviews(active.destination, gate, UPDATE_PREVIEWS, ids)
      : []
    gone.value = found.gone ? await goneSkus(active.destination) : []
  }

  /** The SKUs found gone at `destination`, the first `GONE_SHOWN`, with their names. */
  async function goneSkus(destination: string): Promise<GoneSku[]> {
    const ids = (await syncRuns.goneAt(destination)).slice(0, GONE_SHOWN)
    const records = await Promise.all(ids.map((id) => skuDrafts.get(id)))
    return records.flatMap((record) =>
      record
        ? [
            {
              id: record.id,
              label: draftKind('skus').label(record.payload, record.id),
              message: record.sync[destination]?.update?.message,
            },
          ]
        : [],
    )
  }

  /** The SKUs a run of `ids` (or of every ready draft) to `profile` would hold back, and why. */
  function readHeldBack(profile: ProfileView, ids: readonly string[] | undefined): Promise<HeldBack> {
    return sendGates.heldBack(gateTarget(profile), {
      scope: ids && new Set(ids),
      includeFailed: includeFailed.value.skus,
    })
  }

  /**
   * Whether a run of every ready SKU draft to the active profile would send this one, and if the
   * gates would hold it back, why, naming the drafts that share its barcode or already have it
   * there: what the Sync page counts, asked for one draft (its editor).
   */
  async function draftGate(draftId: string): Promise<DraftGate | undefined> {
    if (!profiles.active) await profiles.load()
    const active = profiles.active
    return active && sendGates.draftGate(gateTarget(active), draftId)
  }

  /**
   * Every SKU draft a run of every ready draft to the active profile would hold back, by id, with
   * its reason: for a list that marks them (one read for the whole list, from the indexes).
   */
  async function sendHolds(): Promise<ReadonlyMap<string, Hold>> {
    if (!profiles.active) await profiles.load()
    const active = profiles.active
    return active ? (await sendGates.heldBack(gateTarget(active))).holds : new Map()
  }
  // Sending the failed SKUs too puts them before the gates as well.
  watch(
    () => includeFailed.value.skus,
    () => void refresh().catch((failure) => (error.value = messageOf(failure))),
  )

  /** Each other destination a profile leads to, with the SKUs synced there and not sent to `active`'s. */
  async function promotionsTo(active: ProfileView): Promise<Array<Promotion & { ids: string[] }>> {
    const others = profiles.places.filter((place) => place.destination !== active.destination)
    const found = await Promise.all(
      others.map(async ({ destination, name }) => {
        const ids = await syncSelection.promotable('skus', destination, active.destination)
        return { destination, name, count: ids.length, ids }
      }),
    )
    return found.filter((promotion) => promotion.count > 0)
  }

  /**
   * How many of `ids` a run of every ready draft to `active` would send: ready there and not held
   * back by the gates (`heldBack` holds every ready draft's holds when no scope is chosen).
   */
  async function readyOf(active: ProfileView, ids: string[]): Promise<number> {
    const { ready } = await syncSelection.preflightOf('skus', active.destination, ids)
    const holds = heldBack.value?.holds
    return ready - (holds ? ids.filter((id) => holds.has(id)).length : 0)
  }

  /** Makes the next SKU run take exactly these drafts (those of them ready), and reads their pre-flight. */
  async function choose(next: SyncScope) {
    scope.value = next
    comparison.value = undefined
    await refresh()
  }

  /** Chooses a promotion: the SKUs synced on `from`, with how they changed since they were sent there. */
  async function choosePromotion(from: Promotion) {
    const active = profiles.active
    if (!active) return
    const ids = await syncSelection.promotable('skus', from.destination, active.destination)
    await choose({
      ids,
      description: `synced on ${from.name}`,
      promotedFrom: { destination: from.destination, name: from.name },
    })
    comparison.value = await syncSelection.compareWithSent('skus', from.destination, ids)
  }

  /** Back to every ready draft. */
  async function clearScope() {
    forgetScope()
    await refresh()
  }

  /**
   * Leaving the Sync page ends a chosen scope: it was chosen for that visit ("Sync…" in the list
   * chooses it and opens the page), and the next visit, from the navigation, starts from every
   * ready draft. Read again when the page opens.
   */
  function forgetScope() {
    scope.value = undefined
    scopePreflight.value = undefined
    comparison.value = undefined
  }

  const sending = computed(() => live.value !== undefined && live.value.endedAt === undefined)
  const target = computed(() => profiles.active)
  /** The pre-flight a new run of the kind follows: of the scope's drafts when one is chosen. */
  function preflightOf(kind: SyncKind): Preflight | undefined {
    const definition = draftKind(kind)
    const summary = definition.scoped && scope.value ? scopePreflight.value : preflights.value[kind]
    const held = definition.gated ? heldBack.value : undefined
    // What the gates hold back is not ready: "Ready to send" is what a run sends.
    return summary && held ? { ...summary, ready: summary.ready - (held.holds.size - held.failed) } : summary
  }

  /** What a new run of the kind would send: the ready drafts, and the failed ones when chosen. */
  function toSend(kind: SyncKind): number {
    const summary = preflightOf(kind)
    if (!summary) return 0
    const failedHeld = draftKind(kind).gated ? (heldBack.value?.failed ?? 0) : 0
    return summary.ready + (includeFailed.value[kind] ? summary.failed - failedHeld : 0)
  }

  /**
   * The app drafts a new run of apps would create on the active profile, as it would take them
   * (latest edit first): what the Sync page shows and asks about before "Create N apps on …".
   * App drafts are few, so they are all read.
   */
  async function appsToCreate(): Promise<AppDraftRecord[]> {
    const profile = target.value
    if (!profile) return []
    const all = await appDrafts.all()
    return all.filter((draft) => eligible(draft, profile.destination, includeFailed.value.apps))
  }

  function patch(change: Partial<LiveRun>) {
    if (live.value) live.value = { ...live.value, ...change }
  }

  /** On the page's start: see `recoverInterruptedRuns` (the app's start has usually done it already). */
  async function recover() {
    const { recovered, busyElsewhere } = await recoverInterruptedRuns(
      db,
      syncRuns,
      (runId) => !!engine && live.value?.run.id === runId,
    )
    if (recovered > 0) addLog(recoveredMessage(drafts(recovered)))
    elsewhere.value = busyElsewhere
  }

  async function init() {
    error.value = ''
    try {
      await profiles.load()
      if (!engine) await recover()
      await refresh()
    } catch (failure) {
      error.value = messageOf(failure)
    }
  }

  /**
   * Queues the eligible drafts of a kind for the active profile (of `ids` those that are eligible:
   * the app editor's "Create on …" gives one, a chosen scope gives its SKUs; the failed ones too
   * when the pre-flight chose so) and sends them. Resolves once the run is queued, with its id
   * (undefined when nothing was queued or it could not start); the run then goes on in the
   * background like any run, and `live` follows it.
   */
  function start(
    kind: SyncKind,
    { ids }: { ids?: readonly string[] | undefined } = {},
  ): Promise<string | undefined> {
    const definition = draftKind(kind)
    const chosen = definition.scoped && !ids ? scope.value : undefined
    const wanted = chosen ? chosen.ids : ids
    return prepareAndLaunch(kind, 'create', {
      async queue(profile, id, onProgress) {
        // The gates are read again as the run starts: what was edited since the page looked counts.
        const held = definition.gated ? await readHeldBack(profile, wanted) : undefined
        if (held?.holds.size)
          addLog(`${logCount(kind, held.holds.size)} held back: ${heldBackWords(held, profile.name)}.`)
        return syncRuns.enqueue(kind, {
          target: runTarget(profile),
          id,
          ids: wanted,
          includeFailed: includeFailed.value[kind],
          heldBack: held && new Set(held.holds.keys()),
          onProgress,
        })
      },
      nothing: () => `Nothing to ${definition.verb}: no ${definition.draftNoun} is ready.`,
      queued: (n, profile) => `${logCount(kind, n)} ${definition.queuedOn} ${profile.name}.`,
      onQueued() {
        // The scope is spent: the next run starts from every ready draft again.
        if (chosen && scope.value === chosen) {
          scope.value = undefined
          comparison.value = undefined
        }
      },
    })
  }

  /**
   * Queues an update of every SKU created at the active profile's destination and changed since,
   * with a platform id there and passing the gates (of the scope's drafts, when one is chosen), and
   * sends them, one SKU a request, each with only the fields that changed. Resolves as `start`.
   */
  function startUpdates(): Promise<string | undefined> {
    const noun = draftKind('skus').noun
    return prepareAndLaunch('skus', 'update', {
      queue: (profile, id, onProgress) =>
        syncRuns.enqueueUpdates({
          target: runTarget(profile),
          gate: updateGate(profile),
          id,
          ids: scope.value?.ids,
          onProgress,
        }),
      nothing: (profile) => `Nothing to update on ${profile.name}: no SKU created there has changed since.`,
      queued: (n, profile) => `${counted(n, noun)} queued to be updated on ${profile.name}.`,
    })
  }

  /**
   * What `start` and `startUpdates` share: a run prepared a chunk at a time with its progress shown
   * (`queue` stores it under the id it is given), then sent in the background; no run is stored
   * when nothing is due, so a click with nothing ready leaves no history.
   */
  async function prepareAndLaunch(
    kind: SyncKind,
    action: RunAction,
    steps: {
      queue(
        profile: ProfileView,
        id: string,
        onProgress: (queued: number, read: number, total: number) => void,
      ): Promise<Enqueued>
      nothing(profile: ProfileView): string
      queued(n: number, profile: ProfileView): string
      onQueued?(): void
    },
  ): Promise<string | undefined> {
    const profile = target.value
    if (!profile || busy.value || sending.value || engine) return undefined
    error.value = ''
    busy.value = true
    const id = crypto.randomUUID()
    preparingRun = id
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
      preparingRun = undefined
      void launch(run)
      return run.id
    } catch (failure) {
      error.value = messageOf(failure)
      return undefined
    } finally {
      preparingRun = undefined
      preparing.value = undefined
      busy.value = false
    }
  }

  /**
   * A SKU an update found gone from the active destination: forgotten there (as never created, so
   * offered for creation again); with `createAgain`, chosen as the next run's scope too, so the
   * Sync page offers to create exactly it. False when no update found it gone there (any more).
   */
  async function forgetCreated(draftId: string, { createAgain = false } = {}): Promise<boolean> {
    await profiles.load()
    const active = profiles.active
    if (!active) return false
    const record = await skuDrafts.get(draftId)
    const forgotten = await syncRuns.forgetCreated(draftId, active.destination)
    if (!forgotten) {
      await refresh()
      return false
    }
    const label = record ? draftKind('skus').label(record.payload, record.id) : draftId
    addLog(`${label}: forgotten as created on ${active.name}; it is offered for creation there again.`)
    if (createAgain) await choose({ ids: [draftId], description: 'to create again' })
    else await refresh()
    return true
  }

  /**
   * Sends a run's queued items with the engine until it ends; the run keeps its own profile, and
   * sends only while that profile still points where the run was started for (a profile edited
   * to another address, or removed, keeps the run open and unsent: the person cancels it).
   */
  async function launch(run: SyncRunRecord) {
    if (engine) return
    // Until its profile is read, a run is taken to need the network.
    let networked = true
    // Claimed before the first await, so a second launch (a double click) finds it taken.
    const current = createAppSyncRun(
      run,
      {
        onStatus: (status) => {
          patch({ status })
          if (status.state === 'paused') {
            void syncRuns.setState(run.id, 'open', { lastPause: status.reason, lastMessage: status.message })
          }
        },
        onProgress: (next) => {
          patch({ counts: next })
          throughput.sample(next)
        },
        onRequest: () => {
          requestsRevision.value++
          refreshSoon()
        },
        onLog: (line, at) => addLog(line, at),
        onConcurrency: (limit, max) => patch({ concurrency: { limit, max } }),
      },
      { needsNetwork: () => networked },
    )
    engine = current
    let gone!: () => void
    engineOf = { runId: run.id, gone: new Promise<void>((done) => (gone = done)) }
    let started = false
    try {
      await profiles.load()
      const problem = runTargetProblem(run, profiles.profiles)
      if (problem) {
        error.value = problem
        addLog(problem)
        return
      }
      // The run's profile leads where the run was started for (checked just above).
      networked = profiles.profiles.some((profile) => profile.id === run.profileId && needsNetwork(profile))
      const counts = await syncRuns.counts(run.id)
      live.value = {
        run,
        status: { state: 'running' },
        counts: { ...noItems(), ...counts },
        offline: false,
        needsNetwork: networked,
        startedAt: systemClock.now(),
      }
      started = true
      throughput.restart()
      cancelRequested.value = false
      throughput.sample(live.value.counts)
      runViews.taken(run.id)
      void refresh().catch(() => {})
      if (isOffline()) goneOffline()
      const summary = await holdingRun(run.id, () => current.start())
      await settle(run, summary)
    } catch (failure) {
      error.value = messageOf(failure)
    } finally {
      engine = undefined
      engineOf = undefined
      gone()
      if (started) {
        // The pre-flight shows again once the run has ended: read first, so it never counts the
        // run's drafts as still in it (what was read as the run started).
        await refreshRuns().catch(() => {})
        patch({ endedAt: systemClock.now(), offline: false })
      }
      await refresh().catch((failure) => (error.value = messageOf(failure)))
    }
  }

  /**
   * Records how the run ended; a cancelled run's queued drafts go back to draft. A run is recorded
   * finished only when the store says nothing of it is queued or sending: otherwise it stays open,
   * to be resumed.
   */
  async function settle(run: SyncRunRecord, summary: RunSummary) {
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

  function goneOffline() {
    offline.value = true
    // A run to a destination on this computer (the Sandbox, a loopback address) goes on.
    if (!engine || !live.value?.needsNetwork || engine.status.state !== 'running') return
    engine.pause()
    patch({ offline: true })
    addLog('This computer is offline: sending paused. It goes on by itself when the connection is back.')
  }

  function backOnline() {
    offline.value = false
    if (!engine || !live.value?.offline) return
    patch({ offline: false })
    // Only the page's own offline pause is lifted: one the run took meanwhile (a failing service, a
    // refused token) waits for the person.
    const status = engine.status
    if (status.state !== 'paused' || status.reason !== 'requested') return
    addLog('Back online: sending again.')
    throughput.restart()
    engine.resume()
  }

  watchNetwork({ offline: goneOffline, online: backOnline })

  function pause() {
    engine?.pause()
  }

  function resume() {
    if (!engine) return
    patch({ offline: false })
    throughput.restart()
    engine.resume()
  }

  function cancel() {
    if (!engine) return
    cancelRequested.value = true
    engine.cancel()
  }

  /** Ends an open run without sending more: its queued drafts go back to draft. */
  async function discardRun(runId: string) {
    if (engine || busy.value || runId === preparingRun) return
    const run = await syncRuns.get(runId)
    const returned = await syncRuns.releaseQueued(runId)
    addLog(`Run cancelled: ${run ? notSentLine(run, returned) : `${logCount('skus', returned)} not sent.`}`)
    await refresh()
  }

  /** Sends an open run again (one a crash, a closed window or an offline stop left). */
  async function resumeRun(runId: string) {
    if (engine || busy.value || runId === preparingRun) return
    const run = await syncRuns.get(runId)
    if (!run) return
    addLog(`Resuming the run of ${new Date(run.createdAt).toLocaleString()} to ${run.profileName}.`)
    await launch(run)
  }

  /**
   * The person's decision about a batch that may have been processed. While its run is being sent
   * or is paused, the decision goes through the run's engine (`SyncRun.decide`), which counts it
   * and sends what is queued again when it sends at all: a paused run stays paused until the
   * person resumes it. A run nobody is sending is resumed when a batch of it is sent again.
   */
  async function resolve(requestId: string, choice: Resolution, runId: string, kind: SyncKind = 'skus') {
    // One decision a batch: a second press while the first is recorded does nothing.
    if (deciding.value.has(requestId)) return
    error.value = ''
    const apply = () => syncRuns.resolve(requestId, choice)
    // Its card leaves the batches waiting at once, not when the list is next read.
    deciding.value = new Set([...deciding.value, requestId])
    let decided = false
    try {
      for (;;) {
        const current = engine
        const running = engineOf
        if (current && running?.runId !== runId) {
          // One engine at a time: a batch queued again in another run could not go out now.
          error.value = 'Another run is being sent: decide about this batch once it has ended.'
          return
        }
        const outcome = current ? await current.decide(apply) : await apply()
        if (!outcome) {
          // The run ended meanwhile, the decision unapplied: once its end is recorded, it is
          // decided as for any run nobody is sending.
          await running?.gone
          continue
        }
        decided = true
        const changed = outcome.moved.length
        const sending = current && {
          status: current.status,
          offline: live.value?.offline === true,
          cancelling: cancelRequested.value,
        }
        // Nothing moved (decided already, elsewhere or by a list): no line says "0 drafts".
        if (changed > 0) addLog(decisionLine(kind, choice, changed, sending))
        requestsRevision.value++
        // The run goes on in the background; the page follows it through the store.
        if (!current && choice === 'resend' && changed > 0) void resumeRun(runId)
        else await refresh()
        return
      }
    } catch (failure) {
      error.value = messageOf(failure)
    } finally {
      // Not decided after all: its card comes back, to be decided again.
      if (!decided) deciding.value = new Set([...deciding.value].filter((id) => id !== requestId))
    }
  }

  /**
   * A run's undecided batches and its first `shown` requests; for a kind that keeps the service's
   * answer (apps) and for an update run (one SKU a request, the body its item's `update`), with each
   * request's item.
   */
  async function batchesOf(
    runId: string,
    kind: SyncKind,
    shown: number,
    action: RunAction = 'create',
  ): Promise<RunBatches> {
    const [waiting, requests, total] = await Promise.all([
      syncRuns.undecided(runId),
      syncRuns.requests(runId, 0, shown),
      syncRuns.requestCount(runId),
    ])
    const undecided = waiting.filter((request) => !request.resolution && !deciding.value.has(request.id))
    // A kind that keeps the service's answer shows each request's created id, and an update run
    // each request's body: read their items.
    if (!draftKind(kind).keepsAnswer && action !== 'update') return { undecided, requests, total }
    const found = await Promise.all(requests.map((request) => syncRuns.itemsOf(request)))
    return {
      undecided,
      requests,
      total,
      items: new Map(requests.map((request, i) => [request.id, found[i]![0]])),
    }
  }

  /**
   * The run item whose kept payload is what stands at `destination` now (the creation's, or the
   * latest update applied there), and what came of it: what the editor compares the draft with.
   */
  function sentTo(draft: { sync: DraftSync }, destination: string): Promise<SyncItemRecord | undefined> {
    return syncSelection.itemAt(draft, destination)
  }

  /** Every run that held a draft, to any destination, latest first: its history. */
  function historyOf(draftId: string) {
    return syncRuns.history(draftId)
  }

  /**
   * Offers a draft the active profile's destination refused there again, from its editor; false
   * when it was not refused there.
   */
  async function returnToEditing(draftId: string, kind: SyncKind = 'skus'): Promise<boolean> {
    await profiles.load()
    const destination = profiles.active?.destination
    return destination !== undefined && syncRuns.returnToEditing(draftId, kind, destination)
  }

  async function returnRejected(runId: string) {
    const run = await syncRuns.get(runId)
    const returned = await syncRuns.returnRejected(runId)
    addLog(
      `${logCount(run?.kind ?? 'skus', returned)} refused by the service went back to draft: fix them, then sync again.`,
    )
    await refresh()
  }

  return {
    preflights,
    includeFailed,
    preparing,
    live,
    log,
    history,
    resumable,
    elsewhere,
    requestsRevision,
    error,
    busy,
    offline,
    sending,
    target,
    targetNeedsNetwork,
    toSend,
    appsToCreate,
    rate,
    secondsLeft,
    init,
    refresh,
    start,
    startUpdates,
    forgetCreated,
    updates,
    updatePreviews,
    gone,
    pause,
    resume,
    cancel,
    cancelRequested,
    discardRun,
    resumeRun,
    resolve,
    deciding,
    draftGate,
    sendHolds,
    returnRejected,
    returnToEditing,
    sentTo,
    historyOf,
    batchesOf,
    scope,
    scopePreflight,
    heldBack,
    heldReasons,
    assetFailures,
    comparison,
    promotions,
    promotedReady,
    preflightOf,
    choose,
    choosePromotion,
    clearScope,
    forgetScope,
  }
})

/** Drafts counted for the log in the app's words: "3 drafts" for SKUs (as the SKU list says), "2 apps". */
function logCount(kind: SyncKind, n: number): string {
  return counted(n, draftKind(kind).listNoun)
}

/**
 * The log's line for a decision. `sending` is how the engine stood when the run was being sent:
 * it says when a batch queued again goes out (a cancelled or stopped run releases what it had
 * queued back to draft).
 */
function decisionLine(
  kind: SyncKind,
  choice: Resolution,
  changed: number,
  sending?: { status: RunStatus; offline: boolean; cancelling: boolean },
): string {
  const what = logCount(kind, changed)
  if (choice === 'created') return `${what} marked as created.`
  if (!sending) return `${what} queued to be sent again.`
  const { status, offline, cancelling } = sending
  if (cancelling || status.state === 'finished' || status.state === 'stopped')
    return `${what} queued to be sent again, but the run is ending: they go back to draft.`
  if (status.state === 'running') return `${what} queued to be sent again with the rest of the run.`
  if (offline || status.reason === 'offline')
    return `${what} queued to be sent again: the run is paused and sends them when the connection is back.`
  return `${what} queued to be sent again: the run stays paused and sends them when you press Resume.`
}

/** The reasons SKUs are held back, counted: "2 empty (nothing filled in), 1 without a product name or barcode". */
function heldBackWords(held: HeldBack, place: string): string {
  const counts = countByReason(held)
  return HOLD_REASONS.filter((reason) => counts[reason] > 0)
    .map((reason) => `${counts[reason]} ${holdHeading(reason, place)}`)
    .join(', ')
}

/** How many updates the pre-flight shows with their changes, and how many SKUs found gone it names. */
const UPDATE_PREVIEWS = 50
const GONE_SHOWN = 20

/** A SKU an update found no longer on the platform, as the Sync page names it. */
export interface GoneSku {
  id: string
  label: string
  /** Why: the outcome's words, with what the service said. */
  message: string | undefined
}

/**
 * The log's line for the queued items a run that ended did not send: a creation's go back to
 * draft; an update's drafts were never anything but created and changed, and are offered again.
 */
function notSentLine(run: SyncRunRecord, n: number): string {
  return run.action === 'update'
    ? `${counted(n, draftKind(run.kind).noun)} not updated: still changed, Update offers ${n === 1 ? 'it' : 'them'} again.`
    : `${logCount(run.kind, n)} not sent went back to draft.`
}

/** The gates an update passes: what the profile requires, named by the profile. */
function updateGate(profile: ProfileView): UpdateGate {
  return {
    required: profile.requiredFields,
    requiredBy: profile.name,
    holdBadCheckDigits: profile.holdBadCheckDigits,
    takesSamples: takesSamples(profile.destination),
  }
}

/** Where the gates judge a send to, and what its profile requires. */
function gateTarget(profile: ProfileView): GateTarget {
  return {
    destination: profile.destination,
    required: profile.requiredFields,
    holdBadCheckDigits: profile.holdBadCheckDigits,
    place: profile.name,
  }
}

/** Where a new run sends, as the profile says when it starts. */
function runTarget(profile: ProfileView): RunTarget {
  return {
    id: profile.id,
    name: profile.name,
    url: profile.url,
    destination: profile.destination,
    batchSize: profile.batchSize,
    concurrency: profile.concurrency,
  }
}
