import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { messageOf } from '#shared/error-message.ts'
import {
  EXCHANGE_BATCH,
  type ConflictChoice,
  type ConflictSettled,
  type DraftShare,
  type DraftShared,
  type DraftVersion,
  type MappingShare,
  type TeamArrivals,
} from '#shared/team/draft-exchange.ts'
import type { ClaimRequest, ClaimAnswer, ClaimedDraft } from '#shared/team/claims.ts'
import { recordOf, type DecidedRecord, type RunOutcome, type SendRecord } from '#shared/team/send-records.ts'
import { checkSent } from '#shared/team/shared-documents.ts'
import type { SharedKind } from '#shared/team/shared-documents.ts'
import type { WorkspaceJoin, WorkspaceReplication, WorkspaceStatus } from '#shared/team/workspace-status.ts'
import type { AppLog } from '../app-log.ts'
import { createKeyedQueue } from '../keyed-queue.ts'
import type { TokenStore } from '../secrets/token-store.ts'
import { RunClaims } from './claims.ts'
import { sentId, ServerSendRecords } from './send-records.ts'
import { ServerDocuments } from './server-documents.ts'
import { arrivalsSince, settleConflict, shareDrafts, versionsOf } from './draft-exchange.ts'
import { shareMappings } from './mapping-exchange.ts'
import { openReplica, type ReplicationState, type TeamReplica } from './replica.ts'
import { checkWorkspace } from './workspace-check.ts'
import { workspaceFile, type KeptWorkspace } from './workspace-file.ts'

/**
 * The workspace's password in the token store, bound to the workspace's address as a profile's
 * token is to its service's. No profile can take this id: a profile's starts with a letter or a
 * digit (src/shared/profile.ts).
 */
export const WORKSPACE_SECRET_ID = '-team-workspace'
/** The replicas' folder in the data folder: one folder per workspace address (`replicaFolder`). */
export const REPLICAS_FOLDER = 'team'

export interface TeamWorkspaceOptions {
  /** The app's data folder: the kept workspace's file and the replicas' folder are in it. */
  dataDir: string
  /** The token store main uses, wrapped so what passes through it is kept out of the log (known-tokens.ts). */
  tokens: TokenStore
  /**
   * Tells main's log redaction a credential this service holds beyond the password itself: the
   * `name:password` pair, whose base64 is what an Authorization header carries.
   */
  remember?: (secret: string) => void
  log?: Pick<AppLog, 'info' | 'warn'>
}

/** The team workspace main holds (issue #41): joined, kept across starts, replicated, left. */
export interface TeamWorkspace {
  status(): WorkspaceStatus
  /** Hears every change of the status; returns the function that stops hearing. */
  onStatus(listener: (status: WorkspaceStatus) => void): () => void
  /** At start: the workspace kept from before is opened again and replicates; none kept, none joined. */
  reopen(): Promise<WorkspaceStatus>
  /** Checks the workspace (workspace-check.ts), keeps it, opens the replica and starts replicating. */
  join(url: string, username: string, password: string): Promise<WorkspaceJoin>
  /** Stops replicating, closes the replica, forgets the password and the kept workspace. */
  leave(): Promise<WorkspaceStatus>
  /** The app quits: replication stops and the replica closes; the workspace stays kept. */
  close(): Promise<void>
  /** Writes what this desk edited into the replica, as the desk's name (draft-exchange.ts). */
  share(shares: readonly DraftShare[]): Promise<DraftShared[]>
  /** Writes column mappings saved on this desk into the replica, as the desk's name. */
  shareMappings(shares: readonly MappingShare[]): Promise<void>
  /** What arrived in the replica after `since`, checked; what was set aside is said in the log. */
  arrivals(since: string, limit: number): Promise<TeamArrivals>
  /** A draft's versions, the winner first (a conflict's, to compare). */
  versions(kind: SharedKind, id: string): Promise<DraftVersion[]>
  /** Settles a draft's conflict as a person chose, as the desk's name. */
  settle(choice: ConflictChoice): Promise<ConflictSettled>
  /**
   * Claims drafts for a run about to send them to a shared destination (issue #42, claims.ts),
   * on the workspace's server as the desk's name; a server out of reach, or no workspace, is an
   * answer saying so: nothing may be sent there then.
   */
  claim(request: ClaimRequest): Promise<ClaimAnswer>
  /** Renews a run's claims; answers those another desk took over meanwhile. */
  renewClaims(run: string): Promise<ClaimedDraft[]>
  /** Releases a run's claims, those of `drafts` or all of them: the run is done with them. */
  releaseClaims(run: string, drafts?: readonly ClaimedDraft[]): Promise<void>
  /**
   * Writes a run's outcomes on the server as the drafts' send records, as the desk's name, while
   * the run holds their claims (a run that claimed nothing, to the built-in Sandbox, records none).
   */
  recordSends(run: string, outcomes: readonly RunOutcome[]): Promise<void>
  /**
   * Writes a person's decisions about drafts whose outcome was not known (`SentDocument.decision`)
   * on the server, straight, as the desk's name: every desk then sees them decided.
   */
  decideSends(records: readonly DecidedRecord[]): Promise<void>
  /** The send records of `drafts` at `destination` this desk's replica holds, each checked. */
  sendRecords(destination: string, drafts: readonly ClaimedDraft[]): Promise<SendRecord[]>
}

