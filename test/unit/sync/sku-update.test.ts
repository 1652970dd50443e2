import { describe, expect, it } from 'vitest'
import { hasUpdate, skuUpdatePlan } from '#shared/sync/sku-update.ts'
import { platformIdsOf } from '#shared/sync/platform-ids.ts'
import full from '../../fixtures/sku-eyewear-full.json'

const base = (): Record<string, unknown> => structuredClone(full) as Record<string, unknown>

describe('what an update sends (skuUpdatePlan)', () => {
  it('sends a nested change as the keys that changed, however deep', () => {
    const current = base() as { arEffect: { transform: { position: { y: number } } } }
    current.arEffect.transform.position.y = 0.123
    const plan = skuUpdatePlan(base(), current)
    expect(plan.fields).toEqual({ arEffect: { transform: { position: { y: 0.123 } } } })
    expect(plan.changes.map((change) => change.path)).toEqual(['arEffect.transform.position.y'])
    expect(plan.whole).toBe(false)
  })

  it('sends a list whole when anything in it changed', () => {
    const before = base()
    const current = base() as { arEffect: { effectAssets3D: Array<Record<string, unknown>> } }
    const assets = current.arEffect.effectAssets3D
    assets[0] = { ...assets[0], url: 'https://cdn.example.com/new.glb' }
    expect(skuUpdatePlan(before, current).fields).toEqual({ arEffect: { effectAssets3D: assets } })
  })

  it('carries the whole arEffect with a category change', () => {
    const current: Record<string, unknown> = { ...base(), category: 'jewellery' }
    expect(skuUpdatePlan(base(), current).fields).toEqual({
      category: 'jewellery',
      arEffect: current.arEffect,
    })
  })

  it('says which removed fields stay on the platform, and sends nothing for them', () => {
    const current = base()
    delete current.brand
    const plan = skuUpdatePlan(base(), current)
    expect(plan.kept).toEqual(['brand'])
    expect(hasUpdate(plan)).toBe(false)
  })

  it('sends the whole SKU when there is nothing to compare with', () => {
    const plan = skuUpdatePlan(undefined, base())
    expect(plan).toMatchObject({ whole: true, fields: base(), changes: [] })
  })
})

describe("the platform's ids in a bulk answer (platformIdsOf)", () => {
  const barcodes = ['111', '222']

  it('reads items that name their barcode, in any order, under _id, id or skuId', () => {
    expect(
      platformIdsOf(
        {
          skus: [
            { barcode: '222', id: 'b' },
            { barcode: '111', _id: 'a' },
          ],
        },
        barcodes,
      ),
    ).toEqual(['a', 'b'])
    expect(platformIdsOf({ items: [{ barcode: '111', skuId: 7 }] }, barcodes)).toEqual(['7', undefined])
  })

  it('reads ids by position only when there is one a SKU sent', () => {
    expect(platformIdsOf(['a', 'b'], barcodes)).toEqual(['a', 'b'])
    expect(platformIdsOf({ data: [{ _id: 'a' }, { _id: 'b' }] }, barcodes)).toEqual(['a', 'b'])
    expect(platformIdsOf(['a'], barcodes)).toEqual([undefined, undefined])
  })

  it('reads nothing from an answer without ids, or ids that could not travel in a path', () => {
    expect(platformIdsOf({ message: 'Created', count: 2 }, barcodes)).toEqual([undefined, undefined])
    expect(platformIdsOf(['../x', 'a b'], barcodes)).toEqual([undefined, undefined])
  })
})
