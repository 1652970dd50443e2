import { describe, expect, it, vi } from 'vitest'
import { arrivalsSince, settleConflict, shareDrafts, versionsOf } from '#node/team/draft-exchange.ts'
import type { Workspace } from '#node/team/replica.ts'
import type { DraftArrival, DraftShare } from '#shared/team/draft-exchange.ts'
import { basic, type Credentials } from '../../e2e/harness/team-server.ts'
import { ANA, BEN, REPLICATES, useTeamWorkspace } from './team-workspace-fixture.ts'

const team = useTeamWorkspace('catalog-desk-exchange-')

/** A desk: its replica, replicating as `who`, and the drafts that arrived in it so far. */
function desk(name: string, who: Credentials) {
  const replica = team.openReplica(name)
  const workspace: Workspace = { url: team.url, ...who }
  let session = replica.replicate(workspace, () => {})
  return {
    replica,
    share: (shares: DraftShare[]) => shareDrafts(replica, who.username, shares),
    /** Every draft's winning version in the replica, by id, as the page would be handed them. */
    async drafts(): Promise<Map<string, DraftArrival>> {
      const { arrivals } = await arrivalsSince(replica, '0', 500)
      return new Map(arrivals.map((arrival) => [arrival.id, arrival]))
    },
    disconnect: () => session.stop(),
    reconnect() {
      session = replica.replicate(workspace, () => {})
    },
  }
}

const edit = (id: string, productName: string, base?: string): DraftShare => ({
  kind: 'sku',
  id,
  ...(base ? { base } : {}),
  payload: { productName, brand: 'Lumen' },
  deleted: false,
  editedAt: 1_790_000_000_000,
})

