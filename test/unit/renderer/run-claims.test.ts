import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Sku } from '#shared/schema/sku.ts'
import type { ItemUpdate, RequestRecord } from '#shared/sync/ports.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import type { SyncRunRecord } from '#renderer/db/sync-records.ts'
import { stateAt } from '#shared/sync/standing.ts'
import type { ClaimAnswer, ClaimRequest } from '#shared/team/claims.ts'
import type { RunOutcome, SendRecord } from '#shared/team/send-records.ts'
import full from '../../fixtures/sku-eyewear-full.json'

// A run's claims and send records on the page (stores/sync/run-claims.ts, issue #42), against
// main as it answers; main's side against a server is test/unit/team/claims.test.ts.
const main = vi.hoisted(() => ({
  recorded: [] as SendRecord[],
  held: [] as string[],
  inReplica: [] as SendRecord[],
  writes: [] as RunOutcome[][],
  calls: [] as string[],
  failWrites: false,
}))
vi.mock('#renderer/adapters/team-workspace.ts', () => ({
  teamWorkspaceInMain: {
    status: async () => ({
      state: 'joined',
      url: 'http://127.0.0.1:5984/autumn',
      name: 'ben',
      replication: { kind: 'up-to-date' },
    }),
    async claim({ drafts }: ClaimRequest): Promise<ClaimAnswer> {
      main.calls.push('claim')
      const taken = drafts.filter(({ id }) => !main.held.includes(id)).map(({ kind, id }) => ({ kind, id }))
      const held = drafts
        .filter(({ id }) => main.held.includes(id))
        .map(({ kind, id, position }) => ({
          kind,
          id,
          position,
          owner: 'ana',
          run: 'ana-run',
          claimedAt: 0,
          expiresAt: 120_000,
          expired: false,
        }))
      return { ok: true, taken, held, stopped: [], serverNow: 1, recorded: main.recorded }
    },
    sendRecords: async (_destination: string, drafts: Array<{ id: string }>) =>
      main.inReplica.filter((record) => drafts.some((draft) => draft.id === record.draft)),
    async recordSends(_run: string, outcomes: RunOutcome[]) {
      main.calls.push('record')
      if (main.failWrites) throw new Error('The workspace’s server did not answer')
      main.writes.push(outcomes)
    },
    async releaseClaims() {
      main.calls.push('release')
    },
    renewClaims: async () => [],
  },
}))

const { db, skuDrafts, syncRuns } = await import('#renderer/db/index.ts')
const { DexieSyncOutbox } = await import('#renderer/db/sync-outbox.ts')
const { claimRun } = await import('#renderer/stores/sync/run-claims.ts')

const PRODUCTION = 'https://api.example.test'
const target = {
  id: 'production',
  name: 'Production',
  url: PRODUCTION,
  destination: PRODUCTION,
  batchSize: 10,
  concurrency: 1,
}
const sku = (barcode: string): Sku =>
  ({ ...structuredClone(full), barcode, productName: `Frame ${barcode}` }) as Sku

beforeEach(async () => {
  main.recorded = []
  main.held = []
  main.inReplica = []
  main.writes = []
  main.calls = []
  main.failWrites = false
  await db.delete()
  await db.open()
})

async function queuedRun(n: number) {
  const drafts = []
  for (let i = 0; i < n; i++) drafts.push(await skuDrafts.create(sku(`400638133393${i}`), 1_000 + i))
  const { run } = await syncRuns.enqueue('skus', { target })
  return { drafts, run }
}

/** Ana's run's record of a draft it created on Production, as main answers it. */
function createdByAna(draft: SkuDraftRecord, more: Partial<SendRecord> = {}): SendRecord {
  return {
    destination: PRODUCTION,
    kind: 'sku',
    draft: draft.id,
    desk: 'ana',
    run: 'ana-run',
    position: 0,
    label: draft.barcode,
    state: 'synced',
    at: 2_000,
    sent: draft.payload,
    ...more,
  }
}

/** A run's claims as it launches, taken. */
async function claimedRun(run: SyncRunRecord) {
  const claimed = await claimRun(run, () => {})
  if (!claimed.ok) throw new Error(claimed.message)
  return claimed.claims
}

/** One request of `run` carrying the drafts of `updates`, its outcome written by the outbox at 3,500 ms. */
async function sent(run: SyncRunRecord, updates: ItemUpdate[]) {
  const outbox = new DexieSyncOutbox(db, run)
  const request: RequestRecord = {
    id: 'r-1',
    runId: run.id,
    kind: 'skus',
    keys: updates.map((update) => update.key),
    bytes: 1,
    startedAt: 3_000,
  }
  await outbox.beginRequest(request)
  await outbox.endRequest({ ...request, endedAt: 3_500 }, updates)
}

