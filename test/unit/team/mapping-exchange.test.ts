import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { arrivalsSince } from '#node/team/draft-exchange.ts'
import { shareMappings } from '#node/team/mapping-exchange.ts'
import { openReplica, type TeamReplica } from '#node/team/replica.ts'
import type { MappingArrival } from '#shared/team/draft-exchange.ts'
import { startTeamServer, type Credentials, type TeamServer } from '../../e2e/harness/team-server.ts'

const ANA: Credentials = { username: 'ana', password: 'ana-pass' }
const BEN: Credentials = { username: 'ben', password: 'ben-pass' }
const REPLICATES = { timeout: 20_000, interval: 50 }

let server: TeamServer
let folder: string
let workspaceUrl: string
const open: TeamReplica[] = []

beforeEach(async () => {
  server = await startTeamServer()
  workspaceUrl = await server.createWorkspace('autumn', [ANA, BEN])
  folder = await mkdtemp(join(tmpdir(), 'catalog-desk-mappings-'))
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((replica) => replica.close()))
  await server.close()
  await rm(folder, { recursive: true, force: true })
})

/** A desk's replica, replicating as `who`, and the mappings that arrived in it, by header. */
function desk(name: string, who: Credentials) {
  const replica = openReplica(join(folder, name))
  open.push(replica)
  replica.replicate({ url: workspaceUrl, ...who }, () => {})
  return {
    replica,
    async mappings(): Promise<Map<string, MappingArrival>> {
      const { mappings } = await arrivalsSince(replica, '0', 500)
      return new Map(mappings.map((mapping) => [mapping.header, mapping]))
    },
  }
}

describe('saved column mappings through a team workspace (issue #41)', () => {
  it('a mapping saved on one desk arrives on the other, and saving it again anywhere replaces it everywhere', async () => {
    const a = desk('a', ANA)
    const b = desk('b', BEN)
    await shareMappings(a.replica, 'ana', [
      { header: 'Nome do produto', path: 'productName', editedAt: 1 },
      { header: 'Código de barras', path: null, editedAt: 1 },
    ])
    await vi.waitFor(async () => expect((await b.mappings()).size).toBe(2), REPLICATES)
    expect((await b.mappings()).get('Nome do produto')).toEqual({
      header: 'Nome do produto',
      path: 'productName',
      editedBy: 'ana',
      editedAt: 1,
    })

    // Ben maps the barcode column after all: written over the version he has, never beside it.
    await shareMappings(b.replica, 'ben', [{ header: 'Código de barras', path: 'barcode', editedAt: 2 }])
    for (const which of [a, b])
      await vi.waitFor(
        async () =>
          expect((await which.mappings()).get('Código de barras')).toMatchObject({
            path: 'barcode',
            editedBy: 'ben',
          }),
        REPLICATES,
      )
    const { changes } = await a.replica.changes('0', 10)
    expect(changes.every((change) => change.conflicts.length === 0)).toBe(true)
  })
})
