import { describe, expect, it } from 'vitest'
import { fileVerdict, type VerdictItem } from '#shared/sync/file-verdict.ts'
import full from '../../fixtures/sku-eyewear-full.json'

const sku = (extra: Record<string, unknown> = {}) => ({ ...structuredClone(full), ...extra })
const item = (row: number, payload: unknown, extra: Partial<VerdictItem> = {}): VerdictItem => ({
  payload,
  row,
  valid: true,
  ...extra,
})
const options = { required: ['category'], requiredBy: 'this file' }

describe('one verdict for a file (fileVerdict)', () => {
  it('counts valid, sendable and held back with the gates’ reasons', () => {
    const verdict = fileVerdict(
      [
        item(2, sku({ barcode: '111' })),
        item(3, sku({ barcode: '' })),
        item(4, sku({ barcode: '333', category: undefined })),
        item(5, sku({ barcode: '444' }), { valid: false }),
      ],
      options,
    )
    expect(verdict).toMatchObject({ total: 4, valid: 3, sendable: 1, heldBack: 2 })
    expect(verdict.holds.get(1)).toMatchObject({ reason: 'identity', message: 'No barcode' })
    expect(verdict.holds.get(2)).toMatchObject({ reason: 'required' })
    expect(verdict.holds.has(3)).toBe(false)
  })

  it('keeps every reason of a SKU held for more than one, the first first, and counts it once', () => {
    const verdict = fileVerdict(
      [
        item(2, sku({ barcode: '', category: undefined })),
        item(3, sku({ barcode: '', category: undefined })),
      ],
      options,
    )
    expect(verdict).toMatchObject({ valid: 2, sendable: 0, heldBack: 2 })
    expect(verdict.holds.size).toBe(2)
    for (const index of [0, 1]) {
      expect(verdict.holds.all(index).map((hold) => hold.message)).toEqual([
        'No barcode',
        'Category is empty; this file requires it',
      ])
      expect(verdict.holds.get(index)).toBe(verdict.holds.all(index)[0])
    }
    expect(verdict.holds.all(2)).toEqual([])
  })

  it('holds every SKU of a shared barcode, names repeated rows and counts the distinct SKUs', () => {
    const one = sku({ barcode: '111' })
    const verdict = fileVerdict(
      [item(2, one), item(3, structuredClone(one)), item(4, sku({ barcode: '111', brand: 'Other' }))],
      options,
    )
    expect(verdict.sendable).toBe(0)
    expect([...verdict.holds.values()].map((hold) => hold.reason)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ])
    expect(verdict.repeated).toEqual([{ key: '111', rows: [2, 3] }])
    expect(verdict.distinct).toBe(2)
  })

  // A tryout's own sheet of three jewels, its name columns ("title_uk") not read: "3 SKU rows
  // hold 1 distinct SKU", alike only in the defaults filled and the columns read.
  it('names no rows with neither a barcode nor a name as the same SKU, and counts each as one', () => {
    const unnamed = { status: 'DRAFT', isActive: true }
    const verdict = fileVerdict(
      [item(2, unnamed), item(3, { ...unnamed }), item(4, { ...unnamed }), item(5, sku({ barcode: '1' }))],
      options,
    )
    expect(verdict.repeated).toEqual([])
    expect(verdict.distinct).toBe(4)
    // A name alone tells them apart, and says when two are the same.
    const named = { ...unnamed, productName: 'Lunnytsya' }
    expect(fileVerdict([item(2, named), item(3, { ...named })], options).repeated).toEqual([
      { key: '', rows: [2, 3] },
    ])
  })

  it('names shop ids carried by more than one row, and holds nothing for them alone', () => {
    const verdict = fileVerdict(
      [item(2, sku({ barcode: '1' }), { shopId: '42' }), item(3, sku({ barcode: '2' }), { shopId: ' 42' })],
      options,
    )
    expect(verdict.repeatedShopIds).toEqual([{ key: '42', rows: [2, 3] }])
    expect(verdict.sendable).toBe(2)
  })

  it('holds a barcode the destination already has, when its records are known', () => {
    const verdict = fileVerdict([item(2, sku({ barcode: '111' }))], {
      ...options,
      createdThere: new Map([['111', { by: 'created on Production by row 9' }]]),
    })
    expect(verdict.holds.get(0)).toMatchObject({ reason: 'created' })
  })
})
