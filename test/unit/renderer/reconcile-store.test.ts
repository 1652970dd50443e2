import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import { BUILT_IN_PROFILES, type ProfileView } from '#shared/profile.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { standingTag } from '#shared/sync/standing.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { setStanding } from './standings.ts'

// "Check the platform" with a list that carries the platform's ids (issue #34), as the Sync page
// drives it: the SKUs created on the sandbox without an id are counted, a list file is read and
// shown, and one confirmation gives them their ids; a list that cannot be trusted changes nothing.

const DEST = EMBEDDED_SANDBOX_DESTINATION
const sandbox: ProfileView = {
  ...BUILT_IN_PROFILES[0]!,
  url: 'http://127.0.0.1:1',
  destination: DEST,
  hasToken: true,
  tokenStorage: 'embedded-sandbox',
  builtIn: true,
}
// The store runs in the page: a `window` with the bridge, as the preload builds it. Nothing is sent.
Object.assign(globalThis, {
  window: {
    addEventListener: () => {},
    api: { listProfiles: async () => ({ profiles: [sandbox], activeId: 'sandbox' }) },
  },
})

const { db, skuDrafts } = await import('#renderer/db/index.ts')
const { useReconcileStore } = await import('#renderer/stores/reconcile.ts')
const { useSyncStore } = await import('#renderer/stores/sync.ts')

const csv = (name: string, text: string) => new File([text], name, { type: 'text/csv' })

/** Three SKUs created on the sandbox by answers that named no id (b2 keeps one), and b3 never sent. */
async function seed(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {}
  for (let i = 0; i < 4; i++) {
    const draft = await skuDrafts.create({ ...structuredClone(full), barcode: `b${i}` } as Sku, 1_000 - i)
    ids[`b${i}`] = draft.id
    if (i === 3) continue
    await setStanding(db.skuDrafts, draft.id, 'synced', DEST, {
      sent: payloadFingerprint(draft.payload),
      ...(i === 2 ? { remoteId: 'old-2' } : {}),
    })
  }
  return ids
}

const remoteIdOf = async (id: string) => (await skuDrafts.get(id))!.sync[DEST]?.remoteId
const stored = () => db.skuDrafts.orderBy('id').toArray()

async function opened() {
  const store = useReconcileStore()
  await useSyncStore().init()
  // The count follows the sync store's refresh, which it watches.
  await expect.poll(() => store.withoutIds, { timeout: 10_000 }).toBe(2)
  return store
}

beforeEach(async () => {
  setActivePinia(createPinia())
  await Promise.all([
    db.skuDrafts.clear(),
    db.syncRuns.clear(),
    db.syncItems.clear(),
    db.syncRequests.clear(),
  ])
})

describe('the platform’s ids from a list, on the Sync page', () => {
  it('counts the SKUs without an id, shows what the list gives, and records it on one confirmation', async () => {
    const ids = await seed()
    const store = await opened()
    await store.readList(csv('platform.csv', 'barcode,skuId\nb0,p-0\nb1,p-1\nb2,p-2\nb3,p-3\n'))
    expect(store.error).toBe('')
    const shown = store.preview!
    expect(shown.ids).toEqual({ column: 'skuId', listed: 4 })
    expect(shown.plan.ids.map(({ draft, remoteId }) => [draft.barcode, draft.remoteId, remoteId])).toEqual([
      ['b0', undefined, 'p-0'],
      ['b1', undefined, 'p-1'],
      ['b2', 'old-2', 'p-2'],
    ])
    // b3 was never sent: its id is for nothing here.
    expect(shown.plan.unmatched).toEqual(['b3'])
    // Nothing is written before the confirmation.
    expect(await remoteIdOf(ids.b0!)).toBeUndefined()

    await store.confirm('leave')
    expect(store.error).toBe('')
    expect(store.outcome).toBe(
      '3 SKUs on Sandbox got their platform id from the list: they can be updated. ' +
        '1 of them kept another id, which the list’s replaced (the platform shows it now): b2 (kept old-2, the list has p-2).',
    )
    expect([await remoteIdOf(ids.b0!), await remoteIdOf(ids.b1!), await remoteIdOf(ids.b2!)]).toEqual([
      'p-0',
      'p-1',
      'p-2',
    ])
    expect(await db.skuDrafts.where('standing').equals(standingTag(DEST, 'no-id')).count()).toBe(0)
    await expect.poll(() => store.withoutIds, { timeout: 10_000 }).toBe(0)
  })

  it('refuses a list that gives a barcode two ids, naming it, and changes nothing', async () => {
    await seed()
    const store = await opened()
    const before = await stored()
    await store.readList(csv('platform.csv', 'barcode,_id\nb0,p-0\nb1,p-1\nb0,p-9\n'))
    expect(store.error).toBe(
      '“platform.csv” was refused: Barcode b0 is listed with two ids: p-0 and p-9 (rows 2 and 4). ' +
        'The platform keeps one SKU a barcode: keep the row of the right one. Nothing was changed.',
    )
    expect(store.preview).toBeUndefined()
    expect(await stored()).toEqual(before)
    expect(store.withoutIds).toBe(2)
  })

  it('refuses an id that could not travel in an address, naming its row', async () => {
    await seed()
    const store = await opened()
    const before = await stored()
    await store.readList(csv('ids.csv', 'barcode,platform id\nb0,p-0\nb1,p/1\n'))
    expect(store.error).toMatch(
      /^“ids\.csv” was refused: Row 3 holds the id "p\/1" in the column "platform id": /,
    )
    expect(store.error).toMatch(/Nothing was changed\.$/)
    expect(store.preview).toBeUndefined()
    expect(await stored()).toEqual(before)
  })

  it('reads a list without ids as before: no id is given, and the dialog can say the list has none', async () => {
    const ids = await seed()
    const store = await opened()
    await store.readList(csv('barcodes.csv', 'barcode\nb0\nb1\n'))
    const shown = store.preview!
    expect(shown.ids).toBeUndefined()
    expect(shown.plan).toEqual({ listed: [], rest: [], ids: [], idsKnown: 0, unmatched: ['b0', 'b1'] })
    expect(await remoteIdOf(ids.b0!)).toBeUndefined()
    expect(store.withoutIds).toBe(2)
  })
})
