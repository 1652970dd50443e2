import { describe, expect, it, vi } from 'vitest'
import { arrivalsSince } from '#node/team/draft-exchange.ts'
import { shareMappings } from '#node/team/mapping-exchange.ts'
import type { MappingArrival } from '#shared/team/draft-exchange.ts'
import type { Credentials } from '../../e2e/harness/team-server.ts'
import { ANA, BEN, REPLICATES, useTeamWorkspace } from './team-workspace-fixture.ts'

const team = useTeamWorkspace('catalog-desk-mappings-')

/** A desk's replica, replicating as `who`, and the mappings that arrived in it, by header. */
function desk(name: string, who: Credentials) {
  const replica = team.openReplica(name)
  replica.replicate({ url: team.url, ...who }, () => {})
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
