import 'fake-indexeddb/auto'
import { createPinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Sku } from '#shared/schema/sku.ts'
import type { DraftArrival, DraftShare, DraftShared, TeamArrivals } from '#shared/team/draft-exchange.ts'

// The exchange's turns (stores/team-exchange.ts) against main's replica as main answers: a changes
// feed where each draft stands once, at the sequence of its latest version, and a share moves it to
// the end. Main's real side is tested against a server in test/unit/team/draft-exchange.test.ts.
const main = vi.hoisted(() => ({
  feed: [] as Array<{ seq: number; arrival: DraftArrival }>,
  seq: 0,
  asked: [] as string[],
}))
vi.mock('#renderer/adapters/team-workspace.ts', () => ({
  teamWorkspaceInMain: {
    status: async () => ({
      state: 'joined',
      url: 'http://127.0.0.1:5984/autumn',
      name: 'ana',
      replication: { kind: 'up-to-date' },
    }),
    shareMappings: async () => undefined,
    async share(shares: DraftShare[]): Promise<DraftShared[]> {
      return shares.map(({ kind, id, payload, deleted, editedAt }) => {
        const rev = `${++main.seq}-ana`
        written({ kind, id, rev, payload, deleted, editedBy: 'ana', editedAt, conflicts: 0 })
        return { kind, id, rev, conflict: false }
      })
    },
    async arrivals(since: string, limit: number): Promise<TeamArrivals> {
      main.asked.push(since)
      const after = main.feed.filter((change) => change.seq > Number(since)).slice(0, limit)
      return {
        arrivals: after.map((change) => change.arrival),
        mappings: [],
        records: [],
        setAside: [],
        last: String(after.at(-1)?.seq ?? since),
      }
    },
  },
}))

/** A version written into the replica: the draft's entry in the feed moves to its end. */
function written(arrival: DraftArrival) {
  main.feed = main.feed.filter((change) => change.arrival.id !== arrival.id)
  main.feed.push({ seq: ++main.seq, arrival })
}

const memory = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (key: string) => memory.get(key) ?? null,
  setItem: (key: string, value: string) => void memory.set(key, value),
  removeItem: (key: string) => void memory.delete(key),
})

const { db } = await import('#renderer/db/index.ts')
const { saveDraftPayload } = await import('#renderer/db/stored-kinds.ts')
const { newDraftRecord } = await import('#renderer/db/sku-drafts.ts')
const { exchangeTurns } = await import('#renderer/stores/team-exchange.ts')

const sku = (productName: string): Sku => ({ productName, brand: 'Lumen', barcode: '4006381333931' })
const bens = (n: number) => ({
  kind: 'sku' as const,
  id: `ben-${String(n).padStart(4, '0')}`,
  rev: `1-ben${n}`,
  payload: sku(`Ben's frame ${n}`),
  deleted: false,
  editedBy: 'ben',
  editedAt: 1_000,
  conflicts: 0,
})

beforeEach(async () => {
  main.feed = []
  main.seq = 0
  main.asked = []
  memory.clear()
  await db.delete()
  await db.open()
})

describe('the exchange’s turns while a first pull streams in', () => {
  it('asks main for each batch once, the next while this one is written, until every draft is here', async () => {
    for (let n = 0; n < 1_200; n++) written(bens(n))
    const turn = exchangeTurns(createPinia())

    // Full batches: the next turn comes at once, on a batch already asked for.
    expect(await turn()).toBe(0)
    expect(await turn()).toBe(0)
    expect(await turn()).toBeGreaterThan(0)
    expect(await db.skuDrafts.count()).toBe(1_200)
    expect(main.asked).toEqual(['0', '500', '1000'])
    expect((await db.teamExchange.toArray())[0]?.since).toBe('1200')
  })

  it('never applies a batch asked for before this desk shared an edit: the draft keeps the edit', async () => {
    for (let n = 0; n < 700; n++) written(bens(n))
    const aviator = newDraftRecord(sku('Aviator'), 2_000)
    await db.skuDrafts.add(aviator)
    const turn = exchangeTurns(createPinia())
    // Shares Aviator (its version goes to the feed's end, after Ben's 700), applies Ben's first 500
    // and asks for the rest: Ben's 200 and Aviator's version.
    expect(await turn()).toBe(0)

    // Edited again and shared at the next turn: the batch asked for holds the version before it.
    await saveDraftPayload(db, 'skus', aviator.id, sku('Aviator Gold'), 3_000)
    await turn()
    expect((await db.skuDrafts.get(aviator.id))?.payload.productName).toBe('Aviator Gold')
    expect(await db.skuDrafts.count()).toBe(701)
    expect(main.asked).toEqual(['0', '500', '500'])
  })
})
