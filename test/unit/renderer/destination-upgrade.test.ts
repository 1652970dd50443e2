import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { legacyRunDestination, UNRECORDED_DESTINATION } from '#renderer/db/destination-upgrade.ts'
import { eligible, SyncRunRepository } from '#renderer/db/sync-runs.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import { appDraftColumns } from '#shared/apps/validate-app-draft.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { liveTag, standingTag, stateAt } from '#shared/sync/standing.ts'
import appRequest from '../../fixtures/app-create-request.json'
import full from '../../fixtures/sku-eyewear-full.json'

// A database as version 4 of the app left it, opened by today's: the upgrade to sync state per
// destination (src/renderer/src/db/destination-upgrade.ts).

const SANDBOX = EMBEDDED_SANDBOX_DESTINATION
/** Staging as version 4 recorded its address: with a trailing slash. */
const STAGING_URL = 'https://api.pixelbinz0.de/'
const STAGING = 'https://api.pixelbinz0.de'
const PRODUCTION = 'https://api.pixelbin.io'

let name = ''
let db: CatalogDatabase | undefined

beforeEach(() => {
  name = `catalog-desk-upgrade-${crypto.randomUUID()}`
})

afterEach(async () => {
  db?.close()
  db = undefined
  await Dexie.delete(name)
})

/** Version 4 exactly as database.ts declared it before version 5 (each version's stores as they were). */
function versionFour(): Dexie {
  const v4 = new Dexie(name)
  v4.version(1).stores({
    skuDrafts: 'id, updatedAt, productName, brand, barcode, category, status, validity, syncState',
    appDrafts: 'id, updatedAt, name, syncState',
  })
  v4.version(2).stores({
    skuDrafts:
      'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, syncState, *terms',
  })
  v4.version(3).stores({ skuUndo: '[batch+id], batch' })
  v4.version(4).stores({
    syncRuns: 'id, createdAt, state',
    syncItems: '[run+position], [run+state+position], [run+key], key',
    syncRequests: 'id, [runId+startedAt]',
  })
  return v4
}

/** A SKU draft as version 4 wrote it: one `syncState`, no standings. */
function v4Sku(id: string, syncState: string) {
  const payload = { ...structuredClone(full), barcode: id } as Sku
  return { id, payload, createdAt: 1, updatedAt: 2, syncState, ...draftColumns(payload) }
}

/** A run as version 4 wrote it: a profile and the address it had then, no destination. */
function v4Run(
  id: string,
  profileId: string,
  url: string,
  createdAt: number,
  kind = 'skus',
  state = 'finished',
) {
  return {
    id,
    kind,
    profileId,
    profileName: profileId,
    url,
    batchSize: kind === 'skus' ? 50 : 1,
    concurrency: 1,
    createdAt,
    updatedAt: createdAt + 50,
    state,
    total: 1,
  }
}

function v4Item(run: string, position: number, key: string, state: string, extra: object = {}) {
  return { run, position, key, label: key, state, requestId: `${run}/r${position}`, ...extra }
}

// Run ids sort against their age: the latest run's items are read first, so "latest" must come
// from the runs' times, not from the order items are stored in.
const OLD_SANDBOX = 'b-sandbox' // the embedded sandbox on an old port, createdAt 100
const STAGING_RUN = 'a-staging' // createdAt 200
const OPEN_SANDBOX = 'c-sandbox' // the embedded sandbox on another port, still open, createdAt 300
const APPS_RUN = 'd-apps' // createdAt 120

const appResponse = { ...structuredClone(appRequest), _id: 'app-1', created_at: '2025-01-01T00:00:00Z' }

