import type { Pinia } from 'pinia'
import { messageOf } from '#shared/error-message.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { EXCHANGE_BATCH, type TeamArrivals } from '#shared/team/draft-exchange.ts'
import type { WorkspaceStatus } from '#shared/team/workspace-status.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { teamWorkspaceInMain } from '../adapters/team-workspace.ts'
import { db } from '../db/index.ts'
import {
  applyArrivals,
  exchangeState,
  EXCHANGED_KINDS,
  forWorkspace,
  recordShared,
  waitingShares,
} from '../db/team-exchange.ts'
import { TELL_DRAFTS_CHANGED } from './draft-lists.ts'
import { useSyncStore } from './sync.ts'
import { applyMappingArrivals, mappingsShared, shareAllMappings, waitingMappings } from './saved-mappings.ts'

/** How often the exchange asks main while a workspace is joined, and while none is. */
const JOINED_MS = 500
const NOT_JOINED_MS = 3_000
/**
 * While arrivals stream in (a new desk's first pull: thousands of drafts, a batch a turn), the
 * lists read their drafts again at most this often rather than after every batch.
 */
const STREAMING_TELL_MS = 2_000

/**
 * The drafts' exchange with the team workspace while the window is open (issue #41): while a
 * workspace is joined and replicating, the drafts edited here are shared, then what arrived in
 * the replica is applied (db/team-exchange.ts), and the lists read their drafts again when it
 * changed them. Main pushes nothing: the page asks, every half second while joined. A failure is
 * logged on the page and tried again at the next turn; nothing is lost, since what is waiting to
 * be shared and the sequence of arrivals are kept in the database. Returns the function that stops it.
 */
export function startTeamExchange(pinia: Pinia): () => void {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const exchange = exchangeTurns(pinia)
  const turn = async () => {
    let next = NOT_JOINED_MS
    try {
      next = await exchange()
    } catch (error) {
      console.warn(`The team workspace's exchange failed; it is tried again: ${messageOf(error)}`)
    }
    if (!stopped) timer = setTimeout(() => void turn(), next)
  }
  void turn()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

/** The next batch of arrivals, asked for before the last one is applied. */
interface Prefetch {
  since: string
  answer: Promise<TeamArrivals>
}

/**
 * The exchange's turns; each answers how long to wait before the next. While arrivals stream in
 * (a new desk's first pull), the next batch is asked of main while this one is written, so main's
 * reading and the answer's passage overlap the page's writing. It is used only when nothing was
 * shared since it was asked: a share moves the replica on, and the batch could hold a draft's
 * version from before it.
 */
export function exchangeTurns(pinia: Pinia): () => Promise<number> {
  const tell = listsTeller(pinia)
  let prefetch: Prefetch | undefined
  return async () => {
    const ahead = prefetch
    prefetch = undefined
    const status = await teamWorkspaceInMain.status()
    if (status.state !== 'joined' || status.replication.kind === 'failed') return NOT_JOINED_MS
    const shared = await shareWaiting(status, tell)
    const { since } = await exchangeState(db)
    const arrived =
      ahead && !shared && ahead.since === since
        ? await ahead.answer
        : await teamWorkspaceInMain.arrivals(since, EXCHANGE_BATCH)
    // A full batch: more is waiting, asked for now and the next turn comes at once.
    const more =
      arrived.arrivals.length + arrived.mappings.length + arrived.records.length + arrived.setAside.length >=
      EXCHANGE_BATCH
    if (more) prefetch = prefetched(arrived.last)
    // Before the drafts' transaction keeps the sequence: a crash between replays them, to the same end.
    applyMappingArrivals(arrived.mappings)
    const applied = await applyArrivals(db, arrived, systemClock.now())
    await tell(
      EXCHANGED_KINDS.filter((kind) => applied[kind] > 0),
      { streaming: more },
    )
    // Another desk's send records: the Sync page's counts and history, if it was opened, read again.
    if (arrived.records.length && pinia.state.value.sync) await useSyncStore(pinia).refresh()
    return more ? 0 : JOINED_MS
  }
}

/** Asks main for the arrivals after `since`; a failure is the turn's that awaits it, if any. */
function prefetched(since: string): Prefetch {
  const answer = teamWorkspaceInMain.arrivals(since, EXCHANGE_BATCH)
  answer.catch(() => undefined)
  return { since, answer }
}

/**
 * Shares what waits here: the column mappings saved (all of them, joined to another workspace),
 * then each kind's drafts edited. Answers whether anything was.
 */
async function shareWaiting(
  status: Extract<WorkspaceStatus, { state: 'joined' }>,
  tell: ListsTeller,
): Promise<boolean> {
  let shared = false
  if (await forWorkspace(db, status.url)) shareAllMappings()
  const mappings = waitingMappings(EXCHANGE_BATCH)
  if (mappings.length) {
    await teamWorkspaceInMain.shareMappings(mappings)
    mappingsShared(mappings)
    shared = true
  }
  for (const kind of EXCHANGED_KINDS) {
    const shares = await waitingShares(db, kind)
    if (shares.length === 0) continue
    const answers = await teamWorkspaceInMain.share(shares.map(({ updatedAt: _, ...share }) => share))
    await recordShared(db, kind, shares, answers, status.name)
    shared = true
    // An editor open on a draft just shared follows its new revision: its next edit is made on it.
    await tell([kind], { streaming: false })
  }
  return shared
}

/**
 * Tells the lists of `kinds` their drafts changed: at once, or while arrivals stream in
 * (`streaming`), with the kinds not told yet, once every STREAMING_TELL_MS.
 */
type ListsTeller = (kinds: readonly SyncKind[], options: { streaming: boolean }) => Promise<void>

function listsTeller(pinia: Pinia): ListsTeller {
  const untold = new Set<SyncKind>()
  let toldAt = -Infinity
  return async (kinds, { streaming }) => {
    for (const kind of kinds) untold.add(kind)
    const now = performance.now()
    if (untold.size === 0 || (streaming && now - toldAt < STREAMING_TELL_MS)) return
    toldAt = now
    for (const kind of [...untold]) {
      untold.delete(kind)
      await TELL_DRAFTS_CHANGED[kind](pinia)
    }
  }
}
