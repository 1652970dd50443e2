import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
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
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { readBarcodeList } from '#shared/sheet/barcode-list.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import type { ItemUpdate } from '#shared/sync/ports.ts'
import { stateAt, standingTag, withStanding } from '#shared/sync/standing.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { clearStanding, DEST } from './standings.ts'

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
    expect(result).toEqual({
      created: 3,
      released: [ids.b4, ids.b6, ids.b7],
      withErrors: 0,
      movedOn: 0,
      ids: 0,
      replaced: [],
    })
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
    expect(result).toEqual({ created: 3, released: [], withErrors: 0, movedOn: 0, ids: 0, replaced: [] })
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

/**
 * As a creation whose bulk answer gave no id stands: synced, what was sent kept as what stands
 * there, the platform's id unknown (or `remoteId`, one an earlier list gave).
 */
async function createdWithoutId(id: string, remoteId?: string) {
  const draft = (await db.skuDrafts.get(id))!
  const standing = draft.sync[DEST]!
  expect(standing.state).toBe('synced')
  const next = { ...standing, sent: payloadFingerprint(draft.payload), ...(remoteId ? { remoteId } : {}) }
  await db.skuDrafts.put({ ...draft, ...withStanding(draft, DEST, next) })
}

/** A list file read as the panel reads it, and what it would do at DEST. */
async function planOf(text: string) {
  const list = await readBarcodeList(new TextEncoder().encode(text))
  const undecided = await reconcile.undecided(DEST)
  const ids = list.ids && {
    byBarcode: list.ids.byBarcode,
    created: await reconcile.created(DEST, list.ids.byBarcode.keys()),
  }
  return planReconcile(undecided, list.barcodes, ids)
}

const noIdTagged = async (id: string) => (await drafts.get(id))!.standing.includes(standingTag(DEST, 'no-id'))

describe('a list with the platform’s ids', () => {
  it('gives ids to the drafts created there, synced or undecided, and they leave the no-id index', async () => {
    const { ids, run } = await seed()
    // b0 b1 were created with answers that named no id; b1 keeps one an older list gave.
    await createdWithoutId(ids.b0!)
    await createdWithoutId(ids.b1!, 'old-1')
    expect(await reconcile.withoutIds(DEST)).toBe(1)
    expect(await noIdTagged(ids.b0!)).toBe(true)

    // b3 is listed without an id; b8 was never sent; zz is another catalogue's.
    const plan = await planOf('barcode,_id\nb0,p-0\nb1,p-1\nb2,p-2\nb3,\nb8,p-8\nzz,p-z\n')
    expect(plan.listed.map((draft) => [draft.barcode, draft.remoteId])).toEqual([
      ['b2', 'p-2'],
      ['b3', undefined],
    ])
    expect(plan.ids).toEqual([
      { draft: { id: ids.b0, barcode: 'b0', productName: 'Frame b0' }, remoteId: 'p-0' },
      { draft: { id: ids.b1, barcode: 'b1', productName: 'Frame b1', remoteId: 'old-1' }, remoteId: 'p-1' },
    ])
    expect(plan.unmatched).toEqual(['b8', 'zz'])

    const progress: Array<[number, number]> = []
    const result = await reconcile.decide(DEST, {
      created: plan.listed,
      resend: [],
      ids: plan.ids,
      source: 'platform.csv',
      now: 9_000,
      chunk: 3,
      onProgress: (done, total) => progress.push([done, total]),
    })
    // The list wins over the id b1 kept, and says so.
    expect(result).toEqual({
      created: 2,
      released: [],
      withErrors: 0,
      movedOn: 0,
      ids: 3,
      replaced: [{ id: ids.b1, barcode: 'b1', was: 'old-1', now: 'p-1' }],
    })
    expect(progress).toEqual([
      [3, 4],
      [4, 4],
    ])

    // Synced ones keep their standing, now with the id.
    const b0 = (await drafts.get(ids.b0!))!.sync[DEST]!
    expect(b0).toMatchObject({ state: 'synced', run: run.id, position: 0, remoteId: 'p-0' })
    expect((await drafts.get(ids.b1!))!.sync[DEST]!.remoteId).toBe('p-1')
    // b2 is marked created with its id, and what was sent stands there: it can be updated.
    const b2 = (await drafts.get(ids.b2!))!
    expect(b2.sync[DEST]).toMatchObject({
      state: 'synced',
      remoteId: 'p-2',
      sent: payloadFingerprint(b2.payload),
    })
    for (const barcode of ['b0', 'b1', 'b2']) expect(await noIdTagged(ids[barcode]!)).toBe(false)
    // b3 is created too, with no id: it is what the index now counts.
    expect(await stateOf(ids.b3!)).toBe('synced')
    expect((await drafts.get(ids.b3!))!.sync[DEST]!.remoteId).toBeUndefined()
    expect(await noIdTagged(ids.b3!)).toBe(true)
    expect(await reconcile.withoutIds(DEST)).toBe(1)
    // Never sent, never given anything.
    expect((await drafts.get(ids.b8!))!.sync).toEqual({})
  })

  it('compares a synced draft’s own barcode, and leaves one no longer created there', async () => {
    const { ids } = await seed()
    await createdWithoutId(ids.b0!)
    await createdWithoutId(ids.b1!)
    const plan = await planOf('Barcode;SKU id\n b0 ;p-0\nb1;p-1\n')
    expect(plan.ids.map(({ draft }) => draft.barcode)).toEqual(['b0', 'b1'])
    // Meanwhile b1 is forgotten there (as "forget that it was created" does).
    await clearStanding(db.skuDrafts, ids.b1!, DEST)
    const result = await reconcile.decide(DEST, { created: [], resend: [], ids: plan.ids, source: 'l.csv' })
    expect(result).toMatchObject({ ids: 1, movedOn: 1, replaced: [] })
    expect((await drafts.get(ids.b1!))!.sync).toEqual({})
  })

  it('does nothing for a list without ids that it did not do before', async () => {
    const { ids } = await seed()
    await createdWithoutId(ids.b0!)
    const withoutIds = await reconcile.withoutIds(DEST)
    const plan = await planOf('barcode,name\nb0,x\nb2,y\n')
    expect(plan).toMatchObject({ ids: [], idsKnown: 0, unmatched: ['b0'] })
    expect(plan.listed.map((draft) => [draft.barcode, draft.remoteId])).toEqual([['b2', undefined]])
    const result = await reconcile.decide(DEST, { created: plan.listed, resend: [], source: 'l.csv' })
    expect(result).toMatchObject({ created: 1, ids: 0, replaced: [] })
    expect((await drafts.get(ids.b0!))!.sync[DEST]!.remoteId).toBeUndefined()
    // b2, created now, has no id either: one more that cannot be updated yet.
    expect(await reconcile.withoutIds(DEST)).toBe(withoutIds + 1)
    expect(await noIdTagged(ids.b2!)).toBe(true)
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
