import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AssetRef } from '#shared/asset-checks/asset-refs.ts'
import type { AssetCheck, AssetStatus } from '#shared/asset-checks/results.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { AssetChecks } from '#renderer/db/asset-checks.ts'
import { assetFailuresIn } from '#renderer/db/asset-check-standing.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { checkDraftAssets, FILES_A_REQUEST, type AssetCheckPorts } from '#renderer/stores/asset-check-run.ts'
import { DEST, setStanding } from './standings.ts'

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let checks: AssetChecks

beforeEach(() => {
  name = `catalog-desk-asset-run-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  checks = new AssetChecks(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

/** A draft naming a product photo and a model; valid enough to be sent. */
function sku(n: number, model: string, photo = `https://cdn.example.com/photos/${n}.png`): Sku {
  return {
    productName: `Frame ${n}`,
    brand: 'Lumen',
    barcode: String(4_000_000_000_000 + n),
    productImage: photo,
    arEffect: { effectAssets3D: [{ assetId: `m${n}`, url: model }] },
  } as Sku
}

/** Main's side: models under /broken/ are errors, under /heavy/ warnings; every call recorded. */
function fakeMain() {
  const requests: AssetRef[][] = []
  const check = async (refs: AssetRef[]): Promise<AssetCheck[]> => {
    requests.push(refs)
    return refs.map((ref) => {
      const status: AssetStatus = ref.url.includes('/broken/')
        ? 'error'
        : ref.url.includes('/heavy/')
          ? 'warning'
          : 'ok'
      const problems =
        status === 'ok' ? [] : [{ severity: status, code: 'x', message: `${status} at ${ref.url}` } as const]
      return { url: ref.url, kind: ref.kind, status, problems }
    })
  }
  return { requests, check }
}

function ports(check: AssetCheckPorts['check']): AssetCheckPorts {
  return {
    read: (ids) => db.skuDrafts.bulkGet([...ids]),
    check,
    save: (found) => checks.saveMany(found),
  }
}

describe('checking the assets of many drafts', () => {
  it("asks main about each file once, in small requests, and keeps every draft's check", async () => {
    // 60 drafts sharing 5 models, one of them broken and one heavy, each with its own photo.
    const ids: string[] = []
    const models = ['a', 'b', 'c', 'broken/d', 'heavy/e'].map((path) => `https://cdn.example.com/${path}.glb`)
    for (let n = 0; n < 60; n++) ids.push((await drafts.create(sku(n, models[n % 5]!))).id)
    const main = fakeMain()
    const progress: number[] = []

    const tally = await checkDraftAssets(ids, ports(main.check), {
      onProgress: (done, total) => {
        expect(total).toBe(60)
        progress.push(done)
      },
    })

    expect(tally).toEqual({ ok: 36, warning: 12, error: 12, gone: 0, stopped: false })
    const asked = main.requests.flat().map((ref) => ref.url)
    expect(asked).toHaveLength(65)
    expect(new Set(asked).size).toBe(65)
    expect(Math.max(...main.requests.map((request) => request.length))).toBeLessThanOrEqual(FILES_A_REQUEST)
    expect(progress.at(-1)).toBe(60)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.length).toBeGreaterThan(2)

    const broken = await checks.of(ids[3]!)
    expect(broken?.status).toBe('error')
    expect(broken?.assets.map((asset) => [asset.field, asset.status])).toEqual([
      ['productImage', 'ok'],
      ['arEffect.effectAssets3D.0.url', 'error'],
    ])
    expect((await checks.idsWith(['error', 'warning'])).length).toBe(24)
  })

  it('judges an address main would refuse without asking, and the others still go', async () => {
    const bad = await drafts.create(sku(1, 'models/frame.glb', 'ftp://files.example.com/1.png'))
    const good = await drafts.create(sku(2, 'https://cdn.example.com/a.glb'))
    const main = fakeMain()
    const tally = await checkDraftAssets([bad.id, good.id], ports(main.check))
    expect(tally).toMatchObject({ ok: 1, error: 1 })
    expect(main.requests.flat().map((ref) => ref.url)).toEqual([
      'https://cdn.example.com/photos/2.png',
      'https://cdn.example.com/a.glb',
    ])
    const refused = await checks.of(bad.id)
    expect(refused?.assets.map((asset) => asset.problems[0]?.code)).toEqual([
      'refused-address',
      'refused-address',
    ])
  })

  it('stops between requests when cancelled, keeping what was checked and leaving the rest as they were', async () => {
    const ids: string[] = []
    for (let n = 0; n < 40; n++)
      ids.push((await drafts.create(sku(n, `https://cdn.example.com/${n}.glb`))).id)
    // The last draft was checked before: a stopped run leaves its earlier check.
    await checks.save({ draftId: ids[39]!, refs: [], checks: [] }, 5)
    const main = fakeMain()
    const stop = new AbortController()
    const tally = await checkDraftAssets(
      ids,
      ports(async (refs) => {
        if (main.requests.length === 1) stop.abort()
        return main.check(refs)
      }),
      { signal: stop.signal },
    )
    expect(tally.stopped).toBe(true)
    expect(main.requests).toHaveLength(2)
    // Two requests of 16 files answer the first 16 drafts (a photo and a model each).
    expect(tally.ok).toBe(16)
    expect(await db.assetChecks.count()).toBe(17)
    expect((await checks.of(ids[39]!))?.checkedAt).toBe(5)
  })

  it('counts drafts deleted since they were chosen, and keeps checks of the others', async () => {
    const kept = await drafts.create(sku(1, 'https://cdn.example.com/a.glb'))
    const tally = await checkDraftAssets(['gone', kept.id], ports(fakeMain().check))
    expect(tally).toMatchObject({ ok: 1, gone: 1 })
    expect(await db.assetChecks.toCollection().primaryKeys()).toEqual([kept.id])
  })
})

describe("the sync pre-flight's asset warning", () => {
  it('names the drafts a run would send whose last check found errors, and those changed since', async () => {
    const [broken, fixed, sent, held, fine, outOfScope] = await Promise.all(
      ['broken/1', 'broken/2', 'broken/3', 'broken/4', 'ok', 'broken/6'].map((path, n) =>
        drafts.create(sku(n, `https://cdn.example.com/${path}.glb`)),
      ),
    )
    const all = [broken!, fixed!, sent!, held!, fine!, outOfScope!]
    await checkDraftAssets(
      all.map((draft) => draft.id),
      ports(fakeMain().check),
    )
    // Fixed since its check: it names another model now.
    await saveDraftPayload(db, 'skus', fixed!.id, sku(1, 'https://cdn.example.com/repaired.glb'))
    await setStanding(db.skuDrafts, sent!.id, 'synced')
    const run = { destination: DEST, includeFailed: false, heldBack: new Set([held!.id]) }

    const everyReady = await assetFailuresIn(db, run)
    expect(everyReady.ids.sort()).toEqual([broken!.id, fixed!.id, outOfScope!.id].sort())
    expect(everyReady.changed).toBe(1)

    const scoped = await assetFailuresIn(db, { ...run, scope: new Set([broken!.id, fine!.id, sent!.id]) })
    expect(scoped).toEqual({ ids: [broken!.id], changed: 0 })
  })
})
