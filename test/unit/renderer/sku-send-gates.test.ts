import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { countByReason, SkuSendGates, type GateTarget } from '#renderer/db/sku-send-gates.ts'
import { SkuListReader } from '#renderer/db/sku-list-reader.ts'
import { defaultListQuery } from '#renderer/db/sku-list-query.ts'
import { SyncRunRepository } from '#renderer/db/sync-runs.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { SAMPLE_ADDRESSES } from '#shared/sample-assets.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { DEST, setStanding } from './standings.ts'

// The gates before sending, read from the database: which drafts a run to a destination holds
// back, and that a run then never queues them.

const OTHER = 'https://api.example.com'
const TARGET: GateTarget = { destination: DEST, required: ['category'], place: 'Sandbox' }

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
let gates: SkuSendGates

beforeEach(() => {
  name = `catalog-desk-gates-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  gates = new SkuSendGates(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

const sku = (barcode: string, extra: Record<string, unknown> = {}): Sku =>
  ({ ...structuredClone(full), barcode, productName: `Frame ${barcode}`, ...extra }) as Sku

/** The tryout's set: sound drafts, an empty one, a nameless, a barcode-less, two sharing a barcode. */
async function tryoutSet() {
  const ids = {
    sound: (await drafts.create(sku('100'))).id,
    sound2: (await drafts.create(sku('101'))).id,
    empty: (await drafts.create(newSkuPayload())).id,
    nameless: (await drafts.create(sku('102', { productName: '' }))).id,
    noBarcode: (await drafts.create(sku('', { productName: 'No code' }))).id,
    twinA: (await drafts.create(sku('200', { productName: 'Twin A' }))).id,
    twinB: (await drafts.create(sku(' 200', { productName: 'Twin B' }))).id,
    noCategory: (await drafts.create(sku('103', { category: '' }))).id,
  }
  return ids
}

describe('the gates before sending, over the stored drafts', () => {
  it('holds back the empty, nameless, barcode-less, twin and category-less drafts, each with its reason', async () => {
    const ids = await tryoutSet()
    const held = await gates.heldBack(TARGET)
    const reasons = Object.fromEntries([...held.holds].map(([id, hold]) => [id, hold.reason]))
    expect(reasons).toEqual({
      [ids.empty]: 'empty',
      [ids.nameless]: 'identity',
      [ids.noBarcode]: 'identity',
      [ids.twinA]: 'duplicate',
      [ids.twinB]: 'duplicate',
      [ids.noCategory]: 'required',
    })
    expect(held.holds.get(ids.twinA)?.message).toBe(
      'Barcode 200 is also on 1 other SKU to be sent (“Twin B”): keep one',
    )
    expect(countByReason(held)).toEqual({
      empty: 1,
      identity: 2,
      required: 1,
      'check-digit': 0,
      sample: 0,
      duplicate: 2,
      repeat: 0,
      created: 0,
    })
    // A profile that requires nothing more lets the category-less draft through.
    expect((await gates.heldBack({ ...TARGET, required: [] })).holds.has(ids.noCategory)).toBe(false)
  })

  it('holds back a barcode another draft created (or may have created) there, and not elsewhere', async () => {
    const created = await drafts.create(sku('300', { productName: 'Old' }))
    const again = await drafts.create(sku('300', { productName: 'New' }))
    const maybe = await drafts.create(sku('301', { productName: 'Lost answer' }))
    const after = await drafts.create(sku('301', { productName: 'Next' }))
    await setStanding(db.skuDrafts, created.id, 'synced')
    await setStanding(db.skuDrafts, maybe.id, 'unknown')
    const held = await gates.heldBack(TARGET)
    expect(held.holds.get(again.id)?.message).toBe(
      'Barcode 300 was already created on Sandbox by draft “Old”: sending it would create a second copy',
    )
    expect(held.holds.get(after.id)?.message).toMatch(/may have created it \(outcome unknown\)/)
    expect(held.holds.has(created.id)).toBe(false)
    // At another destination nothing was created: the two drafts there are twins of one send.
    const elsewhere = await gates.heldBack({ ...TARGET, destination: OTHER })
    expect(elsewhere.holds.get(again.id)?.reason).toBe('duplicate')
  })

  // A tryout edited a created SKU's barcode, imported the same file again, and the platform got the
  // SKU twice: the old barcode was no draft's any more.
  it('holds back the barcode a created SKU stands with there while its draft carries another, until an update sends it', async () => {
    const created = await drafts.create(sku('400', { productName: 'Rose' }))
    await setStanding(db.skuDrafts, created.id, 'synced', DEST, { barcode: '400' })
    await saveDraftPayload(db, 'skus', created.id, sku('401', { productName: 'Rose' }), 2_000)
    const again = await drafts.create(sku('400', { productName: 'Rose, imported again' }))
    const message =
      'Barcode 400 was already created on Sandbox by draft “Rose”: sending it would create a second copy'
    expect((await gates.heldBack(TARGET)).holds.get(again.id)?.message).toBe(message)
    expect(await gates.draftGate(TARGET, again.id)).toMatchObject({
      hold: { reason: 'created', message, others: [{ id: created.id, label: '“Rose”' }] },
    })
    // Elsewhere nothing stands with it; nor here once the update sent the new barcode.
    expect((await gates.heldBack({ ...TARGET, destination: OTHER })).holds.has(again.id)).toBe(false)
    await setStanding(db.skuDrafts, created.id, 'synced', DEST, { barcode: '401' })
    expect((await gates.heldBack(TARGET)).holds.has(again.id)).toBe(false)
    expect(await gates.draftGate(TARGET, again.id)).toEqual({ sendable: true })
  })

  it('judges only a scope when one is given: twins split across scopes pass', async () => {
    const a = await drafts.create(sku('400'))
    const b = await drafts.create(sku('400'))
    expect((await gates.heldBack(TARGET, { scope: new Set([a.id]) })).holds.size).toBe(0)
    expect((await gates.heldBack(TARGET, { scope: new Set([a.id, b.id]) })).holds.size).toBe(2)
  })

  it('a run never queues what is held back, and the list shows exactly those drafts', async () => {
    const ids = await tryoutSet()
    const held = await gates.heldBack(TARGET)
    const { queued } = await new SyncRunRepository(db).enqueue('skus', {
      target: { id: 'sandbox', name: 'Sandbox', url: DEST, destination: DEST, batchSize: 10, concurrency: 1 },
      heldBack: new Set(held.holds.keys()),
    })
    expect(queued).toBe(2)
    const queuedIds = (await db.syncItems.toArray()).map((item) => item.key).sort()
    expect(queuedIds).toEqual([ids.sound, ids.sound2].sort())

    const list = new SkuListReader(db)
    const query = { ...defaultListQuery(), destination: DEST, required: ['category'] }
    const shown = await list.open({ ...query, filters: { heldBack: 'duplicate' } })
    expect((await shown.allIds()).sort()).toEqual([ids.twinA, ids.twinB].sort())
    const any = await list.open({ ...query, filters: { heldBack: 'any' } })
    // The queued drafts are no longer candidates; what is held back stays held back.
    expect(await any.allIds()).toHaveLength(6)
  })

  it('asked for one draft (its editor), says what the whole send says, naming the drafts concerned', async () => {
    const ids = await tryoutSet()
    const all = await gates.heldBack(TARGET)
    for (const id of Object.values(ids)) {
      const gate = await gates.draftGate(TARGET, id)
      expect(gate.sendable).toBe(true)
      const said = (hold: { reason: string; message: string } | undefined) =>
        hold && { reason: hold.reason, message: hold.message }
      expect(said(gate.hold)).toEqual(said(all.holds.get(id)))
    }
    // The twin names the other, with a way to it; the spaces around a barcode do not hide it.
    expect((await gates.draftGate(TARGET, ids.twinB)).hold).toEqual({
      reason: 'duplicate',
      message: 'Barcode 200 is also on 1 other SKU to be sent (“Twin A”): keep one',
      others: [{ id: ids.twinA, label: '“Twin A”' }],
    })
    // A required field's reason says which profile requires it.
    expect((await gates.draftGate(TARGET, ids.noCategory)).hold).toMatchObject({
      reason: 'required',
      message: 'Category is empty; Sandbox requires it',
      others: [],
    })
  })

  it('asked for one draft, names the draft that created its barcode there; a draft sent there is not sendable', async () => {
    const created = await drafts.create(sku('300', { productName: 'Old' }))
    const again = await drafts.create(sku('300', { productName: 'New' }))
    const prefixed = await drafts.create(sku('3000', { productName: 'Longer code' }))
    await setStanding(db.skuDrafts, created.id, 'synced')
    expect(await gates.draftGate(TARGET, again.id)).toEqual({
      sendable: true,
      hold: {
        reason: 'created',
        message:
          'Barcode 300 was already created on Sandbox by draft “Old”: sending it would create a second copy',
        others: [{ id: created.id, label: '“Old”' }],
      },
    })
    // A barcode that only starts like it is another barcode.
    expect(await gates.draftGate(TARGET, prefixed.id)).toEqual({ sendable: true })
    expect(await gates.draftGate(TARGET, created.id)).toEqual({ sendable: false })
    expect(await gates.draftGate(TARGET, 'no-such-draft')).toEqual({ sendable: false })
  })

  it('holds back a draft naming a sample address from every destination but the Sandbox, in the list too', async () => {
    const withSample = sku('300', {
      arEffect: {
        ...structuredClone(full.arEffect),
        effectAssets3D: [{ id: 'frame', url: SAMPLE_ADDRESSES.model }],
      },
    })
    const sample = await drafts.create(withSample)
    const sound = await drafts.create(sku('301'))
    const production: GateTarget = { ...TARGET, place: 'Production' }
    const held = await gates.heldBack(production)
    expect([...held.holds.keys()]).toEqual([sample.id])
    expect(held.holds.get(sample.id)).toEqual({
      reason: 'sample',
      message: 'Uses the sample model or pictures: replace them before sending to Production',
    })
    expect(countByReason(held).sample).toBe(1)
    expect((await gates.draftGate(production, sample.id)).hold?.reason).toBe('sample')
    expect(await gates.draftGate(production, sound.id)).toEqual({ sendable: true })

    const sandbox: GateTarget = { ...TARGET, destination: EMBEDDED_SANDBOX_DESTINATION }
    expect((await gates.heldBack(sandbox)).holds.size).toBe(0)
    expect(await gates.draftGate(sandbox, sample.id)).toEqual({ sendable: true })

    const list = new SkuListReader(db)
    const query = { ...defaultListQuery(), required: ['category'], filters: { heldBack: 'sample' as const } }
    expect(await (await list.open({ ...query, destination: DEST })).allIds()).toEqual([sample.id])
    expect(await (await list.open({ ...query, destination: EMBEDDED_SANDBOX_DESTINATION })).allIds()).toEqual(
      [],
    )
  })

  it('holds back a barcode whose check digit is wrong only for a profile that says so, in the list too', async () => {
    // The PrestaShop sample's EAN-13, whose check digit should be 8 (test/fixtures/sheets/exports/real).
    const wrong = await drafts.create(sku('1234567890123', { productName: 'iPod Nano' }))
    const lettered = await drafts.create(sku('88O8992787426', { productName: 'Typed O' }))
    const right = await drafts.create(sku('8808992787426', { productName: 'LG TV' }))
    const shopCode = await drafts.create(sku('RP-demo_1', { productName: 'Shop code' }))
    // Only the drafts with a finding enter the index: complete rows stay out of it.
    expect((await db.skuDrafts.where('gaps').equals('check-digit').primaryKeys()).sort()).toEqual(
      [wrong.id, lettered.id].sort(),
    )

    // Off (the default): nothing is held back for it.
    expect((await gates.heldBack(TARGET)).holds.size).toBe(0)
    expect(await gates.draftGate(TARGET, wrong.id)).toEqual({ sendable: true })

    const strict: GateTarget = { ...TARGET, holdBadCheckDigits: true }
    const held = await gates.heldBack(strict)
    expect([...held.holds.keys()].sort()).toEqual([wrong.id, lettered.id].sort())
    expect(held.holds.get(wrong.id)).toEqual({
      reason: 'check-digit',
      message: 'The barcode’s check digit is wrong; Sandbox holds such SKUs back',
    })
    expect(countByReason(held)['check-digit']).toBe(2)
    expect((await gates.draftGate(strict, wrong.id)).hold?.reason).toBe('check-digit')
    expect(await gates.draftGate(strict, right.id)).toEqual({ sendable: true })
    expect(await gates.draftGate(strict, shopCode.id)).toEqual({ sendable: true })

    // The list's "Held back" filter judges as the profile does.
    const list = new SkuListReader(db)
    const query = { ...defaultListQuery(), destination: DEST, required: ['category'] }
    const filter = { heldBack: 'check-digit' as const }
    expect(await (await list.open({ ...query, filters: filter })).allIds()).toEqual([])
    const shown = await list.open({ ...query, holdBadCheckDigits: true, filters: filter })
    expect((await shown.allIds()).sort()).toEqual([wrong.id, lettered.id].sort())

    // Corrected, the draft leaves the index and passes.
    await saveDraftPayload<SkuDraftRecord>(
      db,
      'skus',
      wrong.id,
      sku('1234567890128', { productName: 'iPod Nano' }),
    )
    expect((await gates.heldBack(strict)).holds.has(wrong.id)).toBe(false)
  })
})
