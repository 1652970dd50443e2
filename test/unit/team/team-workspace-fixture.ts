import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { openReplica, type TeamReplica } from '#node/team/replica.ts'
import { startTeamServer, type Credentials, type TeamServer } from '../../e2e/harness/team-server.ts'

export const ANA: Credentials = { username: 'ana', password: 'ana-pass' }
export const BEN: Credentials = { username: 'ben', password: 'ben-pass' }
/** How long replication between two desks on loopback may take, polled often. */
export const REPLICATES = { timeout: 20_000, interval: 50 }

/**
 * For each test of the file: a CouchDB-compatible server with a workspace Ana and Ben are members
 * of, and a folder for the desks' replicas; after it, the replicas opened with `openReplica` are
 * closed, the server stopped and the folder removed.
 */
export function useTeamWorkspace(folderPrefix: string) {
  const team = {
    server: undefined as unknown as TeamServer,
    url: '',
    folder: '',
    /** The replicas the test opened, closed after it (one closed by the test is taken out first). */
    open: [] as TeamReplica[],
    /** A replica in a folder of its own under the test's, closed after the test. */
    openReplica(name: string): TeamReplica {
      const replica = openReplica(join(team.folder, name))
      team.open.push(replica)
      return replica
    },
  }
  beforeEach(async () => {
    team.server = await startTeamServer()
    team.url = await team.server.createWorkspace('autumn', [ANA, BEN])
    team.folder = await mkdtemp(join(tmpdir(), folderPrefix))
  })
  afterEach(async () => {
    await Promise.all(team.open.splice(0).map((replica) => replica.close()))
    await team.server.close()
    await rm(team.folder, { recursive: true, force: true })
  })
  return team
}
