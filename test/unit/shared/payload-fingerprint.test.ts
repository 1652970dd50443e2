import { describe, expect, it } from 'vitest'
import { contentText, payloadFingerprint } from '#shared/payload-fingerprint.ts'

describe('payload fingerprints', () => {
  it('the same JSON whatever its key order; any other value differs', () => {
    const a = { brand: 'Northwind', meta: { age: 'adult', gender: 'unisex' }, slots: [null, 1] }
    const b = { slots: [null, 1], meta: { gender: 'unisex', age: 'adult' }, brand: 'Northwind' }
    expect(payloadFingerprint(a)).toBe(payloadFingerprint(b))
    for (const other of [
      { ...a, brand: 'Northwind ' },
      { ...a, slots: [1, null] },
      { ...a, meta: { age: 'adult' } },
      { ...a, extra: '' },
      { ...a, brand: 1 },
    ])
      expect(payloadFingerprint(other)).not.toBe(payloadFingerprint(a))
  })

  it('as cells: empty text, no value and an empty group are one empty cell; the rest still counts', () => {
    const draft = { orgId: '', brand: 'Northwind', meta: {}, arEffect: { effectAssets3D: [] } }
    const row = { brand: 'Northwind', arEffect: { effectAssets3D: [] } }
    expect(contentText(draft, 'cells')).toBe(contentText(row, 'cells'))
    expect(contentText(draft, 'exact')).not.toBe(contentText(row, 'exact'))
    expect(payloadFingerprint(draft, 'cells')).toBe(payloadFingerprint(row, 'cells'))
    expect(contentText({ ...row, brand: 'Other' }, 'cells')).not.toBe(contentText(draft, 'cells'))
    // A list keeps its positions: an empty 3D list is not "no list".
    expect(contentText({ brand: 'Northwind' }, 'cells')).not.toBe(contentText(row, 'cells'))
  })
})
