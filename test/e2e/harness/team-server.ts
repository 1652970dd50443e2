import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import expressPouchDB from 'express-pouchdb'
import PouchDB from 'pouchdb-core'
import httpAdapter from 'pouchdb-adapter-http'
import memoryAdapter from 'pouchdb-adapter-memory'
import mapReduce from 'pouchdb-mapreduce'
import replication from 'pouchdb-replication'

/**
 * A CouchDB-compatible server for the team workspace's tests (issue #41): express-pouchdb on
 * pouchdb-core with the memory adapter, in this process, on loopback, on a port of its own. It
 * speaks CouchDB's replication protocol (`_changes`, `_revs_diff`, `_bulk_docs`, `_local`
 * checkpoints) and its users, `_session` and `_security`, which is what the app relies on; where it
 * differs from Apache CouchDB 3 (integer sequences, no `max_document_size`, `__proto__` keys
 * dropped as they are stored…) the tests keep to what CouchDB documents, and docs/team.md lists
 * what was proven here and what needs a real CouchDB.
 */
export interface TeamServer {
  /** http://127.0.0.1:port, no trailing slash. */
  url: string
  /** The administrator's credentials (the server starts with one). */
  admin: Credentials
  /** A database the given users may read and write, as a team's workspace would be. */
  createWorkspace(name: string, members: readonly Credentials[]): Promise<string>
  /**
   * Makes the server unreachable, as a cut network would, until `resume`: the connections open now
   * (a desk's `_changes` long poll) are cut, and every request meanwhile has its connection closed
   * unanswered, so each desk's replication fails and retries, as it would offline.
   */
  pause(): void
  /** Reachable again: the desks' next retries get through. */
  resume(): void
  /**
   * From now on, requests `cut` picks (by method and path) have their connection closed unanswered,
   * as a connection reset under way would; `cut` undefined: none.
   */
  hangUpOn(cut: ((method: string, path: string) => boolean) | undefined): void
  /**
   * Sets how far the server's clock is from this machine's from now on, as time passing on the
   * server would: a test sees claims run out without waiting for them.
   */
  setClockSkew(ms: number): void
  close(): Promise<void>
}

export interface Credentials {
  username: string
  password: string
}

// pouchdb-core's plugins extend its one class, for every user of it in the process (the desk's
// replica too, in the unit tests): each only once. The server keeps its databases in memory.
if (!('replicate' in PouchDB)) PouchDB.plugin(replication)
const ServerPouch = PouchDB.plugin(memoryAdapter).plugin(httpAdapter).plugin(mapReduce)
/** Servers started in this process so far: each names its in-memory databases apart. */
let servers = 0

const ADMIN: Credentials = { username: 'admin', password: 'admin-secret' }

/** A CouchDB-compatible server on loopback; `clockSkewMs`: how far its clock is from this machine's. */
export async function startTeamServer({ clockSkewMs: skew = 0 } = {}): Promise<TeamServer> {
  let clockSkewMs = skew
  // The memory adapter's databases belong to the process, by name: a prefix of its own keeps one
  // server's databases (its users, its replicator's) from the next one's.
  const MemoryPouch = ServerPouch.defaults({
    adapter: 'memory',
    prefix: `server-${++servers}-`,
  })
  // `inMemoryConfig`: no config.json or log written into the working folder.
  const couch = expressPouchDB(MemoryPouch, {
    mode: 'fullCouchDB',
    inMemoryConfig: true,
    logPath: '/dev/null',
  })
  let reachable = true
  let hangsUp: ((method: string, path: string) => boolean) | undefined
  const server: Server = createServer((request, response) => {
    // The server's clock, as its `Date` header says it (what claims are judged by): here off by
    // `clockSkewMs` from this machine's, as another computer's may be.
    if (clockSkewMs) response.setHeader('Date', new Date(Date.now() + clockSkewMs).toUTCString())
    if (reachable && !hangsUp?.(request.method ?? 'GET', request.url ?? '/')) couch(request, response)
    else request.socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const call = async (method: string, path: string, body?: unknown, as: Credentials = ADMIN) => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: basic(as) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${await answer.text()}`)
    return answer.json() as Promise<unknown>
  }
  // A server with no administrator lets anyone do anything ("admin party"): make one first.
  await fetch(`${url}/_config/admins/${ADMIN.username}`, {
    method: 'PUT',
    body: JSON.stringify(ADMIN.password),
  })
  const users = new Set<string>()
  return {
    url,
    admin: ADMIN,
    async createWorkspace(name, members) {
      for (const member of members) {
        if (users.has(member.username)) continue
        await call('PUT', `/_users/org.couchdb.user:${member.username}`, {
          name: member.username,
          password: member.password,
          roles: [],
          type: 'user',
        })
        users.add(member.username)
      }
      await call('PUT', `/${name}`)
      // A new database is open to anyone here (CouchDB 3 makes it admin-only): name its members.
      await call('PUT', `/${name}/_security`, {
        admins: { names: [], roles: [] },
        members: { names: members.map((member) => member.username), roles: [] },
      })
      return `${url}/${name}`
    },
    setClockSkew(ms) {
      clockSkewMs = ms
    },
    pause() {
      reachable = false
      server.closeAllConnections()
    },
    resume() {
      reachable = true
    },
    hangUpOn(cut) {
      hangsUp = cut
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

export const basic = ({ username, password }: Credentials) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
