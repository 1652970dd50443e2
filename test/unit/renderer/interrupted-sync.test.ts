import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox } from '#renderer/db/sync-outbox.ts'
import { SyncRunRepository } from '#renderer/db/sync-runs.ts'
import { recoverInterruptedRuns } from '#renderer/stores/interrupted-sync.ts'
import type { Sku } from '#shared/schema/sku.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { stateAt } from '#shared/sync/standing.ts'
import type { SyncAnswers } from '#shared/ipc.ts'
import type { Outcome } from '#shared/service/outcome.ts'

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let runs: SyncRunRepository

beforeEach(() => {
  name = `catalog-desk-recovery-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  runs = new SyncRunRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const target = {
  id: 'sandbox',
  name: 'Sandbox',
  url: 'http://127.0.0.1:1',
  destination: EMBEDDED_SANDBOX_DESTINATION,
  batchSize: 2,
  concurrency: 1,
}

/** A run of four drafts whose first batch left and never came back (a crash, or a failed write). */
async function interruptedRun() {
  for (let i = 0; i < 4; i++)
    await drafts.create({ ...structuredClone(full), barcode: `b${i}` } as Sku, 1_000 - i)
  const { run } = await runs.enqueue('skus', { target })
  const outbox = new DexieSyncOutbox(db, run)
  const batch = await outbox.queuedAfter(-Infinity, 2)
  await outbox.beginRequest({
    id: 'r1',
    runId: run.id,
    kind: 'skus',
    keys: batch.map((item) => item.key),
    bytes: 10,
    startedAt: 1,
  })
  return run
}

/** The drafts' states at the run's destination, by barcode. */
const syncStates = async () =>
  (await db.skuDrafts.orderBy('barcode').toArray()).map((d) => stateAt(d.sync, target.destination))

describe('recovering runs left sending', () => {
  it('an open run: sending becomes unknown, the rest stays queued to resume', async () => {
    await interruptedRun()
    expect(await syncStates()).toEqual(['sending', 'sending', 'queued', 'queued'])
    expect(await recoverInterruptedRuns(db, runs)).toMatchObject({
      recovered: 2,
      busyElsewhere: [],
      stillOut: [],
    })
    expect(await syncStates()).toEqual(['unknown', 'unknown', 'queued', 'queued'])
    // A second pass finds nothing to change.
    expect(await recoverInterruptedRuns(db, runs)).toMatchObject({
      recovered: 0,
      busyElsewhere: [],
      stillOut: [],
      ended: [],
    })
  })

  it('a run that stopped with items sending (its outcome could not be written) is recovered too', async () => {
    const run = await interruptedRun()
    await runs.setState(run.id, 'stopped', { lastMessage: 'The sync records could not be written' })
    expect((await recoverInterruptedRuns(db, runs)).recovered).toBe(2)
    expect(await syncStates()).toEqual(['unknown', 'unknown', 'queued', 'queued'])
    expect((await runs.get(run.id))?.state).toBe('stopped')
  })

  it('leaves alone the run this page is sending', async () => {
    const run = await interruptedRun()
    expect(await recoverInterruptedRuns(db, runs, (id) => id === run.id)).toEqual({
      recovered: 0,
      busyElsewhere: [],
      stillOut: [],
      ended: [],
    })
    expect(await syncStates()).toEqual(['sending', 'sending', 'queued', 'queued'])
  })

  describe('what main answered after the page that sent the request was gone (a reload)', () => {
    const answering = (answers: SyncAnswers) => async () => answers
    const created: Outcome = {
      kind: 'created',
      processed: 'yes',
      status: 201,
      message: 'Created.',
      durationMs: 40,
      body: {
        skus: [
          { barcode: 'b0', _id: 'sku-0' },
          { barcode: 'b1', _id: 'sku-1' },
        ],
      },
    }

    it('a creation main had the answer to is created, with the platform’s ids, not unknown', async () => {
      await interruptedRun()
      const recovery = await recoverInterruptedRuns(db, runs, undefined, answering({ r1: created }))
      expect(recovery).toMatchObject({ recovered: 0, busyElsewhere: [], stillOut: [] })
      // The two it settled, for the team's send records.
      expect(recovery.ended.map(({ keys }) => keys.length)).toEqual([2])
      expect(await syncStates()).toEqual(['synced', 'synced', 'queued', 'queued'])
      const [first] = await db.skuDrafts.orderBy('barcode').toArray()
      expect(first!.sync[target.destination]).toMatchObject({ remoteId: 'sku-0' })
      expect((await db.syncRequests.get('r1'))?.outcome).toMatchObject({
        kind: 'created',
        action: 'answered after the window that sent it was reloaded or closed; synced',
      })
    })

    it('a request main still has out stays sending until main answers; then it is written', async () => {
      await interruptedRun()
      expect(await recoverInterruptedRuns(db, runs, undefined, answering({ r1: 'sending' }))).toEqual({
        recovered: 0,
        busyElsewhere: [],
        stillOut: ['r1'],
        ended: [],
      })
      expect(await syncStates()).toEqual(['sending', 'sending', 'queued', 'queued'])
      // The service refused the batch, naming one SKU: the engine would split it, so both go back
      // to the queue for the run's resume (nothing of a refused batch was created).
      const refused: Outcome = {
        kind: 'rejected',
        processed: 'no',
        status: 400,
        message: 'Refused.',
        durationMs: 40,
        problems: [{ path: 'skus.1.barcode', message: 'taken' }],
      }
      await recoverInterruptedRuns(db, runs, undefined, answering({ r1: refused }))
      expect(await syncStates()).toEqual(['queued', 'queued', 'queued', 'queued'])
      expect((await db.syncRequests.get('r1'))?.outcome).toMatchObject({
        kind: 'rejected',
        action: 'answered after the window that sent it was reloaded or closed; queued again',
      })
    })

    it('a run cancelled while main had its request out: what the answer puts back in the queue goes back to draft', async () => {
      const run = await interruptedRun()
      await runs.releaseQueued(run.id)
      expect(await syncStates()).toEqual(['sending', 'sending', 'draft', 'draft'])
      const busy: Outcome = {
        kind: 'retry-later',
        processed: 'no',
        status: 503,
        message: 'Busy.',
        durationMs: 5,
      }
      await recoverInterruptedRuns(db, runs, undefined, answering({ r1: busy }))
      expect(await syncStates()).toEqual(['draft', 'draft', 'draft', 'draft'])
      expect((await runs.get(run.id))?.state).toBe('cancelled')
    })

    it('each run writes only its own requests’ answers: two runs left open, both answered', async () => {
      await interruptedRun()
      // A second run, of two drafts made since, its one request open too.
      for (let i = 0; i < 2; i++)
        await drafts.create({ ...structuredClone(full), barcode: `c${i}` } as Sku, 2_000 - i)
      const { run: second } = await runs.enqueue('skus', { target })
      const outbox = new DexieSyncOutbox(db, second)
      const batch = await outbox.queuedAfter(-Infinity, 2)
      await outbox.beginRequest({
        id: 'o1',
        runId: second.id,
        kind: 'skus',
        keys: batch.map((item) => item.key),
        bytes: 10,
        startedAt: 2,
      })
      const both: Outcome = { ...created, body: [] }
      await recoverInterruptedRuns(db, runs, undefined, answering({ r1: both, o1: both }))
      expect(await syncStates()).toEqual(['synced', 'synced', 'queued', 'queued', 'synced', 'synced'])
    })

    it('an answer that leaves the batch unknown is counted with the drafts recovered as unknown', async () => {
      await interruptedRun()
      const reset: Outcome = { kind: 'unknown', processed: 'maybe', message: 'Reset.', durationMs: 5 }
      expect((await recoverInterruptedRuns(db, runs, undefined, answering({ r1: reset }))).recovered).toBe(2)
      expect(await syncStates()).toEqual(['unknown', 'unknown', 'queued', 'queued'])
    })

    it('a request main does not know (it restarted meanwhile) is unknown, as before', async () => {
      await interruptedRun()
      expect((await recoverInterruptedRuns(db, runs, undefined, answering({}))).recovered).toBe(2)
      expect(await syncStates()).toEqual(['unknown', 'unknown', 'queued', 'queued'])
    })

    it('main not answering at all leaves the requests unknown, and the start goes on', async () => {
      await interruptedRun()
      const silent = async (): Promise<SyncAnswers> => {
        throw new Error('No handler registered for syncAnswers')
      }
      expect((await recoverInterruptedRuns(db, runs, undefined, silent)).recovered).toBe(2)
    })
  })
})