const NONE: WorkspaceStatus = { state: 'none' }
/** Every join, leave and reopen runs after the one before: one workspace at a time. */
const ONE_WORKSPACE = 'workspace'

const MEMORY_NOTICE =
  'No system keychain is available: the workspace’s password is kept in memory until Catalog Desk closes, and the desk joins again next time.'
const NO_PASSWORD =
  'The workspace’s password is not kept on this computer (no keychain when the desk joined, or it was removed): leave the workspace and join it again.'

/**
 * A folder of its own for each workspace address, so a replica never replicates one workspace's
 * documents into another's.
 */
export const replicaFolder = (dataDir: string, url: string) =>
  join(dataDir, REPLICAS_FOLDER, createHash('sha256').update(url).digest('hex').slice(0, 16))

/** What a workspace is held by while joined: its replica and the replication going on. */
interface Held {
  kept: KeptWorkspace
  replica?: TeamReplica
  session?: { stop(): Promise<void> }
  /** The ids of the documents set aside while it was held (Settings counts them). */
  setAside: Set<string>
  /** The password replication uses, for the claims written straight on the server. */
  password?: string
  /** The claims of the runs under way on this desk, by run. */
  claims: Map<string, RunClaims>
}

export function createTeamWorkspace(options: TeamWorkspaceOptions): TeamWorkspace {
  return new HeldWorkspace(options)
}

class HeldWorkspace implements TeamWorkspace {
  readonly #options: TeamWorkspaceOptions
  readonly #file: ReturnType<typeof workspaceFile>
  readonly #serially = createKeyedQueue()
  readonly #listeners = new Set<(status: WorkspaceStatus) => void>()
  #current: WorkspaceStatus = NONE
  #held: Held | undefined

  constructor(options: TeamWorkspaceOptions) {
    this.#options = options
    this.#file = workspaceFile(options.dataDir)
  }

  status() {
    return this.#current
  }

  onStatus(listener: (status: WorkspaceStatus) => void) {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  reopen() {
    return this.#serially(ONE_WORKSPACE, async () => {
      if (this.#held) return this.#current
      const kept = await this.#file.read()
      if (!kept) return this.#current
      let password: string | undefined
      try {
        password = await this.#options.tokens.get(WORKSPACE_SECRET_ID, kept.url)
      } catch {
        password = undefined
      }
      if (password === undefined) {
        this.#held = { kept, setAside: new Set(), claims: new Map() }
        this.#setStatus(joined(kept, { kind: 'failed', reason: NO_PASSWORD }))
      } else {
        this.#remember(`${kept.name}:${password}`)
        await this.#start(kept, password)
      }
      this.#options.log?.info(`Team workspace reopened: ${kept.url} as ${kept.name}.`)
      return this.#current
    })
  }

  join(url: string, username: string, password: string) {
    return this.#serially(ONE_WORKSPACE, () => this.#join(url, username, password))
  }

