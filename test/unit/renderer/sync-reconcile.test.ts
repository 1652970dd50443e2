import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/draft-kinds.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox } from '#renderer/db/sync-outbox.ts'
import {
  listedMessage,
  planReconcile,
  sheetTime,
  SyncReconciler,
  undecidedFile,
  UNDECIDED_COLUMNS,
  type UndecidedDraft,
} from '#renderer/db/sync-reconcile.ts'
import { SyncRunRepository, type RunTarget } from '#renderer/db/sync-runs.ts'
import type { SyncRunRecord } from '#renderer/db/sync-records.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import type { ItemUpdate } from '#shared/sync/ports.ts'
import { stateAt } from '#shared/sync-state.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { DEST } from './standings.ts'

// Reconciliation without a read endpoint: the drafts undecided at a destination, read for export,
// and decided by a list of the barcodes the platform has.

const OTHER = 'https://api.example.com'
const target = (destination: string, id: string): RunTarget => ({
  id,
  name: id === 'sandbox' ? 'Sandbox' : id,
  url: `${destination}/`,
  destination,
  batchSize: 2,
  concurrency: 1,
})
const TO_DEST = target(DEST, 'sandbox')

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let runs: SyncRunRepository
let reconcile: SyncReconciler

beforeEach(() => {
  name = `catalog-desk-reconcile-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  runs = new SyncRunRepository(db)
  reconcile = new SyncReconciler(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (barcode: string, extra: Record<string, unknown> = {}): Sku =>
  ({ ...structuredClone(full), barcode, productName: `Frame ${barcode}`, ...extra }) as Sku

/**
 * Sends a run two items a request; each request's items end as `outcome` says for its first key
 * (a batch ends as one), with that state's message. Returns the requests' ids in order.
 */
async function sendRun(
  run: SyncRunRecord,
  outcome: (key: string) => ItemUpdate['state'],
  startedAt = 1_000,
): Promise<string[]> {
  const outbox = new DexieSyncOutbox(db, run)
  const ids: string[] = []
  let at = startedAt
  for (let page = await outbox.queuedAfter(-Infinity, 2); page.length > 0;) {
    const keys = page.map((item) => item.key)
    const state = outcome(keys[0]!)
    const request = { id: `${run.id}/${ids.length}`, runId: run.id, kind: 'skus' as const, keys, bytes: 1 }
    ids.push(request.id)
    await outbox.beginRequest({ ...request, startedAt: at })
    const message = state === 'synced' ? undefined : `the batch ended ${state}`
    await outbox.endRequest(
      {
        ...request,
        startedAt: at,
        endedAt: at + 5,
        outcome: {
          kind: state === 'synced' ? 'created' : state === 'unknown' ? 'unknown' : 'failed',
          processed: state === 'synced' ? 'yes' : 'maybe',
          message: message ?? 'Created',
          durationMs: 5,
          action: '',
        },
      },
      keys.map((key) => ({ key, state, ...(message ? { message } : {}) })),
    )
    at += 1_000
    page = await outbox.queuedAfter(page.at(-1)!.position, 2)
  }
  await runs.setState(run.id, 'finished')
  return ids
}

const stateOf = async (id: string, destination = DEST) => stateAt((await drafts.get(id))!.sync, destination)

/**
 * Eight drafts sent to DEST two a request: b0 b1 synced, b2 b3 unknown, b4 b5 failed, b6 b7
 * unknown. b8 never sent. Returns the ids by barcode, the run and its requests.
 */
async function seed() {
  const ids: Record<string, string> = {}
  for (let i = 0; i < 9; i++) ids[`b${i}`] = (await drafts.create(sku(`b${i}`), 1_000 - i)).id
  const byKey = new Map(Object.entries(ids).map(([barcode, id]) => [id, barcode]))
  const outcomes: Record<string, ItemUpdate['state']> = { b2: 'unknown', b4: 'failed', b6: 'unknown' }
  const queued = await runs.enqueue('skus', {
    target: TO_DEST,
    ids: ['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7'].map((b) => ids[b]!),
    now: 500,
  })
  const requests = await sendRun(queued.run, (key) => outcomes[byKey.get(key)!] ?? 'synced')
  return { ids, run: queued.run, requests }
}

const barcodesOf = (list: readonly UndecidedDraft[]) => list.map((draft) => draft.barcode)

describe('undecided drafts at a destination', () => {
  it('lists the unknown and failed drafts whose standing still names their item, with what a person needs', async () => {
    const { ids, run, requests } = await seed()
    const found = await reconcile.undecided(DEST)
    expect(barcodesOf(found)).toEqual(['b2', 'b3', 'b4', 'b5', 'b6', 'b7'])
    expect(found[0]).toEqual({
      id: ids.b2,
      barcode: 'b2',
      productName: 'Frame b2',
      state: 'unknown',
      run: { id: run.id, createdAt: 500, profileName: 'Sandbox' },
      position: 2,
      requestId: requests[1],
      sentAt: 2_000,
      message: 'the batch ended unknown',
    })
    expect(found[2]).toMatchObject({ state: 'failed', requestId: requests[2], sentAt: 3_000 })
    // Another destination has none.
    expect(await reconcile.undecided(OTHER)).toEqual([])
  })

  it('leaves out drafts that moved on, and reads the barcode that was sent, not an edit since', async () => {
    const { ids, requests } = await seed()
    // b4/b5's batch is decided in the history; b7 was edited since it was sent.
    await runs.resolve(requests[2]!, 'created')
    await saveDraftPayload(db, 'skus', ids.b7!, sku('b7-edited', { productName: 'Renamed' }))
    const found = await reconcile.undecided(DEST, 1)
    expect(barcodesOf(found)).toEqual(['b2', 'b3', 'b6', 'b7'])
    expect(found.at(-1)).toMatchObject({ id: ids.b7, barcode: 'b7', productName: 'Frame b7' })
  })

  it('splits them by a list of barcodes: listed, the rest, and barcodes that match none', async () => {
    const { ids } = await seed()
    const found = await reconcile.undecided(DEST)
    // The platform has b0 b1 (synced) and b2 b3 (the dropped answer's); one barcode is another catalogue's.
    const plan = planReconcile(found, [' b2', 'b3 ', 'b0', 'b1', 'x-99'])
    expect(barcodesOf(plan.listed)).toEqual(['b2', 'b3'])
    expect(barcodesOf(plan.rest)).toEqual(['b4', 'b5', 'b6', 'b7'])
    expect(plan.unmatched).toEqual(['b0', 'b1', 'x-99'])
    expect(plan.listed[0]!.id).toBe(ids.b2)
  })
})

describe('deciding by a list', () => {
  it('marks the listed created and returns the rest to draft, moving items, standings and requests together', async () => {
    const { ids, run, requests } = await seed()
    const plan = planReconcile(await reconcile.undecided(DEST), ['b0', 'b1', 'b2', 'b3', 'b5'])
    expect(barcodesOf(plan.listed)).toEqual(['b2', 'b3', 'b5'])
    const progress: Array<[number, number]> = []
    const result = await reconcile.decide(DEST, {
      created: plan.listed,
      resend: plan.rest,
      source: 'platform.csv',
      now: 9_000,
      chunk: 2,
      onProgress: (done, total) => progress.push([done, total]),
    })
    expect(result).toEqual({ created: 3, released: [ids.b4, ids.b6, ids.b7], withErrors: 0, movedOn: 0 })
    expect(progress).toEqual([
      [2, 6],
      [4, 6],
      [6, 6],
    ])

    // Listed: synced there, the item says which list.
    for (const barcode of ['b2', 'b3', 'b5']) {
      expect(await stateOf(ids[barcode]!)).toBe('synced')
      const draft = (await drafts.get(ids[barcode]!))!
      expect(draft.sync[DEST]).toMatchObject({ state: 'synced', run: run.id, at: 9_000 })
      const item = await db.syncItems.get([run.id, draft.sync[DEST]!.position])
      expect(item).toMatchObject({ state: 'synced', message: listedMessage('platform.csv') })
    }
    // The rest: back to draft there, their items left in the history as they ended.
    for (const barcode of ['b4', 'b6', 'b7']) {
      expect(await stateOf(ids[barcode]!)).toBe('draft')
      const item = (await db.syncItems.where('[run+key]').equals([run.id, ids[barcode]!]).first())!
      expect(item.state).toBe(barcode === 'b4' ? 'failed' : 'unknown')
    }
    // Every request is decided: the history no longer shows one waiting.
    const stored = await db.syncRequests.bulkGet(requests)
    expect(stored.map((request) => request?.resolution)).toEqual([
      undefined,
      { choice: 'created', at: 9_000 },
      { choice: 'resend', at: 9_000 },
      { choice: 'resend', at: 9_000 },
    ])
    expect(await runs.undecided(run.id)).toEqual([])
    expect(await reconcile.undecided(DEST)).toEqual([])

    // A new run to the destination takes exactly the returned drafts; the created ones never again.
    const again = await runs.enqueue('skus', {
      target: TO_DEST,
      ids: [ids.b2!, ids.b3!, ids.b4!, ids.b5!, ids.b6!, ids.b7!],
    })
    expect(again.queued).toBe(3)
    const queued = await db.syncItems.where('run').equals(again.run.id).toArray()
    expect(queued.map((item) => item.key)).toEqual([ids.b4, ids.b6, ids.b7])
    // The old items are still in the drafts' history.
    expect((await runs.history(ids.b4!)).map((entry) => entry.item.state)).toEqual(['queued', 'failed'])
  })

  it('leaves the rest undecided when asked; a request with an item still waiting stays waiting', async () => {
    const { ids, run, requests } = await seed()
    const plan = planReconcile(await reconcile.undecided(DEST), ['b2', 'b3', 'b4'])
    const result = await reconcile.decide(DEST, { created: plan.listed, resend: [], source: 'list.txt' })
    expect(result).toEqual({ created: 3, released: [], withErrors: 0, movedOn: 0 })
    expect(await stateOf(ids.b5!)).toBe('failed')
    const stored = await db.syncRequests.bulkGet(requests)
    expect(stored[1]?.resolution?.choice).toBe('created')
    // b4 is created, b5 still waits: its batch still waits for a decision.
    expect(stored[2]?.resolution).toBeUndefined()
    expect((await runs.undecided(run.id)).map((request) => request.id)).toEqual([requests[2], requests[3]])
    expect(barcodesOf(await reconcile.undecided(DEST))).toEqual(['b5', 'b6', 'b7'])
  })

  it('leaves a draft that was decided or taken since the list was read', async () => {
    const { ids, requests } = await seed()
    const plan = planReconcile(await reconcile.undecided(DEST), ['b2'])
    // Meanwhile: b2/b3's batch is sent again from the history, and b6 is edited into an error.
    await runs.resolve(requests[1]!, 'resend')
    await saveDraftPayload(db, 'skus', ids.b6!, sku('b6', { isActive: 'yes' }))
    const result = await reconcile.decide(DEST, {
      created: plan.listed,
      resend: plan.rest.filter((draft) => draft.barcode !== 'b3'),
      source: 'list.csv',
    })
    expect(result.created).toBe(0)
    expect(result.movedOn).toBe(1)
    expect(result.released).toEqual([ids.b4, ids.b5, ids.b6, ids.b7])
    // b6 is back to draft there, but no run takes it until it is fixed.
    expect(result.withErrors).toBe(1)
    expect(await stateOf(ids.b6!)).toBe('draft')
    const again = await runs.enqueue('skus', { target: TO_DEST, ids: result.released })
    expect(again.queued).toBe(3)
    // The resend's queued drafts stay that run's.
    expect(await stateOf(ids.b2!)).toBe('queued')
    expect(await stateOf(ids.b3!)).toBe('queued')
  })

  it('touches no other destination', async () => {
    const { ids } = await seed()
    // b0 (synced on DEST) went to OTHER with an unknown outcome.
    const toOther = await runs.enqueue('skus', { target: target(OTHER, 'production'), ids: [ids.b0!] })
    await sendRun(toOther.run, () => 'unknown')
    expect(barcodesOf(await reconcile.undecided(OTHER))).toEqual(['b0'])
    const plan = planReconcile(await reconcile.undecided(DEST), ['b0', 'b2'])
    expect(plan.unmatched).toEqual(['b0'])
    await reconcile.decide(DEST, { created: plan.listed, resend: plan.rest, source: 'l.csv' })
    expect(await stateOf(ids.b0!, OTHER)).toBe('unknown')
    expect(await stateOf(ids.b0!, DEST)).toBe('synced')
  })
})

describe('the export of undecided drafts', () => {
  const drafted = (over: Partial<UndecidedDraft>): UndecidedDraft => ({
    id: 'd',
    barcode: '0012345',
    productName: 'Frame',
    state: 'unknown',
    run: { id: 'r', createdAt: Date.UTC(2025, 2, 1, 14, 3, 11), profileName: 'Sandbox' },
    position: 0,
    requestId: 'req-1',
    sentAt: Date.UTC(2025, 2, 1, 14, 4, 0),
    message: 'The connection dropped after the request was sent',
    ...over,
  })

  it('writes CSV escaped against formulas, barcodes as text with their leading zeros', async () => {
    const rows = [drafted({}), drafted({ barcode: '42', productName: '=HYPERLINK("http://evil.example")' })]
    const file = await undecidedFile(rows, 'csv', new Date(Date.UTC(2025, 2, 1, 15, 0)))
    expect(file.name).toBe('catalog-desk-undecided-202503011500.csv')
    expect(file.type).toBe('text/csv;charset=utf-8')
    const sheet = parseCsvText(await file.text())
    expect(sheet.headers).toEqual([...UNDECIDED_COLUMNS])
    expect(sheet.rows[0]).toEqual([
      '0012345',
      'Frame',
      `${sheetTime(rows[0]!.run.createdAt)} · Sandbox`,
      sheetTime(rows[0]!.sentAt!),
      'req-1',
      'unknown',
      'The connection dropped after the request was sent',
    ])
    expect(sheet.rows[1]![1]).toBe(`'=HYPERLINK("http://evil.example")`)
  })

  it('writes XLSX whose barcode cells are text', async () => {
    const file = await undecidedFile([drafted({})], 'xlsx')
    const sheet = await readXlsx(new Uint8Array(await file.arrayBuffer()))
    expect(sheet.headers).toEqual([...UNDECIDED_COLUMNS])
    expect(sheet.rows[0]![0]).toBe('0012345')
    expect(sheet.rows[0]![5]).toBe('unknown')
  })

  it('says times in local time with their offset', () => {
    expect(sheetTime(Date.UTC(2025, 2, 1, 14, 3, 11))).toMatch(/^2025-03-0[12] \d\d:03:11 [+-]\d\d:\d\d$/)
  })
})
