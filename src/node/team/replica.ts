import { randomBytes } from 'node:crypto'
import leveldown from 'leveldown'
import httpAdapter from 'pouchdb-adapter-http'
import LevelPouch from 'pouchdb-adapter-leveldb-core'
import PouchDB, {
  type Database,
  type Document,
  type ErrorAnswer,
  type Fetch,
  type Response,
  type StoredDocument as PouchStored,
} from 'pouchdb-core'
import { fetch as pouchFetch } from 'pouchdb-fetch'
import replication from 'pouchdb-replication'

/**
 * The desk's replica of a team workspace (issue #41): a PouchDB database in LevelDB under the
 * app's data folder, replicated with the workspace's CouchDB database by PouchDB's implementation
 * of CouchDB's replication protocol (checkpoints in `_local` documents on both sides, so a
 * replication stopped by a crash or by going offline resumes where it was). Runs in main, which
 * holds the workspace's credentials; the page never sees them, nor the replica: it is fed the
 * replica's changes (checked first, arriving-documents.ts) and sends its edits back here.
 *
 * Documents keep CouchDB's revisions: an edit is written with the revision it was based on, so two
 * desks that edit the same draft while apart make a conflict that both desks see, with every
 * version kept, until someone keeps one (`resolve`).
 */

// The LevelDOWN adapter given leveldown 6 (its prebuilt N-API files, unpacked from the asar like
// the keyring's): the `pouchdb` bundle's own `level` would bring a leveldown 5 whose macOS build is
// Intel only (docs/dependencies.md).
function LevelDeskPouch(this: unknown, options: Record<string, unknown>, callback: (error?: Error) => void) {
  LevelPouch.call(this, { ...options, db: leveldown }, callback)
}
LevelDeskPouch.valid = () => true
LevelDeskPouch.use_prefix = false

const DeskPouch = PouchDB.plugin((pouch) => pouch.adapter('leveldb', LevelDeskPouch, true)).plugin(
  httpAdapter,
)
// A plugin extends pouchdb-core's one class for the whole process, and replication's cannot be
// added twice (a test server in the same process may have added it).
if (!('replicate' in PouchDB)) PouchDB.plugin(replication)

/** Where a workspace is and who this desk is there. */
export interface Workspace {
  /** The database's address: https, or http on loopback (checked where it is entered). */
  url: string
  username: string
  password: string
}

/** What live replication is doing, as the page shows it. */
export type ReplicationState =
  | { kind: 'sending' }
  /** Up to date, or waiting to retry (offline, the server down): `error` says why if it failed. */
  | { kind: 'idle'; error?: string }
  /** The server refused who the desk is (a wrong name or password, not a member): stopped. */
  | { kind: 'unauthorized'; error: string }
  /** The server refused a document (its `validate_doc_update`, or this user may not write). */
  | { kind: 'refused'; id: string; reason: string }
  | { kind: 'stopped' }

/** A document as the replica holds it: its id, its winning revision and its fields. */
export type StoredDocument = PouchStored

/** One document in the replica's local changes: its winning version and its other leaves. */
export interface Change {
  seq: string
  id: string
  /** The winning version (CouchDB's deterministic choice, the same on every desk). */
  doc: StoredDocument
  /** The revisions of the versions in conflict with it: empty when there is none. */
  conflicts: string[]
}

export type WriteResult = { ok: true; rev: string } | { ok: false; reason: 'stale' }

export interface TeamReplica {
  /** Starts live replication both ways; `onState` hears what it is doing. Resolves when stopped. */
  replicate(workspace: Workspace, onState: (state: ReplicationState) => void): { stop(): Promise<void> }
  /** Local changes after `since` (an opaque sequence, '0' for all), at most `limit`. */
  changes(since: string, limit: number): Promise<{ changes: Change[]; last: string }>
  /** Writes a document on the revision it was based on (`_rev`; none for a new one). */
  write(doc: Document): Promise<WriteResult>
  /**
   * Writes a document as the next version of `base` (none: a first version) even when the replica
   * holds a later one: the two become versions in conflict, as two desks' edits of one version do
   * when they replicate. What a desk edited is never dropped for having been based on an old one.
   */
  writeBeside(doc: Document, base: string | undefined): Promise<string>
  /** Every version of a document: the winner first, then those in conflict with it. */
  versions(id: string): Promise<StoredDocument[]>
  /** The winning versions of the documents `ids` the replica holds (those it has not are left out). */
  winners(ids: readonly string[]): Promise<StoredDocument[]>
  /** The winning revision of a document; none when the replica has none (or it was removed). */
  latest(id: string): Promise<string | undefined>
  /**
   * Settles a conflict: writes `kept` (a version's fields, or a merge) on the winner's revision
   * and removes the other leaves, in one request, so every desk sees one version again.
   */
  resolve(id: string, kept: Record<string, unknown>): Promise<WriteResult>
  close(): Promise<void>
}