  leave() {
    return this.#serially(ONE_WORKSPACE, async () => {
      // The replica's folder stays on the disk: edits made on this desk that had not reached the
      // server yet are in it, and they go when the desk joins this workspace again (the folder is
      // the address's, so never to another workspace). Joining again also resumes from the
      // replication's checkpoint rather than pulling the whole workspace anew. What leaving
      // removes is what lets the desk reach the workspace: the password and the kept address.
      await this.#stop()
      await this.#options.tokens.clear(WORKSPACE_SECRET_ID)
      await this.#file.remove()
      if (this.#current.state !== 'none')
        this.#options.log?.info(`Team workspace left: ${this.#current.url}.`)
      this.#setStatus(NONE)
      return this.#current
    })
  }

  close() {
    return this.#serially(ONE_WORKSPACE, () => this.#stop())
  }

  share(shares: readonly DraftShare[]) {
    return this.#serially(ONE_WORKSPACE, () => {
      const { replica, kept } = this.#replicating()
      return shareDrafts(replica, kept.name, shares)
    })
  }

  shareMappings(shares: readonly MappingShare[]) {
    return this.#serially(ONE_WORKSPACE, () => {
      const { replica, kept } = this.#replicating()
      return shareMappings(replica, kept.name, shares)
    })
  }

  arrivals(since: string, limit: number) {
    return this.#serially(ONE_WORKSPACE, async () => {
      const { replica, kept } = this.#replicating()
      const answer = await arrivalsSince(replica, since, Math.min(limit, EXCHANGE_BATCH))
      for (const { id, reason } of answer.setAside)
        this.#options.log?.warn(`Team workspace ${kept.url}: ${id} set aside, not applied: ${reason}`)
      this.#noteSetAside(answer.setAside)
      return answer
    })
  }

  versions(kind: SharedKind, id: string) {
    return this.#serially(ONE_WORKSPACE, () => versionsOf(this.#replicating().replica, `${kind}:${id}`))
  }

  settle(choice: ConflictChoice) {
    return this.#serially(ONE_WORKSPACE, async () => {
      const { replica, kept } = this.#replicating()
      const settled = await settleConflict(replica, kept.name, { ...choice, at: Date.now() })
      if (settled.ok)
        this.#options.log?.info(`Team workspace: the conflict of ${choice.kind}:${choice.id} settled.`)
      return settled
    })
  }

  async claim({ destination, run, drafts, action }: ClaimRequest): Promise<ClaimAnswer> {
    const held = this.#held
    if (!held) return { ok: false, message: 'This desk has joined no team workspace.' }
    if (!held.password) return { ok: false, message: NO_PASSWORD }
    let claims = held.claims.get(run)
    if (!claims) {
      const { url, name } = held.kept
      claims = new RunClaims(
        { url, username: name, password: held.password },
        { owner: name, run, destination, action },
      )
      held.claims.set(run, claims)
    }
    try {
      return { ok: true, ...(await claims.take(drafts)) }
    } catch (error) {
      this.#options.log?.warn(`Team workspace ${held.kept.url}: claiming for run ${run}: ${messageOf(error)}`)
      return { ok: false, message: messageOf(error) }
    }
  }

  async renewClaims(run: string) {
    return (await this.#held?.claims.get(run)?.renew()) ?? []
  }

  async recordSends(run: string, outcomes: readonly RunOutcome[]) {
    const claims = this.#held?.claims.get(run)
    if (!claims)
      throw new Error('This run holds no claims in a team workspace: its outcomes are this desk’s own.')
    await claims.record(outcomes)
  }

  async decideSends(records: readonly DecidedRecord[]) {
    const held = this.#held
    if (!held) throw new Error('This desk has joined no team workspace.')
    if (!held.password) throw new Error(NO_PASSWORD)
    const { url, name } = held.kept
    const server = new ServerDocuments({ url, username: name, password: held.password })
    for (const destination of new Set(records.map((record) => record.destination))) {
      const decided = records
        .filter((record) => record.destination === destination)
        .map((record) => ({ ...record, recordedBy: name }))
      await new ServerSendRecords(server, destination).write(decided)
    }
    this.#options.log?.info(`Team workspace ${url}: ${records.length} decisions about send records written.`)
  }

  async sendRecords(destination: string, drafts: readonly ClaimedDraft[]) {
    const docs = await this.#replicating().replica.winners(drafts.map((draft) => sentId(destination, draft)))
    return docs.flatMap((doc) => {
      const checked = checkSent(doc)
      return typeof checked === 'string' ? [] : [recordOf(checked)]
    })
  }

  async releaseClaims(run: string, drafts?: readonly ClaimedDraft[]) {
    const claims = this.#held?.claims.get(run)
    if (!claims) return
    await claims.release(drafts)
    if (claims.size === 0) this.#held?.claims.delete(run)
  }

  /** The workspace joined and its replica open, or why there is none to exchange drafts with. */
  #replicating(): Held & { replica: TeamReplica } {
    const held = this.#held
    if (!held) throw new Error('This desk has joined no team workspace.')
    if (!held.replica)
      throw new Error(`The copy of the workspace at ${held.kept.url} on this computer is not open.`)
    return { ...held, replica: held.replica }
  }

  async #join(url: string, username: string, rawPassword: string): Promise<WorkspaceJoin> {
    if (this.#held)
      throw new Error(`This desk is already in the workspace at ${this.#held.kept.url}: leave it first.`)
    const address = url.trim().replace(/\/+$/, '')
    const user = username.trim()
    // Surrounding whitespace goes, as from a pasted token: what is checked is what is kept.
    const password = rawPassword.trim()
    if (password === '' || /\p{Cc}/u.test(password))
      return {
        ok: false,
        problem: 'credentials',
        message: 'Give the password: one line, as the server knows it.',
      }
    this.#setStatus({ state: 'joining', url: address })
    const check = await checkWorkspace({ url: address, username: user, password })
    const { tokens, log } = this.#options
    if (!check.ok) {
      log?.warn(`Joining the team workspace at ${address} as ${user}: ${check.message}`)
      this.#setStatus(NONE)
      return check
    }
    try {
      const saved = await tokens.set(WORKSPACE_SECRET_ID, address, password)
      this.#remember(`${user}:${password}`)
      this.#remember(`${check.name}:${password}`)
      const kept = { url: address, name: check.name }
      await this.#file.write(kept)
      await this.#start(kept, password)
      log?.info(
        `Team workspace joined: ${address} as ${check.name}, the password kept in ${saved.storage === 'keychain' ? 'the keychain' : 'memory'}.`,
      )
      return {
        ok: true,
        status: this.#current,
        ...(saved.storage === 'memory' ? { notice: MEMORY_NOTICE } : {}),
      }
    } catch (error) {
      // Nothing half kept: a password without its workspace, or a file without its password.
      await this.#stop()
      await tokens.clear(WORKSPACE_SECRET_ID).catch(() => {})
      await this.#file.remove().catch(() => {})
      this.#setStatus(NONE)
      throw error
    }
  }

  /** Opens the workspace's replica and replicates with it; its states become the status. */
  async #start(kept: KeptWorkspace, password: string) {
    const holding: Held = { kept, setAside: new Set(), password, claims: new Map() }
    this.#held = holding
    const folder = replicaFolder(this.#options.dataDir, kept.url)
    try {
      // LevelDB makes the replica's own folder, not the folders above it.
      await mkdir(join(this.#options.dataDir, REPLICAS_FOLDER), { recursive: true })
      holding.replica = openReplica(folder)
      // PouchDB opens LevelDB in the background: a first read says whether it could.
      await holding.replica.changes('0', 1)
    } catch (error) {
      // A replica that cannot be opened never stops the app: Settings says why, leaving still works.
      await holding.replica?.close().catch(() => {})
      holding.replica = undefined
      const reason = `The workspace's copy on this computer (${folder}) cannot be opened: ${messageOf(error)}`
      this.#options.log?.warn(`Team workspace ${kept.url}: ${reason}`)
      this.#setStatus(joined(kept, { kind: 'failed', reason }))
      return
    }
    this.#setStatus(joined(kept, { kind: 'starting' }))
    const onState = (state: ReplicationState) => {
      // A replication stopped by leaving (or a join after it) speaks no more for the workspace.
      const current = this.#current
      if (this.#held !== holding || current.state !== 'joined' || state.kind === 'stopped') return
      if (state.kind === 'refused') {
        this.#options.log?.warn(`Team workspace: the server refused ${state.id}: ${state.reason}`)
        this.#setStatus({ ...current, refused: { id: state.id, reason: state.reason } })
        return
      }
      const replication = replicationOf(state)
      if (replication.kind !== current.replication.kind && 'reason' in replication)
        this.#options.log?.warn(`Team workspace ${kept.url}: ${replication.kind}: ${replication.reason}`)
      this.#setStatus({ ...current, replication })
    }
    holding.session = holding.replica.replicate({ url: kept.url, username: kept.name, password }, onState)
  }

  async #stop() {
    const holding = this.#held
    this.#held = undefined
    try {
      await holding?.session?.stop()
      await holding?.replica?.close()
    } catch (error) {
      // Leaving (or quitting) goes on: what failed to close is said in the log.
      this.#options.log?.warn('Team workspace: the replica did not close cleanly', error)
    }
  }

  /** Settings tells of documents set aside: counted once each, however often the page asks again. */
  #noteSetAside(setAside: TeamArrivals['setAside']) {
    const current = this.#current
    const last = setAside.at(-1)
    if (!last || !this.#held || current.state !== 'joined') return
    for (const { id } of setAside) this.#held.setAside.add(id)
    this.#setStatus({ ...current, setAside: { count: this.#held.setAside.size, last } })
  }

  #setStatus(status: WorkspaceStatus) {
    this.#current = status
    for (const listener of this.#listeners) listener(status)
  }

  #remember(secret: string) {
    this.#options.remember?.(secret)
  }
}

const joined = (kept: KeptWorkspace, replication: WorkspaceReplication): WorkspaceStatus => ({
  state: 'joined',
  url: kept.url,
  name: kept.name,
  replication,
})

/** A replication state as Settings words it. */
function replicationOf(
  state: Exclude<ReplicationState, { kind: 'refused' | 'stopped' }>,
): WorkspaceReplication {
  if (state.kind === 'sending') return { kind: 'sending' }
  if (state.kind === 'unauthorized') return { kind: 'unauthorized', reason: state.error }
  return state.error === undefined ? { kind: 'up-to-date' } : { kind: 'offline', reason: state.error }
}