/** Fills a version 4 database: drafts in every state, runs to the sandbox and to Staging, their items. */
async function fillVersionFour() {
  const v4 = versionFour()
  await v4.open()
  await v4.table('skuDrafts').bulkAdd([
    v4Sku('s-draft', 'draft'),
    v4Sku('s-synced', 'synced'),
    v4Sku('s-unknown', 'unknown'),
    v4Sku('s-rejected', 'rejected'),
    v4Sku('s-two-runs', 'synced'),
    v4Sku('s-queued', 'queued'),
    v4Sku('s-orphan', 'failed'),
    // Refused, then taken back to editing: `draft` again, though a run holds its item.
    v4Sku('s-returned', 'draft'),
  ])
  const appPayload = structuredClone(appRequest) as AppCreateRequest
  await v4.table('appDrafts').bulkAdd([
    {
      id: 'app-synced',
      payload: appPayload,
      createdAt: 1,
      updatedAt: 2,
      syncState: 'synced',
      remoteId: 'app-1',
      remoteCreatedAt: 170,
      response: appResponse,
      ...appDraftColumns(appPayload),
    },
    {
      id: 'app-draft',
      payload: appPayload,
      createdAt: 1,
      updatedAt: 3,
      syncState: 'draft',
      ...appDraftColumns(appPayload),
    },
  ])
  await v4
    .table('syncRuns')
    .bulkAdd([
      v4Run(OLD_SANDBOX, 'sandbox', 'http://127.0.0.1:53123', 100),
      v4Run(STAGING_RUN, 'staging', STAGING_URL, 200),
      v4Run(OPEN_SANDBOX, 'sandbox', 'http://127.0.0.1:41999', 300, 'skus', 'open'),
      v4Run(APPS_RUN, 'sandbox', 'http://127.0.0.1:53123', 120, 'apps'),
    ])
  await v4.table('syncItems').bulkAdd([
    v4Item(OLD_SANDBOX, 0, 's-synced', 'synced'),
    v4Item(OLD_SANDBOX, 1, 's-unknown', 'unknown', { message: 'HTTP 502' }),
    v4Item(OLD_SANDBOX, 2, 's-two-runs', 'failed', { message: 'HTTP 500' }),
    v4Item(OLD_SANDBOX, 3, 's-returned', 'rejected', { message: 'barcode: taken' }),
    v4Item(STAGING_RUN, 0, 's-rejected', 'rejected', { message: 'no' }),
    // Sent again (failed drafts may be) by the later run, to Staging: that run set its state.
    v4Item(STAGING_RUN, 1, 's-two-runs', 'synced'),
    v4Item(OPEN_SANDBOX, 0, 's-queued', 'queued'),
    v4Item(APPS_RUN, 0, 'app-synced', 'synced', { remoteId: 'app-1', response: appResponse }),
  ])
  v4.close()
}

async function upgraded(): Promise<CatalogDatabase> {
  await fillVersionFour()
  db = new CatalogDatabase(name)
  await db.open()
  return db
}