export function openReplica(dir: string): TeamReplica {
  const local = new DeskPouch(dir, { adapter: 'leveldb' })
  const sessions = new Set<{ stop(): Promise<void> }>()

  return {
    replicate(workspace, onState) {
      const sync = replicateLive(local, workspace, onState)
      sessions.add(sync)
      return {
        async stop() {
          await sync.stop()
          sessions.delete(sync)
        },
      }
    },

    async changes(since, limit) {
      const answer = await local.changes({
        // The replica's sequences are integers; the LevelDB adapter compares `since` with `===`, so
        // a sequence given as text would hand back the change it names with every batch.
        since: sequenceNumber(since),
        limit,
        include_docs: true,
        conflicts: true,
        style: 'all_docs',
      })
      return {
        changes: answer.results
          .filter((result) => result.doc)
          .map((result) => {
            const { _conflicts, ...doc } = result.doc!
            return { seq: String(result.seq), id: result.id, doc, conflicts: _conflicts ?? [] }
          }),
        last: String(answer.last_seq),
      }
    },

    async write(doc) {
      try {
        const { rev } = await local.put(doc)
        return { ok: true, rev }
      } catch (error) {
        if (isConflict(error)) return { ok: false, reason: 'stale' }
        throw error
      }
    },

    async writeBeside(doc, base) {
      const [generation, hash] = base ? base.split('-') : ['0', undefined]
      const start = Number(generation) + 1
      const id = randomBytes(16).toString('hex')
      const { _rev: _, ...fields } = doc
      await local.bulkDocs(
        [{ ...fields, _rev: `${start}-${id}`, _revisions: { start, ids: hash ? [id, hash] : [id] } }],
        { new_edits: false },
      )
      return `${start}-${id}`
    },

    async versions(id) {
      const winner = await local.get(id, { conflicts: true })
      const { _conflicts, ...won } = winner
      const others = await Promise.all((_conflicts ?? []).map((rev) => local.get(id, { rev })))
      return [won, ...others]
    },

    latest: (id) => winningRevision(local, id),
    winners: (ids) => winnersOf(local, ids),

    async resolve(id, kept) {
      const [winner, ...others] = await this.versions(id)
      if (!winner) return { ok: false, reason: 'stale' }
      const answers = await local.bulkDocs([
        { ...kept, _id: id, _rev: winner._rev },
        ...others.map((other) => ({ _id: id, _rev: other._rev, _deleted: true })),
      ])
      const first = answers[0]
      if (!first || 'error' in first) return { ok: false, reason: 'stale' }
      return { ok: true, rev: (first as Response).rev }
    },

    async close() {
      await Promise.all([...sessions].map((sync) => sync.stop()))
      sessions.clear()
      await local.close()
    },
  }
}

/**
 * Live replication both ways between the replica and the workspace, retried while it fails (the
 * network, the server), stopped for good when the server refuses who the desk is (401, 403): a
 * password that was wrong stays wrong, and retrying it would only fill the server's log.
 */
