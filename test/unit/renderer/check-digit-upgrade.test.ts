import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuSendGates } from '#renderer/db/sku-send-gates.ts'
import { draftColumns } from '#shared/draft-columns.ts'
import type { Sku } from '#shared/schema/sku.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { DEST } from './standings.ts'

// A database as version 9 of the app left it, opened by today's: version 10 derives the drafts'
// gaps again, so a barcode whose GTIN check digit is wrong is found by the gates' index, and
// counts among the draft's warnings (src/renderer/src/db/check-digit-upgrade.ts).

let name = ''
let db: CatalogDatabase | undefined

beforeEach(() => {
  name = `catalog-desk-check-digits-${crypto.randomUUID()}`
})

afterEach(async () => {
  db?.close()
  db = undefined
  await Dexie.delete(name)
})

/** The stores as version 9 declared them (versions 1 to 9 added up). */
function versionNine(): Dexie {
  const v9 = new Dexie(name)
  v9.version(9).stores({
    skuDrafts:
      'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms, *gaps',
    appDrafts: 'id, updatedAt, name, *standing',
    skuUndo: '[batch+id], batch',
    syncRuns: 'id, createdAt, state, destination',
    syncItems: '[run+position], [run+state+position], [run+key], key',
    syncRequests: 'id, [runId+startedAt]',
    assetChecks: 'id, status, checkedAt',
    skuActions: '++seq, &batch',
  })
  return v9
}

const sku = (barcode: string, extra: Partial<Sku> = {}): Sku =>
  ({ ...structuredClone(full), barcode, productName: `Frame ${barcode}`, ...extra }) as Sku

/**
 * A SKU draft as version 9 wrote it: its columns as today's, but for what version 9 did not know
 * of a barcode (no `check-digit` gap, no warning for it).
 */
function v9Draft(id: string, payload: Sku) {
  const columns = draftColumns(payload)
  const warnings = columns.warningCount - (columns.gaps.includes('check-digit') ? 1 : 0)
  return {
    id,
    payload,
    createdAt: 1,
    updatedAt: 2,
    sync: {},
    standing: [],
    ...columns,
    validity: columns.errorCount > 0 ? 'invalid' : warnings > 0 ? 'warnings' : 'valid',
    warningCount: warnings,
    gaps: columns.gaps.filter((gap) => gap !== 'check-digit'),
  }
}

describe('the upgrade from version 9: GTIN check digits', () => {
  it('gives the drafts whose barcode has a wrong check digit their gap and their warning, and leaves the others as they were', async () => {
    const v9 = versionNine()
    // The PrestaShop sample's EAN-13 (test/fixtures/sheets/exports/real), whose check digit is wrong.
    const wrong = v9Draft('wrong', sku('1234567890123'))
    const lettered = v9Draft('lettered', sku('88O8992787426', { category: '' }))
    const right = v9Draft('right', sku('8808992787426'))
    const shopCode = v9Draft('shop-code', sku('RP-demo_1'))
    expect(wrong).toMatchObject({ validity: 'valid', warningCount: 0, gaps: [] })
    await v9.table('skuDrafts').bulkAdd([wrong, lettered, right, shopCode])
    v9.close()

    db = new CatalogDatabase(name)
    await db.open()
    expect(db.verno).toBe(14)
    expect(await db.skuDrafts.get('wrong')).toEqual({
      ...wrong,
      validity: 'warnings',
      warningCount: 1,
      gaps: ['check-digit'],
      // Every draft is written again on its way to version 14 (v11's search words), and the write
      // marks it as waiting to be shared should a workspace be joined.
      teamWaiting: 1,
    })
    expect((await db.skuDrafts.get('lettered'))?.gaps).toEqual(['category', 'check-digit'])
    expect(await db.skuDrafts.get('right')).toEqual({ ...right, teamWaiting: 1 })
    expect(await db.skuDrafts.get('shop-code')).toEqual({ ...shopCode, teamWaiting: 1 })
    // Found on the index alone, as the Sync page's gates read it.
    expect((await db.skuDrafts.where('gaps').equals('check-digit').primaryKeys()).sort()).toEqual([
      'lettered',
      'wrong',
    ])
    const held = await new SkuSendGates(db).heldBack({
      destination: DEST,
      required: [],
      place: 'Sandbox',
      holdBadCheckDigits: true,
    })
    expect([...held.holds.keys()].sort()).toEqual(['lettered', 'wrong'])
  })
})
