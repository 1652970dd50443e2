import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bulkFields, bulkValueProblem } from '#shared/validation/bulk-fields.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { BulkRefusal, SkuBulkEdits } from '#renderer/db/sku-bulk-edits.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { SkuUndoLog } from '#renderer/db/sku-undo-log.ts'
import { actionLabel } from '#renderer/words/undo.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import partial from '../../fixtures/sku-partial-meta.json'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { standingTag, stateAt } from '#shared/sync/standing.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import { skuColumns } from '#shared/sheet/columns.ts'
import { DEST, setStanding } from './standings.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'

/** Another destination, where the draft sent on `DEST` was refused. */
const OTHER = 'https://api.example.com'

const copy = <T>(value: T): T => structuredClone(value)
let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let bulk: SkuBulkEdits
let undoLog: SkuUndoLog

beforeEach(() => {
  name = `catalog-desk-bulk-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  undoLog = new SkuUndoLog(db)
  bulk = new SkuBulkEdits(db, undoLog)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

/**
 * Three drafts never sent, one already sent (synced on `DEST`, refused on `OTHER`) and one a run
 * holds (queued), created at time 1000.
 */
async function seed(): Promise<{ ids: string[]; sent: string; held: string; before: SkuDraftRecord[] }> {
  const ids: string[] = []
  for (const [i, payload] of [
    copy(full),
    copy(partial),
    { productName: 'Pearl Necklace', brand: 'Lumen' },
  ].entries()) {
    ids.push((await drafts.create({ ...payload, barcode: `400${i}` } as Sku, 1000)).id)
  }
  const sent = (await drafts.create(copy(full), 1000)).id
  await setStanding(db.skuDrafts, sent, 'synced')
  await setStanding(db.skuDrafts, sent, 'rejected', OTHER)
  const held = (await drafts.create(copy(full), 1000)).id
  await setStanding(db.skuDrafts, held, 'queued')
  return { ids, sent, held, before: await db.skuDrafts.orderBy('id').toArray() }
}

const everything = () => db.skuDrafts.orderBy('id').toArray()

describe('setting a field on many drafts', () => {
  it('sets the value, recomputes the columns and validity, and skips what it must not edit', async () => {
    const { ids, sent, held } = await seed()
    const gone = crypto.randomUUID()
    const result = await bulk.setField([...ids, sent, held, gone], 'brand', 'Contoso Vision', { now: 5000 })
    expect(result).toMatchObject({ count: 4, unchanged: 0, skipped: { inRun: 1, sent: 0, missing: 1 } })
    for (const id of [...ids, sent]) {
      const draft = await drafts.get(id)
      expect(draft).toMatchObject({ brand: 'Contoso Vision', updatedAt: 5000 })
      expect(draft?.payload.brand).toBe('Contoso Vision')
      expect(draft?.terms).toEqual(expect.arrayContaining(['contoso', 'vision']))
    }
    // A sent draft is edited as in the form: still synced where it was, its refusal cleared.
    const edited = await drafts.get(sent)
    expect(stateAt(edited?.sync, DEST)).toBe('synced')
    expect(stateAt(edited?.sync, OTHER)).toBe('draft')
    // What a run holds does not change.
    expect(await drafts.get(held)).toMatchObject({ brand: 'Northwind Optics', updatedAt: 1000 })
    expect(stateAt((await drafts.get(held))?.sync, DEST)).toBe('queued')

    // The same value again changes nothing, not even the time of the last edit.
    const again = await bulk.setField(ids, 'brand', 'Contoso Vision', { now: 6000 })
    expect(again).toMatchObject({ count: 0, unchanged: 3 })
    expect((await drafts.get(ids[0]!))?.updatedAt).toBe(5000)
  })

  it('recomputes validity: a nested number, and removing a field', async () => {
    const { ids } = await seed()
    await bulk.setField([ids[0]!], 'arEffect.envSettings.intensity', 2.5)
    expect((await drafts.get(ids[0]!))?.payload.arEffect?.envSettings?.intensity).toBe(2.5)
    expect((await drafts.get(ids[0]!))?.validity).toBe('valid')

    await bulk.setField([ids[0]!], 'productImage', undefined)
    const draft = await drafts.get(ids[0]!)
    expect(draft?.payload).not.toHaveProperty('productImage')
    expect(draft).toMatchObject({ validity: 'warnings', warningCount: 1 })

    await bulk.setField([ids[2]!], 'meta.frameShape', 'round')
    expect((await drafts.get(ids[2]!))?.payload.meta).toEqual({ frameShape: 'round' })
  })

  it('refuses a value the form would reject, before touching anything', async () => {
    const { ids, before } = await seed()
    await expect(bulk.setField(ids, 'isActive', 'yes')).rejects.toThrow(BulkRefusal)
    await expect(bulk.setField(ids, 'productImage', 'cdn.example.com/a.png')).rejects.toThrow(
      'Product image must be a web address starting with http:// or https://',
    )
    await expect(bulk.setField(ids, 'arEffect.envSettings.intensity', 'high')).rejects.toThrow(
      /Intensity must be a number/,
    )
    await expect(bulk.setField(ids, 'meta.lensWidth', 58)).rejects.toThrow(/Lens width must be text/)
    await expect(bulk.setField(ids, 'brand', '')).rejects.toThrow(/Type a value for Brand/)
    await expect(bulk.setField(ids, 'id', 'x')).rejects.toThrow(/not a field/)
    expect(await everything()).toEqual(before)
  })

  it('is all or nothing: a draft failing half-way leaves every draft as it was', async () => {
    const { ids, before } = await seed()
    const failing = ids[1]!
    // What a full disk or a broken record looks like to the code: a write that throws.
    db.skuDrafts.hook('updating', (_changes, key) => {
      if (key === failing) throw new Error('QuotaExceededError: the disk is full')
    })
    await expect(bulk.setField(ids, 'brand', 'Contoso')).rejects.toThrow(/disk is full/)
    expect(await everything()).toEqual(before)
    expect(await db.skuUndo.count()).toBe(0)
  })

  it('reports progress chunk by chunk', async () => {
    const { ids } = await seed()
    const progress: number[] = []
    const missing = Array.from({ length: 1197 }, () => crypto.randomUUID())
    await bulk.setField([...ids, ...missing], 'status', 'PUBLISHED', {
      onProgress: (done, total) => progress.push(done / total),
    })
    expect(progress).toEqual([500 / 1200, 1000 / 1200, 1])
  })

  it('offers every value field outside lists, named as the form names them', () => {
    const paths = bulkFields().map((field) => field.path)
    expect(paths).toEqual(
      expect.arrayContaining([
        'brand',
        'category',
        'subCategory',
        'status',
        'isActive',
        'version',
        'meta.frameShape',
        'meta.dimensions.unit',
        'arEffect.envSettings.intensity',
        'arEffect.envSettings.useDefaultEnvironment',
        'arEffect.transform.position.x',
      ]),
    )
    expect(paths.some((path) => path.includes('*'))).toBe(false)
    expect(bulkFields().find((field) => field.path === 'arEffect.envSettings.toneMapping')).toMatchObject({
      title: 'Tone mapping',
      group: 'AR effect › Environment',
      kind: 'text',
      examples: ['aces', 'neutral', 'agx', 'commerce'],
    })
    expect(bulkValueProblem('orgId', '')).toBeUndefined()
    expect(bulkValueProblem('isActive', false)).toBeUndefined()
  })
})

describe('duplicating drafts', () => {
  it('makes copies with new ids and times, " (copy)" after the name and the same barcode', async () => {
    const { ids, sent, held, before } = await seed()
    const result = await bulk.duplicate([ids[0]!, sent, held], { now: 9000 })
    expect(result).toMatchObject({ count: 3, skipped: { inRun: 0, sent: 0, missing: 0 } })
    const [first, second, third] = await Promise.all(result.ids.map((id) => drafts.get(id)))
    expect(first).toMatchObject({
      productName: 'Aviator Classic Gold 58 (copy)',
      barcode: '4000',
      createdAt: 9000,
      updatedAt: 9000,
      sync: {},
      standing: [],
      validity: 'valid',
    })
    expect(first?.payload).toEqual({
      ...full,
      barcode: '4000',
      productName: 'Aviator Classic Gold 58 (copy)',
    })
    // A copy of a sent draft, or of one a run holds, is a new draft, sent nowhere.
    expect(second).toMatchObject({ sync: {}, standing: [], productName: 'Aviator Classic Gold 58 (copy)' })
    expect(third).toMatchObject({ sync: {}, standing: [], productName: 'Aviator Classic Gold 58 (copy)' })
    expect(result.ids).not.toContain(ids[0])
    // The originals are untouched.
    const originals = await db.skuDrafts.bulkGet(before.map((record) => record.id))
    expect(originals).toEqual(before)
  })

  it('is all or nothing: a copy that cannot be added leaves no copy behind', async () => {
    const { ids, before } = await seed()
    const real = crypto.randomUUID.bind(crypto)
    let calls = 0
    // The third copy draws an id that is taken (a constraint violation half-way through).
    vi.spyOn(crypto, 'randomUUID').mockImplementation(() => (++calls === 3 ? (ids[0] as never) : real()))
    await expect(bulk.duplicate(ids)).rejects.toThrow(/ConstraintError|Key already exists/)
    expect(await everything()).toEqual(before)
  })
})

describe('deleting drafts and undoing', () => {
  it('deletes in one go and undo puts them back exactly', async () => {
    const { ids, sent, held, before } = await seed()
    const result = await bulk.delete([...ids, sent, held])
    expect(result).toMatchObject({ count: 3, skipped: { inRun: 1, sent: 1, missing: 0 } })
    expect((await everything()).map((record) => record.id)).toEqual([sent, held].sort())

    expect(await undoLog.undo(result.batch)).toEqual({ restored: 3, removed: 0, keptEdited: 0, keptSent: 0 })
    expect(await everything()).toEqual(before)
    expect(await db.skuUndo.count()).toBe(0)
  })

  it('deletes a draft only tried on the built-in Sandbox, and keeps one sent anywhere else too', async () => {
    const { ids } = await seed()
    const [tried, triedAndSent] = [ids[0]!, ids[1]!]
    await setStanding(db.skuDrafts, tried, 'synced', EMBEDDED_SANDBOX_DESTINATION)
    await setStanding(db.skuDrafts, triedAndSent, 'synced', EMBEDDED_SANDBOX_DESTINATION)
    await setStanding(db.skuDrafts, triedAndSent, 'synced', DEST)
    const result = await bulk.delete([tried, triedAndSent])
    expect(result).toMatchObject({ count: 1, skipped: { inRun: 0, sent: 1, missing: 0 } })
    expect(await drafts.get(tried)).toBeUndefined()
    expect(await drafts.get(triedAndSent)).toBeDefined()
    // Undo brings it back with where it stands on the Sandbox.
    await undoLog.undo(result.batch)
    expect(stateAt((await drafts.get(tried))!.sync, EMBEDDED_SANDBOX_DESTINATION)).toBe('synced')
  })

  it('is all or nothing: a delete that fails half-way deletes nothing', async () => {
    const { ids, before } = await seed()
    db.skuDrafts.hook('deleting', (key) => {
      if (key === ids[2]) throw new Error('the database refused')
    })
    await expect(bulk.delete(ids)).rejects.toThrow(/refused/)
    expect(await everything()).toEqual(before)
  })

  it('undoes a field change, except on a draft edited since', async () => {
    const { ids, before } = await seed()
    const result = await bulk.setField(ids, 'category', 'makeup', { now: 7000 })
    await saveDraftPayload(db, 'skus', ids[1]!, { ...copy(partial), category: 'jewellery' }, 8000)
    expect(await undoLog.undo(result.batch)).toEqual({ restored: 2, removed: 0, keptEdited: 1, keptSent: 0 })
    expect(await drafts.get(ids[0]!)).toEqual(before.find((record) => record.id === ids[0]))
    expect((await drafts.get(ids[1]!))?.category).toBe('jewellery')
  })

  it('undoes a field change on a sent draft, unless a run took it since', async () => {
    const { ids, sent, before } = await seed()
    const result = await bulk.setField([sent, ids[0]!], 'category', 'makeup', { now: 7000 })
    expect(result.count).toBe(2)
    // A run queues the edited draft: what it holds is what undo must not change under it.
    await setStanding(db.skuDrafts, ids[0]!, 'queued')
    expect(await undoLog.undo(result.batch)).toEqual({ restored: 1, removed: 0, keptEdited: 0, keptSent: 1 })
    // The sent draft is back exactly, its refusal included.
    expect(await drafts.get(sent)).toEqual(before.find((record) => record.id === sent))
    expect((await drafts.get(ids[0]!))?.category).toBe('makeup')
  })

  it("takes a deleted draft's asset check with it, and an undone copy's too", async () => {
    const { ids, sent } = await seed()
    const check = (id: string) => ({ id, checkedAt: 1, status: 'error' as const, assets: [] })
    await db.assetChecks.bulkPut([check(ids[0]!), check(sent)])
    await bulk.delete([ids[0]!, sent])
    // The sent draft is kept, and so is its check; the deleted one's check is gone.
    expect(await db.assetChecks.toCollection().primaryKeys()).toEqual([sent])

    const copied = await bulk.duplicate([ids[1]!])
    await db.assetChecks.put(check(copied.ids[0]!))
    await undoLog.undo(copied.batch)
    expect(await db.assetChecks.toCollection().primaryKeys()).toEqual([sent])
  })

  it('undoes a duplicate by removing the copies', async () => {
    const { ids, before } = await seed()
    const result = await bulk.duplicate(ids)
    expect(await db.skuDrafts.count()).toBe(8)
    expect(await undoLog.undo(result.batch)).toEqual({ restored: 0, removed: 3, keptEdited: 0, keptSent: 0 })
    expect(await everything()).toEqual(before)
  })

  it('keeps the earlier actions undoable after a newer one', async () => {
    const { ids } = await seed()
    const first = await bulk.delete([ids[0]!])
    await bulk.delete([ids[1]!])
    expect(await undoLog.undoThrough(first.batch)).toEqual({
      actions: 2,
      result: { restored: 2, removed: 0, keptEdited: 0, keptSent: 0 },
      removedIds: [],
    })
    expect(await drafts.get(ids[0]!)).toBeDefined()
    expect(await drafts.get(ids[1]!)).toBeDefined()
  })

  it('names the batch that can be undone now, the one before once it is undone, and none at the end', async () => {
    const { ids } = await seed()
    expect(await undoLog.latestBatch()).toBeUndefined()
    const first = await bulk.delete([ids[0]!])
    const last = await bulk.duplicate([ids[1]!, ids[2]!])
    expect(await undoLog.latestBatch()).toBe(last.batch)
    await undoLog.undo(last.batch)
    expect(await undoLog.latestBatch()).toBe(first.batch)
    await undoLog.undoLatest()
    expect(await undoLog.latestBatch()).toBeUndefined()
  })
})

const ENVIRONMENT = newSkuPayload().arEffect!.envSettings!

/** A new SKU's payload with a product, and without the environment (as a sheet without its columns leaves it). */
function withoutEnvironment(barcode: string): Sku {
  const payload: Sku = { ...newSkuPayload(), productName: 'Aviator', brand: 'Northwind', barcode }
  delete payload.arEffect!.envSettings
  return payload
}

describe('setting a field whose section a draft lacks', () => {
  it('makes the section from the new-SKU defaults, and the draft has no more problems than before', async () => {
    const ids = [
      (await drafts.create(withoutEnvironment('1'), 1000)).id,
      (await drafts.create({ productName: 'Pearl Necklace', barcode: '2' } as Sku, 1000)).id,
    ]
    const before = await Promise.all(ids.map((id) => drafts.get(id)))

    const result = await bulk.setField(ids, 'arEffect.envSettings.intensity', 2, { now: 5000 })
    expect(result).toMatchObject({ count: 2, unchanged: 0 })
    for (const [i, id] of ids.entries()) {
      const draft = await drafts.get(id)
      expect(draft?.payload.arEffect?.envSettings).toEqual({ ...ENVIRONMENT, intensity: 2 })
      const problems = (d: typeof draft) => (d?.errorCount ?? 0) + (d?.warningCount ?? 0)
      expect(problems(draft)).toBeLessThanOrEqual(problems(before[i]))
    }
    // The necklace had no AR effect at all: it gets the template's, around the new environment.
    expect((await drafts.get(ids[1]!))?.payload.arEffect).toEqual({
      ...newSkuPayload().arEffect,
      envSettings: { ...ENVIRONMENT, intensity: 2 },
    })

    // Undo puts the drafts back as they were, without the sections made for them.
    await undoLog.undo(result.batch)
    expect(await Promise.all(ids.map((id) => drafts.get(id)))).toEqual(before)
  })

  it('changes nothing else of a section the draft has', async () => {
    const payload = withoutEnvironment('1')
    payload.arEffect!.envSettings = { tileX: 4, fieldOfView: '30deg' }
    const id = (await drafts.create(payload, 1000)).id
    await bulk.setField([id], 'arEffect.envSettings.intensity', 2)
    expect((await drafts.get(id))?.payload.arEffect?.envSettings).toEqual({
      tileX: 4,
      fieldOfView: '30deg',
      intensity: 2,
    })
  })

  it('counts a draft holding the value as unchanged, and creates nothing when removing', async () => {
    const holding = (await drafts.create(newSkuPayload(), 1000)).id
    const lacking = (await drafts.create(withoutEnvironment('1'), 1000)).id
    expect(await bulk.setField([holding], 'arEffect.envSettings.intensity', 1)).toMatchObject({
      count: 0,
      unchanged: 1,
    })
    // Removing a value the draft does not have leaves it untouched, its section still absent.
    expect(await bulk.setField([lacking], 'arEffect.envSettings.intensity', undefined)).toMatchObject({
      count: 0,
      unchanged: 1,
    })
    expect((await drafts.get(lacking))?.payload.arEffect).not.toHaveProperty('envSettings')
    expect((await drafts.get(lacking))?.updatedAt).toBe(1000)
  })
})

describe('every field a sheet holds, the 3D asset and the 2D slots included', () => {
  it('offers the sheet’s own columns: the first 3D asset’s id and address, each 2D slot, the environment image', () => {
    const offered = new Map(bulkFields().map((field) => [field.path, field]))
    expect(offered.get('arEffect.effectAssets3D.0.url')).toMatchObject({
      title: 'Model address of 3D asset 1',
      group: 'AR effect › 3D effect assets',
      kind: 'url',
    })
    expect(offered.get('arEffect.effectAssets3D.0.id')).toMatchObject({ title: 'Asset ID of 3D asset 1' })
    expect(offered.get('arEffect.envSettings.environmentImage')).toMatchObject({ kind: 'url' })
    for (let slot = 0; slot < 7; slot++)
      expect(offered.get(`arEffect.effectAssets2D.${slot}`)).toMatchObject({
        title: `2D asset ${slot + 1}`,
        kind: 'slot',
      })
    // One list with the import and export: every column of the sheet, none of its own.
    expect(bulkFields().map((field) => field.path)).toEqual(skuColumns({ assets3D: 1 }))
  })

  it('sets the model address and asset id on drafts without a model, and they are ready', async () => {
    const payload = copy(full) as Sku
    payload.arEffect!.effectAssets3D = []
    const id = (await drafts.create(payload, 1000)).id
    await bulk.setField([id], 'arEffect.effectAssets3D.0.id', 'frame')
    await bulk.setField([id], 'arEffect.effectAssets3D.0.url', 'https://cdn.example.net/frame.glb')
    const draft = await drafts.get(id)
    expect(draft?.payload.arEffect?.effectAssets3D).toEqual([
      { id: 'frame', url: 'https://cdn.example.net/frame.glb' },
    ])
    expect(draft).toMatchObject({ validity: 'valid', warningCount: 0 })
    await expect(bulk.setField([id], 'arEffect.effectAssets3D.0.url', 'cdn/frame.glb')).rejects.toThrow(
      /Model address of 3D asset 1 must be a web address/,
    )
  })

  it('fills and empties a 2D slot in place, the seven slots kept', async () => {
    const id = (await drafts.create(copy(full) as Sku, 1000)).id
    const asset = { url: 'https://cdn.example.net/lens.png' }
    await bulk.setField([id], 'arEffect.effectAssets2D.2', asset)
    expect((await drafts.get(id))?.payload.arEffect?.effectAssets2D).toEqual([
      null,
      null,
      asset,
      null,
      null,
      null,
      null,
    ])
    // The same object again is no change.
    expect(await bulk.setField([id], 'arEffect.effectAssets2D.2', { ...asset })).toMatchObject({
      unchanged: 1,
    })
    await bulk.setField([id], 'arEffect.effectAssets2D.2', null)
    expect((await drafts.get(id))?.payload.arEffect?.effectAssets2D).toHaveLength(7)
    expect((await drafts.get(id))?.payload.arEffect?.effectAssets2D?.[2]).toBeNull()
    // Removing a slot would shift the others: refused.
    await expect(bulk.setField([id], 'arEffect.effectAssets2D.2', undefined)).rejects.toThrow(
      /2D asset 3 must be empty/,
    )
  })

  it('makes a draft created on a destination changed since sent there, as the editor does', async () => {
    const id = (await drafts.create(copy(full) as Sku, 1000)).id
    const sent = (await drafts.get(id))!.payload
    await setStanding(db.skuDrafts, id, 'synced', DEST, { sent: payloadFingerprint(sent) })
    expect((await drafts.get(id))?.standing).not.toContain(standingTag(DEST, 'changed'))
    const result = await bulk.setField([id], 'arEffect.effectAssets3D.0.url', 'https://cdn.example.net/a.glb')
    expect(result).toMatchObject({ count: 1, changedSinceSent: 1 })
    expect((await drafts.get(id))?.standing).toContain(standingTag(DEST, 'changed'))
  })
})

/** Drafts whose one model is at `url`, or that have none for ''. */
async function withModels(...urls: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const [i, url] of urls.entries()) {
    const payload = { ...copy(full), productName: `Frame ${i}`, barcode: `500${i}` } as Sku
    payload.arEffect!.effectAssets3D = url ? [{ id: 'frame', url }] : []
    ids.push((await drafts.create(payload, 1000)).id)
  }
  return ids
}

const MODEL = 'arEffect.effectAssets3D.0.url'
const MOVE = { find: 'https://old-cdn/', replace: 'https://cdn.example.net/', mode: 'start' } as const
const modelOf = async (id: string) => (await drafts.get(id))?.payload.arEffect?.effectAssets3D?.[0]?.url

describe('find and replace within a field', () => {
  it('previews the count and the first changes, leaving out drafts without the text', async () => {
    const ids = await withModels(
      'https://old-cdn/a.glb',
      'https://other.example.com/https://old-cdn/b.glb',
      '',
      'https://old-cdn/c.glb',
      'https://old-cdn/d.glb',
    )
    const preview = await bulk.previewReplace(ids, MODEL, MOVE, { limit: 2 })
    expect(preview).toEqual({
      count: 3,
      inRun: 0,
      changes: [
        {
          id: ids[0],
          name: 'Frame 0',
          before: 'https://old-cdn/a.glb',
          after: 'https://cdn.example.net/a.glb',
        },
        {
          id: ids[3],
          name: 'Frame 3',
          before: 'https://old-cdn/c.glb',
          after: 'https://cdn.example.net/c.glb',
        },
      ],
    })
    // A preview writes nothing.
    expect(await modelOf(ids[0]!)).toBe('https://old-cdn/a.glb')
  })

  it('replaces in one action, counts only the drafts changed, and undoes in one step', async () => {
    const ids = await withModels(
      'https://old-cdn/a.glb',
      'https://cdn.example.com/b.glb',
      'https://old-cdn/c.glb',
    )
    const held = (await withModels('https://old-cdn/held.glb'))[0]!
    await setStanding(db.skuDrafts, held, 'queued')
    const before = await everything()

    const result = await bulk.replaceInField([...ids, held], MODEL, MOVE, { now: 5000 })
    expect(result).toMatchObject({ count: 2, unchanged: 0, skipped: { inRun: 1, sent: 0, missing: 0 } })
    expect(await modelOf(ids[0]!)).toBe('https://cdn.example.net/a.glb')
    expect(await modelOf(ids[2]!)).toBe('https://cdn.example.net/c.glb')
    // Without the text: not touched, not even its time of last edit.
    expect(await drafts.get(ids[1]!)).toMatchObject({ updatedAt: 1000 })
    expect(await modelOf(held)).toBe('https://old-cdn/held.glb')
    const [action] = await undoLog.history()
    expect(action).toMatchObject({ count: 2 })
    expect(actionLabel(action!)).toBe(
      'Replaced “https://old-cdn/” with “https://cdn.example.net/” at the start of Model address of 3D asset 1 on 2 drafts',
    )

    expect(await undoLog.undoLatest()).toMatchObject({ actions: 1, result: { restored: 2 } })
    expect(await everything()).toEqual(before)
  })

  it('refuses the whole replacement when a new value would not pass the form, naming the draft', async () => {
    const ids = await withModels('https://old-cdn/a.glb', 'https://old-cdn/b.glb')
    const before = await everything()
    const broken = { find: 'https://', replace: '', mode: 'start' } as const
    expect((await bulk.previewReplace(ids, MODEL, broken)).problem).toMatch(
      /^Frame 0: Model address of 3D asset 1 must be a web address/,
    )
    await expect(bulk.replaceInField(ids, MODEL, broken)).rejects.toThrow(
      /Frame 0: Model address of 3D asset 1 must be a web address/,
    )
    expect(await everything()).toEqual(before)
    expect(await undoLog.history()).toEqual([])
  })

  it('refuses a field that holds no text', async () => {
    const ids = await withModels('https://old-cdn/a.glb')
    await expect(
      bulk.replaceInField(ids, 'arEffect.envSettings.intensity', { find: '1', replace: '2', mode: 'text' }),
    ).rejects.toThrow(/holds no text/)
  })
})