function replicateLive(
  local: Database,
  workspace: Workspace,
  onState: (state: ReplicationState) => void,
): { stop(): Promise<void> } {
  const requests = untilStopped()
  const remote = new DeskPouch(workspace.url, {
    adapter: 'http',
    auth: { username: workspace.username, password: workspace.password },
    skip_setup: true,
    fetch: requests.fetch,
  })
  readsInfoWithoutFailing(remote)
  const sync = local.sync(remote, {
    live: true,
    retry: true,
    batch_size: 500,
    back_off_function: retryDelay,
  })
  // PouchDB announces no end for a replication cancelled while it waits to retry: it has ended.
  let waitingToRetry = false
  let stopped: Promise<void> | undefined
  const ended = new Promise<void>((resolve) => sync.on('complete', () => resolve()))
  const stop = () =>
    (stopped ??= (async () => {
      sync.cancel()
      if (!waitingToRetry) await ended
      // Ended: a request still in flight (cancelling does not cancel them) answers no one now.
      requests.stop()
      await remote.close()
      onState({ kind: 'stopped' })
    })())
  const failed = (error: ErrorAnswer | undefined) => {
    waitingToRetry = true
    if (error?.status === 401 || error?.status === 403) {
      onState({ kind: 'unauthorized', error: reasonOf(error) })
      void stop()
    } else onState({ kind: 'idle', error: reasonOf(error) })
  }
  // The sync's own `paused` never says why (PouchDB drops its directions' errors): a direction
  // that failed (the server gone, the network down) and waits to retry is heard on its own.
  for (const direction of [sync.pull, sync.push])
    direction.on('paused', (error) => {
      if (error) failed(error)
    })
  sync
    .on('active', () => {
      waitingToRetry = false
      onState({ kind: 'sending' })
    })
    .on('paused', (error) => (error ? failed(error) : !waitingToRetry && onState({ kind: 'idle' })))
    .on('error', failed)
    .on('denied', (error) =>
      onState({
        kind: 'refused',
        id: String(error?.id ?? ''),
        reason: error?.reason ?? error?.message ?? 'refused',
      }),
    )
  return { stop }
}

/**
 * The remote's requests, answered until the replication stops. Cancelling a live replication does
 * not cancel its requests in flight, and PouchDB leaves the failure of one that fails afterwards
 * (the server gone, its connection cut as the app quits or the desk leaves) unhandled, which
 * Node reports as an error of the process. A request that fails once the replication stopped is
 * not answered at all: nothing waits for it any more.
 */
function untilStopped(): { fetch: Fetch; stop(): void } {
  let stopped = false
  const never = new Promise<never>(() => {})
  return {
    fetch: async (url, init) => {
      if (stopped) return never
      try {
        return await pouchFetch(url, init)
      } catch (failure) {
        if (stopped) return never
        throw failure
      }
    },
    stop: () => {
      stopped = true
    },
  }
}

/**
 * PouchDB's replication reads its source's info only to count its progress, and as it writes each
 * checkpoint nothing waits for that read: the workspace's connection cut at that moment (a reset,
 * the server restarting) was an error of the whole process. The replica never reads the
 * workspace's info otherwise, so a failed read counts nothing, and the replication's next request
 * meets the failure, where it is retried.
 */
function readsInfoWithoutFailing(remote: Database): void {
  const info = remote.info.bind(remote)
  remote.info = () => info().catch(() => ({ db_name: '', doc_count: 0, update_seq: 0 }))
}

async function winnersOf(local: Database, ids: readonly string[]): Promise<StoredDocument[]> {
  if (ids.length === 0) return []
  const { rows } = await local.allDocs({ keys: [...ids], include_docs: true })
  return rows.flatMap((row) => (row.doc ? [row.doc] : []))
}

async function winningRevision(local: Database, id: string): Promise<string | undefined> {
  try {
    return (await local.get(id))._rev
  } catch (error) {
    if ((error as { status?: number } | undefined)?.status === 404) return undefined
    throw error
  }
}

/** A sequence the replica answered with, as the number it is; one it never made starts over. */
const sequenceNumber = (since: string) => (/^\d+$/.test(since) ? Number(since) : 0)

/**
 * The wait before replication tries again, from the last one (0 at the first failure): doubling
 * from a second up to half a minute. PouchDB's own doubles up to ten minutes, so a desk back
 * online after an hour's outage would wait minutes before anything moved.
 */
export const retryDelay = (last: number): number => Math.min(Math.max(last * 2, 1_000), 30_000)

const isConflict = (error: unknown) => (error as { status?: number } | undefined)?.status === 409

function reasonOf(error: unknown): string {
  const { message, reason, status } = (error ?? {}) as { message?: string; reason?: string; status?: number }
  return [status ? `HTTP ${status}` : '', reason ?? message ?? ''].filter(Boolean).join(': ') || 'failed'
}
