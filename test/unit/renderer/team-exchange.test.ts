import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { newDraftRecord, SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { AppDraftRepository } from '#renderer/db/app-drafts.ts'
import { SkuBulkEdits } from '#renderer/db/sku-bulk-edits.ts'
import { SkuUndoLog } from '#renderer/db/sku-undo-log.ts'
import {
  applyArrivals,
  applySettled,
  exchangeState,
  forWorkspace,
  recordShared,
  waitingShares,
} from '#renderer/db/team-exchange.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { DraftArrival } from '#shared/team/draft-exchange.ts'

// The page's side of the team workspace's exchange (issue #41): what this desk edited is shared
// once, on the revision it was based on; what arrived replaces a draft unless this desk edited it
// since, which keeps the desk's edit for the workspace to hold beside the other (a conflict).

let name = ''
let db: CatalogDatabase

beforeEach(() => {
  name = `catalog-desk-test-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (productName: string): Sku => ({ productName, brand: 'Lumen', barcode: '4006381333931' })

async function draft(productName: string, now: number) {
  const record = newDraftRecord(sku(productName), now)
  await db.skuDrafts.add(record)
  return record.id
}

/** Shares what is waiting as the replica would answer: revision `n-<hash>` for each. */
async function shareAll(rev: (id: string) => string, conflict = false) {
  const shares = await waitingShares(db, 'skus')
  await recordShared(
    db,
    'skus',
    shares,
    shares.map((share) => ({ kind: 'sku', id: share.id, rev: rev(share.id), conflict })),
    'ana',
  )
  return shares
}

const arrival = (
  id: string,
  rev: string,
  productName: string,
  more: Partial<DraftArrival> = {},
): DraftArrival => ({
  kind: 'sku',
  id,
  rev,
  payload: sku(productName),
  deleted: false,
  editedBy: 'ben',
  editedAt: 7,
  conflicts: 0,
  ...more,
})

describe('the drafts’ exchange with the team workspace, in the page', () => {
  it('shares each edited draft once, on the revision it last had, and never a "New SKU" left untouched', async () => {
    const aviator = await draft('Aviator', 1_000)
    await new SkuDraftRepository(db).create(sku('untouched'), 1_001)
    const first = await shareAll(() => '1-aaa')
    expect(first.map((share) => [share.id, share.base, share.payload.productName])).toEqual([
      [aviator, undefined, 'Aviator'],
    ])
    expect((await db.skuDrafts.get(aviator))?.team).toEqual({
      rev: '1-aaa',
      sharedAt: 1_000,
      editedBy: 'ana',
      editedAt: 1_000,
      conflicts: 0,
    })
    expect(await waitingShares(db, 'skus')).toEqual([])

    // Typed into, a "New SKU" is a draft like any other.
    const typed = (await db.skuDrafts.where('productName').equals('untouched').first())!
    await saveDraftPayload(db, 'skus', typed.id, sku('touched'), 1_500)
    expect((await shareAll(() => '1-ttt')).map((share) => share.payload.productName)).toEqual(['touched'])

    await saveDraftPayload(db, 'skus', aviator, sku('Aviator Gold'), 2_000)
    const second = await waitingShares(db, 'skus')
    expect(second.map((share) => [share.base, share.payload.productName])).toEqual([
      ['1-aaa', 'Aviator Gold'],
    ])
  })

  it('an edit made while its share was under way is shared next, on the revision that share got', async () => {
    const aviator = await draft('Aviator', 1_000)
    const shares = await waitingShares(db, 'skus')
    await saveDraftPayload(db, 'skus', aviator, sku('Aviator Gold'), 2_000)
    await recordShared(
      db,
      'skus',
      shares,
      [{ kind: 'sku', id: aviator, rev: '1-aaa', conflict: false }],
      'ana',
    )
    const next = await waitingShares(db, 'skus')
    expect(next.map((share) => [share.base, share.payload.productName])).toEqual([['1-aaa', 'Aviator Gold']])
  })

  it('applies what arrived: a new draft, a new version of one, a deletion; the sequence kept with them', async () => {
    const round = await draft('Round', 1_000)
    const square = await draft('Square', 1_000)
    await shareAll((id) => (id === round ? '1-r' : '1-s'))

    const applied = await applyArrivals(
      db,
      {
        arrivals: [
          arrival('from-ben', '1-b', 'Pilot 55'),
          arrival(round, '2-r', 'Round 50', { conflicts: 1 }),
          arrival(square, '2-s', 'Square', { deleted: true }),
        ],
        last: '17',
      },
      5_000,
    )
    expect(applied).toEqual({ skus: 3, apps: 0 })
    expect(await db.skuDrafts.get('from-ben')).toMatchObject({
      productName: 'Pilot 55',
      validity: expect.any(String),
      terms: expect.arrayContaining(['pilot']),
      team: { rev: '1-b', editedBy: 'ben', editedAt: 7, conflicts: 0 },
    })
    expect(await db.skuDrafts.get(round)).toMatchObject({
      productName: 'Round 50',
      updatedAt: 5_000,
      team: { rev: '2-r', sharedAt: 5_000, editedBy: 'ben', conflicts: 1 },
    })
    expect(await db.skuDrafts.get(square)).toBeUndefined()
    expect((await exchangeState(db)).since).toBe('17')
    // Arrived, they are not shared back.
    expect(await waitingShares(db, 'skus')).toEqual([])
  })

  it('a draft edited here and not shared yet keeps its edit when another version arrives, and is shared on the revision it had', async () => {
    const round = await draft('Round', 1_000)
    await shareAll(() => '1-r')
    await saveDraftPayload(db, 'skus', round, sku('Round by Ana'), 2_000)
    const applied = await applyArrivals(
      db,
      { arrivals: [arrival(round, '2-b', 'Round by Ben')], last: '3' },
      3_000,
    )
    expect(applied.skus).toBe(0)
    expect(await db.skuDrafts.get(round)).toMatchObject({ productName: 'Round by Ana' })
    const waiting = await waitingShares(db, 'skus')
    expect(waiting.map((share) => [share.base, share.payload.productName])).toEqual([['1-r', 'Round by Ana']])
    // The workspace keeps Ana's edit beside Ben's: one conflict, said on the draft.
    await recordShared(db, 'skus', waiting, [{ kind: 'sku', id: round, rev: '2-a', conflict: true }], 'ana')
    expect((await db.skuDrafts.get(round))?.team).toMatchObject({ rev: '2-a', conflicts: 1 })
  })

  it('an editor’s edit made on a version another desk’s replaced meanwhile is shared on the version it was made on', async () => {
    const round = await draft('Round', 1_000)
    await shareAll(() => '1-r')
    // The editor shows "Round" (1-r); Ben's version arrives and replaces it in the database.
    await applyArrivals(db, { arrivals: [arrival(round, '2-b', 'Round by Ben')], last: '3' }, 3_000)
    await saveDraftPayload(db, 'skus', round, sku('Round by Ana'), 4_000, {
      payload: sku('Round'),
      rev: '1-r',
    })
    const waiting = await waitingShares(db, 'skus')
    expect(waiting.map((share) => [share.base, share.payload.productName])).toEqual([['1-r', 'Round by Ana']])
    // An edit on the version the database has (the editor followed it) is an edit like any other.
    await recordShared(db, 'skus', waiting, [{ kind: 'sku', id: round, rev: '2-a', conflict: true }], 'ana')
    const stored = (await db.skuDrafts.get(round))!
    await saveDraftPayload(db, 'skus', round, sku('Round 50'), 5_000, { payload: stored.payload, rev: '1-r' })
    expect((await waitingShares(db, 'skus')).map((share) => share.base)).toEqual(['2-a'])
  })

  it('settling a conflict writes the kept version here, or deletes the draft when the deletion was kept', async () => {
    const round = await draft('Round', 1_000)
    const square = await draft('Square', 1_000)
    await shareAll((id) => (id === round ? '1-r' : '1-s'))
    await applySettled(
      db,
      'skus',
      round,
      { kept: { payload: sku('Round 50'), deleted: false }, rev: '3-k', editedBy: 'ana' },
      5_000,
    )
    expect(await db.skuDrafts.get(round)).toMatchObject({
      productName: 'Round 50',
      team: { rev: '3-k', conflicts: 0, sharedAt: 5_000 },
    })
    await applySettled(
      db,
      'skus',
      square,
      { kept: { payload: {}, deleted: true }, rev: '3-d', editedBy: 'ana' },
      5_000,
    )
    expect(await db.skuDrafts.get(square)).toBeUndefined()
    expect(await waitingShares(db, 'skus')).toEqual([])
  })

  it('joined to another workspace, the drafts’ standings and the sequences start over; the drafts stay', async () => {
    await forWorkspace(db, 'https://couch.example.com/autumn')
    const round = await draft('Round', 1_000)
    await shareAll(() => '1-r')
    await applyArrivals(db, { arrivals: [], last: '42' }, 2_000)
    await forWorkspace(db, 'https://couch.example.com/autumn')
    expect((await exchangeState(db)).since).toBe('42')

    await forWorkspace(db, 'https://couch.example.com/winter')
    expect(await exchangeState(db)).toMatchObject({
      since: '0',
      workspace: 'https://couch.example.com/winter',
    })
    expect((await db.skuDrafts.get(round))?.team).toBeUndefined()
    expect((await waitingShares(db, 'skus')).map((share) => [share.id, share.base])).toEqual([
      [round, undefined],
    ])
  })

  it('its own version coming back changes nothing but its conflicts', async () => {
    const round = await draft('Round', 1_000)
    await shareAll(() => '1-r')
    const echo = { arrivals: [arrival(round, '1-r', 'Round', { editedBy: 'ana' })], last: '2' }
    expect(await applyArrivals(db, echo, 9_000)).toEqual({ skus: 0, apps: 0 })
    expect(await db.skuDrafts.get(round)).toMatchObject({ updatedAt: 1_000 })
  })

  it('finds the drafts waiting to be shared on their mark, whatever wrote them, and never one that arrived', async () => {
    const marked = async () => (await db.skuDrafts.where('teamWaiting').equals(1).primaryKeys()).sort()
    const round = await draft('Round', 1_000)
    const square = await draft('Square', 1_000)
    await shareAll((id) => (id === round ? '1-r' : '1-s'))
    const arrived = Array.from({ length: 50 }, (_, k) => arrival(`from-ben-${k}`, `1-b${k}`, `Pilot ${k}`))
    await applyArrivals(db, { arrivals: arrived, last: '60' }, 2_000)
    expect(await marked()).toEqual([])

    // A save, a bulk edit of an arrived draft, an undo of that edit: each marks what it wrote.
    await saveDraftPayload(db, 'skus', round, sku('Round 50'), 3_000)
    const undoLog = new SkuUndoLog(db)
    await new SkuBulkEdits(db, undoLog).setField(['from-ben-7'], 'brand', 'Lumen Optics', { now: 3_100 })
    expect(await marked()).toEqual(['from-ben-7', round].sort())
    expect((await waitingShares(db, 'skus')).map((share) => share.id).sort()).toEqual(await marked())
    // Put back, a draft is shared again (an undo is an edit like any other to the workspace).
    await undoLog.undoLatest()
    expect(await marked()).toEqual(['from-ben-7', round].sort())
    await shareAll(() => '2-r')
    expect(await marked()).toEqual([])
    expect(await db.skuDrafts.get(square)).not.toHaveProperty('teamWaiting')
  })

  describe('deletions', () => {
    const bulk = () => {
      const undoLog = new SkuUndoLog(db)
      return { undoLog, edits: new SkuBulkEdits(db, undoLog) }
    }
    const waiting = async () =>
      (await waitingShares(db, 'skus')).map((share) => [share.id, share.deleted, share.base])

    it('a shared draft deleted here is shared as a deletion on its revision; one never shared leaves nothing', async () => {
      const round = await draft('Round', 1_000)
      await shareAll(() => '1-r')
      const local = await draft('Local only', 1_100)
      const { edits } = bulk()
      await edits.delete([round, local], { now: 2_000 })
      // Never shared, the local draft was waiting to be shared: deleted, it waits no more.
      expect(await waiting()).toEqual([[round, true, '1-r']])
      await shareAll(() => '2-d')
      expect(await waiting()).toEqual([])
      // The deletion coming back, and a later arrival of it, change nothing here.
      const back = { arrivals: [arrival(round, '2-d', '', { deleted: true, payload: {} })], last: '4' }
      expect(await applyArrivals(db, back, 3_000)).toEqual({ skus: 0, apps: 0 })
    })

    it('an edit from another desk against a deletion not shared yet leaves it deleted here, for the workspace to keep both', async () => {
      const round = await draft('Round', 1_000)
      await shareAll(() => '1-r')
      await bulk().edits.delete([round], { now: 2_000 })
      const edit = { arrivals: [arrival(round, '2-b', 'Round by Ben')], last: '5' }
      expect(await applyArrivals(db, edit, 3_000)).toEqual({ skus: 0, apps: 0 })
      expect(await db.skuDrafts.get(round)).toBeUndefined()
      expect(await waiting()).toEqual([[round, true, '1-r']])
    })

    it('a deletion shared here that the workspace keeps beside another desk’s edit brings the draft back, in conflict', async () => {
      const round = await draft('Round', 1_000)
      await shareAll(() => '1-r')
      await bulk().edits.delete([round], { now: 2_000 })
      await shareAll(() => '2-d')
      // Ben's edit stands beside the deletion: main hands it over as the version to show, under its
      // own revision, whichever won (arrivalsSince).
      const beside = { arrivals: [arrival(round, '2-b', 'Round by Ben', { conflicts: 1 })], last: '6' }
      expect(await applyArrivals(db, beside, 3_000)).toEqual({ skus: 1, apps: 0 })
      expect(await db.skuDrafts.get(round)).toMatchObject({
        productName: 'Round by Ben',
        team: { rev: '2-b', conflicts: 1 },
      })
      expect(await waiting()).toEqual([])
    })

    it('undone before it was shared, a deletion is forgotten; undone after, the draft is shared again on the deletion', async () => {
      const round = await draft('Round', 1_000)
      const square = await draft('Square', 1_000)
      await shareAll((id) => (id === round ? '1-r' : '1-s'))
      const { edits, undoLog } = bulk()

      await edits.delete([round], { now: 2_000 })
      await undoLog.undoLatest()
      expect(await waiting()).toEqual([])
      expect(await db.skuDrafts.get(round)).toMatchObject({ productName: 'Round', team: { rev: '1-r' } })

      await edits.delete([square], { now: 3_000 })
      await shareAll(() => '2-d')
      await undoLog.undoLatest()
      expect(await waiting()).toEqual([[square, false, '2-d']])
    })

    it('an app draft deleted and put back goes the same way', async () => {
      const apps = new AppDraftRepository(db)
      const app = await apps.create(undefined, 1_000, false)
      const appShares = async () =>
        (await waitingShares(db, 'apps')).map((share) => [share.id, share.deleted, share.base ?? null])
      expect(await appShares()).toEqual([[app.id, false, null]])
      const shares = await waitingShares(db, 'apps')
      await recordShared(
        db,
        'apps',
        shares,
        [{ kind: 'app', id: app.id, rev: '1-a', conflict: false }],
        'ana',
      )
      const deleted = await apps.delete(app.id, 2_000)
      expect(await appShares()).toEqual([[app.id, true, '1-a']])
      await apps.restore(deleted)
      expect(await appShares()).toEqual([])
    })
  })
})

describe('the upgrade to waiting marks (schema version 14)', () => {
  /** A version 13 database holding drafts, joined to `workspace` when one is given. */
  async function version13(workspace?: string) {
    const v13 = new Dexie(name)
    v13.version(13).stores({
      skuDrafts:
        'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms, *gaps',
      appDrafts: 'id, updatedAt, name, *standing',
      teamExchange: 'key',
      teamDeletions: 'key',
    })
    const standing = { editedBy: 'ben', editedAt: 7, conflicts: 0 }
    await v13.table('skuDrafts').bulkAdd([
      // Edited here since it arrived, never shared, and as it arrived.
      {
        ...newDraftRecord(sku('Edited'), 2_000),
        id: 'edited',
        team: { rev: '1-e', sharedAt: 1_000, ...standing },
      },
      { ...newDraftRecord(sku('Local'), 2_000), id: 'local' },
      {
        ...newDraftRecord(sku('Arrived'), 1_000),
        id: 'arrived',
        team: { rev: '1-a', sharedAt: 1_000, ...standing },
      },
    ])
    if (workspace)
      await v13
        .table('teamExchange')
        .put({ key: 'exchange', workspace, since: '9', sharedFrom: { skus: 0, apps: 0 } })
    v13.close()
    db = new CatalogDatabase(name)
  }
  const shared = async () => (await waitingShares(db, 'skus')).map((share) => share.id).sort()

  it('on a desk joined to a workspace, marks the drafts that wait to be shared', async () => {
    await version13('https://couch.example.com/autumn')
    expect(await shared()).toEqual(['edited', 'local'])
    expect(await exchangeState(db)).toMatchObject({ since: '9' })
  })

  it('on a desk never joined, writes nothing; joining marks every draft, to be shared', async () => {
    await version13()
    expect(await shared()).toEqual([])
    expect(await db.skuDrafts.get('local')).not.toHaveProperty('teamWaiting')
    await forWorkspace(db, 'https://couch.example.com/autumn')
    expect(await shared()).toEqual(['arrived', 'edited', 'local'])
  })
})