describe('the upgrade from version 4: sync state per destination', () => {
  it('gives every run its destination: the embedded sandbox whatever its port, a service its address', async () => {
    const db = await upgraded()
    expect(db.verno).toBe(14)
    const runs = Object.fromEntries((await db.syncRuns.toArray()).map((run) => [run.id, run]))
    expect(runs[OLD_SANDBOX]).toMatchObject({ destination: SANDBOX, url: 'http://127.0.0.1:53123' })
    expect(runs[OPEN_SANDBOX]).toMatchObject({ destination: SANDBOX, url: 'http://127.0.0.1:41999' })
    expect(runs[APPS_RUN]).toMatchObject({ destination: SANDBOX })
    // Normalised: the trailing slash version 4 kept is not part of the destination.
    expect(runs[STAGING_RUN]).toMatchObject({ destination: STAGING, url: STAGING_URL })
    // The new index finds them.
    expect((await db.syncRuns.where('destination').equals(SANDBOX).primaryKeys()).sort()).toEqual(
      [APPS_RUN, OLD_SANDBOX, OPEN_SANDBOX].sort(),
    )
    // A custom profile on the sandbox's port of the day is that address: nothing says it was the sandbox.
    expect(legacyRunDestination({ profileId: 'local', url: 'http://127.0.0.1:53123/' })).toBe(
      'http://127.0.0.1:53123',
    )
  })

  it('moves each draft’s state to the destination of its latest run, with that item’s run and place', async () => {
    const db = await upgraded()
    const drafts = Object.fromEntries((await db.skuDrafts.toArray()).map((draft) => [draft.id, draft]))
    for (const draft of Object.values(drafts)) expect(draft).not.toHaveProperty('syncState')

    expect(drafts['s-draft']).toMatchObject({ sync: {}, standing: [] })
    expect(drafts['s-returned']).toMatchObject({ sync: {}, standing: [] })
    // Version 9 adds what stands there, by fingerprint (what was sent, or the draft if unedited since).
    expect(drafts['s-synced']!.sync).toEqual({
      [SANDBOX]: { state: 'synced', run: OLD_SANDBOX, position: 0, at: 150, sent: expect.any(String) },
    })
    expect(drafts['s-unknown']!.sync).toEqual({
      [SANDBOX]: { state: 'unknown', run: OLD_SANDBOX, position: 1, at: 150 },
    })
    expect(drafts['s-rejected']!.sync).toEqual({
      [STAGING]: { state: 'rejected', run: STAGING_RUN, position: 0, at: 250 },
    })
    // In two runs: the later one (to Staging) set its state, whatever order the items are read in.
    expect(drafts['s-two-runs']!.sync).toEqual({
      [STAGING]: { state: 'synced', run: STAGING_RUN, position: 1, at: 250, sent: expect.any(String) },
    })
    expect(drafts['s-queued']!.sync).toEqual({
      [SANDBOX]: { state: 'queued', run: OPEN_SANDBOX, position: 0, at: 350 },
    })
    // A state no run recorded is kept apart, under a destination no profile leads to.
    expect(drafts['s-orphan']!.sync).toEqual({
      [UNRECORDED_DESTINATION]: { state: 'failed', run: '', position: -1, at: 0 },
    })
    expect(UNRECORDED_DESTINATION).toBe('unrecorded')

    // The standing index: a tag a destination, and one for a live state anywhere.
    expect(drafts['s-queued']!.standing.sort()).toEqual(
      [standingTag(SANDBOX, 'queued'), liveTag('queued')].sort(),
    )
    const tagged = (tag: string) => db.skuDrafts.where('standing').equals(tag).primaryKeys()
    expect(await tagged(standingTag(SANDBOX, 'synced'))).toEqual(['s-synced'])
    expect(await tagged(standingTag(SANDBOX, 'unknown'))).toEqual(['s-unknown'])
    expect(await tagged(standingTag(SANDBOX, 'failed'))).toEqual([])
    expect(await tagged(standingTag(STAGING, 'synced'))).toEqual(['s-two-runs'])
    expect(await tagged(standingTag(STAGING, 'rejected'))).toEqual(['s-rejected'])
    expect(await tagged(liveTag('queued'))).toEqual(['s-queued'])
    expect(await tagged(standingTag(UNRECORDED_DESTINATION, 'failed'))).toEqual(['s-orphan'])
    // The index of the one state is gone with it.
    expect(db.skuDrafts.schema.indexes.map((index) => index.name)).not.toContain('syncState')
  })

  it('moves a created app’s id, time and answer into its standing where it was created', async () => {
    const db = await upgraded()
    const app = (await db.appDrafts.get('app-synced'))!
    expect(app.sync).toEqual({
      [SANDBOX]: {
        state: 'synced',
        run: APPS_RUN,
        position: 0,
        at: 170,
        remoteId: 'app-1',
        remoteCreatedAt: 170,
        response: appResponse,
      },
    })
    for (const moved of ['syncState', 'remoteId', 'remoteCreatedAt', 'response'])
      expect(app).not.toHaveProperty(moved)
    expect(app.standing).toEqual([standingTag(SANDBOX, 'synced')])
    expect(app.payload).toEqual(appRequest)
    expect(await db.appDrafts.get('app-draft')).toMatchObject({ sync: {}, standing: [] })
    expect(await db.appDrafts.where('standing').equals(standingTag(SANDBOX, 'synced')).primaryKeys()).toEqual(
      ['app-synced'],
    )
  })

  it('leaves drafts that work: counted and offered at each destination by what was sent there', async () => {
    const db = await upgraded()
    const runs = new SyncRunRepository(db)
    expect(await runs.preflight('skus', SANDBOX)).toEqual({
      // Never sent to the sandbox, as far as the records go: the draft, the returned one, the two
      // that went to Staging, and the one whose state no run recorded.
      ready: 5,
      invalid: 0,
      synced: 1,
      unknown: 1,
      failed: 0,
      rejected: 0,
      inRun: 1,
    })
    expect(await runs.preflight('skus', STAGING)).toMatchObject({
      ready: 5,
      synced: 1,
      rejected: 1,
      inRun: 1,
    })
    expect(await runs.preflight('apps', SANDBOX)).toMatchObject({ ready: 1, synced: 1, inRun: 0 })

    // Synced on the sandbox: never sent there again, but offered to Production.
    const synced = (await db.skuDrafts.get('s-synced'))!
    expect(eligible(synced, SANDBOX)).toBe(false)
    expect(eligible(synced, PRODUCTION)).toBe(true)
    // Held by the open run: offered nowhere.
    expect(eligible((await db.skuDrafts.get('s-queued'))!, PRODUCTION)).toBe(false)

    const target = {
      id: 'production',
      name: 'Production',
      url: `${PRODUCTION}/`,
      destination: PRODUCTION,
      batchSize: 50,
      concurrency: 1,
    }
    expect((await runs.enqueue('skus', { target, ids: ['s-synced'] })).queued).toBe(1)
    // The same draft to the sandbox: refused, it was created there.
    const sandboxTarget = {
      ...target,
      id: 'sandbox',
      name: 'Sandbox',
      url: 'http://127.0.0.1:1',
      destination: SANDBOX,
    }
    expect((await runs.enqueue('skus', { target: sandboxTarget, ids: ['s-synced'] })).queued).toBe(0)
    const now = (await db.skuDrafts.get('s-synced'))!
    expect(stateAt(now.sync, SANDBOX)).toBe('synced')
    expect(stateAt(now.sync, PRODUCTION)).toBe('queued')
    // Its history: the new run and the one version 4 recorded, latest first.
    expect((await runs.history('s-synced')).map(({ run, item }) => [run.destination, item.state])).toEqual([
      [PRODUCTION, 'queued'],
      [SANDBOX, 'synced'],
    ])
    // Queued for Production, it is in a run, and still synced (not ready) on the sandbox.
    expect(await runs.preflight('skus', SANDBOX)).toEqual({
      ready: 5,
      invalid: 0,
      synced: 1,
      unknown: 1,
      failed: 0,
      rejected: 0,
      inRun: 2,
    })
  })
})