describe('a run’s claims and send records, on the page', () => {
  it('leaves out what another desk already created there, naming it, and stands it synced by that desk', async () => {
    const { drafts, run } = await queuedRun(3)
    main.recorded = [createdByAna(drafts[0]!, { remoteId: 'plat-0' })]
    const log: string[] = []
    const claimed = await claimRun(run, (line) => log.push(line))
    expect(claimed.ok).toBe(true)
    expect(log).toEqual([
      `1 draft left out (${drafts[0]!.barcode}): ana’s desk sent it to Production already (1 created).`,
    ])
    expect((await syncRuns.queued(run.id)).map((item) => item.key).sort()).toEqual(
      [drafts[1]!.id, drafts[2]!.id].sort(),
    )
    const first = await db.skuDrafts.get(drafts[0]!.id)
    expect(stateAt(first!.sync, PRODUCTION)).toBe('synced')
    expect(first!.sync[PRODUCTION]).toMatchObject({ run: 'ana-run', remoteId: 'plat-0' })
    expect(await syncRuns.get(run.id)).toMatchObject({ sentBy: 'ben' })
    if (claimed.ok) await claimed.claims.release()
  })

  it('leaves out what another desk holds, and stands what that desk recorded of it already', async () => {
    const { drafts, run } = await queuedRun(3)
    // Ana's run holds the first two; her record of the first reached this desk's replica while
    // this run held it (the exchange leaves a draft a run holds as it is).
    main.held = [drafts[0]!.id, drafts[1]!.id]
    main.inReplica = [createdByAna(drafts[0]!)]
    const log: string[] = []
    const claims = await claimRun(run, (line) => log.push(line))
    const both = [drafts[0]!.barcode, drafts[1]!.barcode].sort().join(', ')
    expect(log).toEqual([`2 drafts left out (${both}): ana’s desk is sending them to Production.`])
    expect((await syncRuns.queued(run.id)).map((item) => item.key)).toEqual([drafts[2]!.id])
    const standings = await db.skuDrafts.bulkGet(drafts.map((draft) => draft.id))
    expect(standings.map((draft) => stateAt(draft!.sync, PRODUCTION))).toEqual(['synced', 'draft', 'queued'])
    if (claims.ok) await claims.claims.release()
  })

  it('writes each request’s outcomes, with what was sent, before it releases the claims', async () => {
    const { drafts, run } = await queuedRun(2)
    const claims = await claimedRun(run)
    await sent(run, [
      { key: drafts[0]!.id, state: 'synced', remoteId: 'plat-0' },
      { key: drafts[1]!.id, state: 'rejected', message: 'barcode: not a GTIN' },
    ])
    claims.recorded(
      drafts.map((draft) => draft.id),
      3_500,
    )
    await claims.release()
    expect(main.calls).toEqual(['claim', 'record', 'release'])
    const positions = new Map(
      (await syncRuns.history(drafts[0]!.id)).map(({ item }) => [item.key, item.position]),
    )
    expect(main.writes.flat()).toEqual([
      {
        kind: 'sku',
        draft: drafts[0]!.id,
        position: positions.get(drafts[0]!.id),
        label: drafts[0]!.barcode,
        state: 'synced',
        at: 3_500,
        remoteId: 'plat-0',
        sent: drafts[0]!.payload,
      },
      expect.objectContaining({ draft: drafts[1]!.id, state: 'rejected', message: 'barcode: not a GTIN' }),
    ])
  })

  it('keeps the claims when the outcomes cannot be written: no other desk may send those drafts meanwhile', async () => {
    const { drafts, run } = await queuedRun(1)
    const claims = await claimedRun(run)
    await sent(run, [{ key: drafts[0]!.id, state: 'unknown', message: 'No answer' }])
    main.failWrites = true
    claims.recorded([drafts[0]!.id], 2)
    await expect(claims.release()).rejects.toThrow(
      'the outcomes of 1 draft could not be written to the team workspace, so its claims are kept until they run out',
    )
    expect(main.calls).not.toContain('release')
    // Written once the server answers again.
    main.failWrites = false
    await claims.release()
    expect(main.writes.flat()).toMatchObject([{ draft: drafts[0]!.id, state: 'unknown' }])
    expect(main.calls.at(-1)).toBe('release')
  })
})