describe('the drafts’ exchange between a desk and its replica (issue #41)', () => {
  it('a draft shared on one desk arrives on the other, named by who edited it; an edit on its revision comes back', async () => {
    const a = desk('a', ANA)
    const b = desk('b', BEN)
    const [made] = await a.share([edit('f1', 'Aviator 58')])
    expect(made).toMatchObject({ kind: 'sku', id: 'f1', conflict: false })

    await vi.waitFor(async () => expect((await b.drafts()).get('f1')?.rev).toBe(made!.rev), REPLICATES)
    expect((await b.drafts()).get('f1')).toMatchObject({
      payload: { productName: 'Aviator 58' },
      deleted: false,
      editedBy: 'ana',
      conflicts: 0,
    })

    const [edited] = await b.share([edit('f1', 'Aviator 58 Gold', made!.rev)])
    expect(edited!.conflict).toBe(false)
    await vi.waitFor(async () => expect((await a.drafts()).get('f1')?.rev).toBe(edited!.rev), REPLICATES)
    expect((await a.drafts()).get('f1')).toMatchObject({
      payload: { productName: 'Aviator 58 Gold' },
      editedBy: 'ben',
    })
  })

  it('an edit based on a version another desk has moved past is kept beside it: both desks see the conflict', async () => {
    const a = desk('a', ANA)
    const b = desk('b', BEN)
    const [made] = await a.share([edit('f1', 'Aviator 58')])
    await vi.waitFor(async () => expect((await b.drafts()).get('f1')?.rev).toBe(made!.rev), REPLICATES)
    const [byBen] = await b.share([edit('f1', 'Aviator 58 Gold', made!.rev)])
    await vi.waitFor(async () => expect((await a.drafts()).get('f1')?.rev).toBe(byBen!.rev), REPLICATES)

    // Ana's desk edited the draft on the version it had before Ben's arrived.
    const [byAna] = await a.share([edit('f1', 'Aviator 58 Silver', made!.rev)])
    expect(byAna!.conflict).toBe(true)
    expect(byAna!.rev).toMatch(/^2-/)
    for (const which of [a, b])
      await vi.waitFor(async () => expect((await which.drafts()).get('f1')?.conflicts).toBe(1), REPLICATES)
    const names = (await a.replica.versions('sku:f1')).map(
      (version) => (version.payload as { productName: string }).productName,
    )
    expect(names.sort()).toEqual(['Aviator 58 Gold', 'Aviator 58 Silver'])
  })

  it('a deletion against an edit keeps the draft, in conflict, on both desks; settling it leaves one version everywhere', async () => {
    const a = desk('a', ANA)
    const b = desk('b', BEN)
    const [made] = await a.share([edit('f1', 'Aviator 58')])
    await vi.waitFor(async () => expect((await b.drafts()).get('f1')?.rev).toBe(made!.rev), REPLICATES)
    await a.disconnect()
    await b.disconnect()
    await a.share([{ ...edit('f1', '', made!.rev), payload: {}, deleted: true, editedAt: 1_790_000_000_100 }])
    const [gold] = await b.share([
      { ...edit('f1', 'Aviator 58 Gold', made!.rev), editedAt: 1_790_000_000_200 },
    ])
    a.reconnect()
    b.reconnect()
    for (const which of [a, b])
      await vi.waitFor(async () => expect((await which.drafts()).get('f1')?.conflicts).toBe(1), REPLICATES)
    // Whichever version CouchDB makes the winner, each desk is handed the draft as Ben kept it,
    // under that version's own revision: an edit made on it goes on Ben's version, never on the
    // deletion's (which would end the deletion without anyone choosing).
    for (const which of [a, b])
      expect((await which.drafts()).get('f1')).toMatchObject({
        rev: gold!.rev,
        deleted: false,
        payload: { productName: 'Aviator 58 Gold' },
        editedBy: 'ben',
      })

    const versions = await versionsOf(a.replica, 'sku:f1')
    expect(versions.map((version) => [version.deleted, version.editedBy]).sort()).toEqual([
      [false, 'ben'],
      [true, 'ana'],
    ])
    const choice = {
      kind: 'sku' as const,
      id: 'f1',
      kept: { payload: { productName: 'Aviator 58 Gold', brand: 'Lumen' }, deleted: false },
      at: 1_790_000_000_300,
    }
    // A choice made on versions other than those there now is refused.
    expect(await settleConflict(a.replica, 'ana', { ...choice, seen: [versions[0]!.rev] })).toEqual({
      ok: false,
      reason: 'changed',
    })
    const settled = await settleConflict(a.replica, 'ana', {
      ...choice,
      seen: versions.map((version) => version.rev),
    })
    expect(settled.ok).toBe(true)
    for (const which of [a, b])
      await vi.waitFor(
        async () =>
          expect((await which.drafts()).get('f1')).toMatchObject({
            conflicts: 0,
            deleted: false,
            editedBy: 'ana',
            payload: { productName: 'Aviator 58 Gold' },
          }),
        REPLICATES,
      )
  })

  it('a document from the workspace that is not a draft, too large or holding a prototype key is set aside, the others handed over', async () => {
    const b = desk('b', BEN)
    const put = async (id: string, doc: Record<string, unknown>) => {
      const answer = await fetch(`${team.url}/${encodeURIComponent(id)}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Authorization: basic(team.server.admin) },
        body: JSON.stringify(doc),
      })
      expect(answer.ok, await answer.text()).toBe(true)
    }
    const good = {
      type: 'sku',
      payload: { productName: 'Round 50' },
      deleted: false,
      editedBy: 'ana',
      editedAt: 1,
    }
    await put('sku:good', good)
    await put('sku:shape', { ...good, payload: 'not an object' })
    await put('sku:extra', { ...good, script: 'alert(1)' })
    await put('sku:huge', { ...good, payload: { productName: 'x'.repeat(1_100_000) } })
    await put('sku:proto', {
      ...good,
      payload: { productName: 'Round', constructor: { prototype: { admin: true } } },
    })
    await put('note', { text: 'not a draft' })

    const arrived = async () => arrivalsSince(b.replica, '0', 500)
    await vi.waitFor(
      async () => expect((await arrived()).arrivals.length + (await arrived()).setAside.length).toBe(6),
      REPLICATES,
    )
    const { arrivals, setAside } = await arrived()
    expect(arrivals.map((arrival) => arrival.id)).toEqual(['good'])
    expect(Object.fromEntries(setAside.map(({ id, reason }) => [id, reason]))).toEqual({
      'sku:shape': 'its payload is not an object',
      'sku:extra': 'unknown fields (script)',
      'sku:huge': 'larger than 1 MB',
      'sku:proto': 'holds a "constructor" key',
      note: 'its id is not a shared draft’s',
    })
  })
})
